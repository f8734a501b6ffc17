//! Hand-labelled response tables (`tests/data/verdict_responses.tsv` is one): a task, a raw
//! response, the verdict a careful reader takes from it, and why. The verdict rules are tested
//! on them, and `kgscope bench verdicts` measures the rules and the judge on them.

use crate::core::verdict::Verdict;

/// One labelled response.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based line in the file.
    pub line: usize,
    /// `statement` or `yesno`.
    pub task: String,
    pub response: String,
    pub label: Verdict,
    pub reason: String,
}

/// `\n`, `\t`, `\r` and `\\` back to what they stand for.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(o) => return Err(format!("unknown escape \\{o}")),
            None => return Err("trailing backslash".into()),
        }
    }
    Ok(out)
}

fn label(s: &str) -> Result<Verdict, String> {
    Ok(match s {
        "true" | "yes" => Verdict::True,
        "false" | "no" => Verdict::False,
        "idk" => Verdict::Idk,
        "invalid" => Verdict::Invalid,
        o => {
            return Err(format!(
                "unknown label {o:?} (true/yes, false/no, idk, invalid)"
            ))
        }
    })
}

/// Parses a table: `task<TAB>response<TAB>label<TAB>reason` per line, `#` lines and blank lines
/// skipped. Errors name the line.
pub fn parse(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let line = i + 1;
        let at = |e: String| format!("line {line}: {e}");
        let cols: Vec<&str> = l.split('\t').collect();
        if cols.len() != 4 {
            return Err(at(format!(
                "want 4 tab-separated columns, got {}",
                cols.len()
            )));
        }
        if !matches!(cols[0], "statement" | "yesno") {
            return Err(at(format!("task {:?} (statement or yesno)", cols[0])));
        }
        if cols[3].trim().is_empty() {
            return Err(at("no reason given".into()));
        }
        rows.push(Row {
            line,
            task: cols[0].to_string(),
            response: unescape(cols[1]).map_err(at)?,
            label: label(cols[2]).map_err(at)?,
            reason: cols[3].to_string(),
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names_bad_lines() {
        let rows = parse("# c\nstatement\tYes.\\nNo\tyes\tfirst\n\nyesno\tNo\tno\tr\n").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].response, "Yes.\nNo");
        assert_eq!((rows[1].line, rows[1].label), (4, Verdict::False));
        assert!(parse("statement\tx\tmaybe\tr")
            .unwrap_err()
            .starts_with("line 1"));
        assert!(parse("quiz\tx\tyes\tr").is_err());
        assert!(parse("statement\tx\\q\tyes\tr").is_err());
        assert!(parse("statement\tx\tyes\t").is_err());
    }
}

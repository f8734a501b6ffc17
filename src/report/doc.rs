//! Reports as documents: headings, paragraphs, tables and figures, written as Markdown (for a
//! paper or an issue) or as one self-contained HTML file (figures inlined as SVG, styles in
//! the page) that can be mailed. KG and model text is data: Markdown text is cleaned and its
//! `&`, `<`, `>` written as entities (cells' pipes escaped too), HTML text is escaped.

use std::fmt::Write;

use crate::sanitize::line as clean;

/// A rate with its 95% interval, "0.734 [0.612, 0.831]"; "–" when there is none.
pub fn rate(r: Option<crate::metrics::Rate>) -> String {
    r.map_or_else(
        || "–".into(),
        |r| format!("{:.3} [{:.3}, {:.3}]", r.value, r.lo, r.hi),
    )
}

#[derive(Debug, Clone)]
pub enum Block {
    Heading(u8, String),
    Para(String),
    /// Header and rows; every row as long as the header. Columns after the first are
    /// right-aligned when `numeric`.
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
        numeric: bool,
    },
    /// An SVG document and its caption (HTML only; Markdown gives the caption).
    Figure {
        svg: String,
        caption: String,
    },
}

/// Text in Markdown, cleaned, with `&`, `<` and `>` as entities: most renderers pass raw HTML
/// through, so a KG label like `</title><script>…` would otherwise become markup. Entities
/// render as the characters they stand for, so nothing a reader sees changes.
fn md_text(s: &str) -> String {
    entities(s, false)
}

/// `s` cleaned, with `&`, `<`, `>` (and with `quotes`, `"` and `'`) as entities.
fn entities(s: &str, quotes: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in clean(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quotes => out.push_str("&quot;"),
            '\'' if quotes => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table cell: [`md_text`] with backslashes and pipes escaped, so a cell stays one cell.
fn md_cell(s: &str) -> String {
    md_text(&s.replace('\\', "\\\\").replace('|', "\\|"))
}

pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let _ = writeln!(out, "{} {}\n", "#".repeat(*level as usize), md_text(text));
            }
            Block::Para(text) => {
                let _ = writeln!(out, "{}\n", md_text(text));
            }
            Block::Table {
                header,
                rows,
                numeric,
            } => {
                let cells: Vec<String> = header.iter().map(|h| md_cell(h)).collect();
                let _ = writeln!(out, "| {} |", cells.join(" | "));
                let align: Vec<&str> = (0..header.len())
                    .map(|i| if *numeric && i > 0 { "---:" } else { "---" })
                    .collect();
                let _ = writeln!(out, "| {} |", align.join(" | "));
                for r in rows {
                    let cells: Vec<String> = r.iter().map(|c| md_cell(c)).collect();
                    let _ = writeln!(out, "| {} |", cells.join(" | "));
                }
                out.push('\n');
            }
            Block::Figure { caption, .. } => {
                let _ = writeln!(out, "*Figure: {}* (in the HTML report)\n", md_text(caption));
            }
        }
    }
    out
}

/// Text in HTML, cleaned and escaped (attribute values too).
pub fn escape(s: &str) -> String {
    entities(s, true)
}

const STYLE: &str = "body{font-family:'DejaVu Sans',system-ui,sans-serif;max-width:1200px;\
margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}\
th,td{border:1px solid #ccc;padding:0.25em 0.6em}th{background:#f2f2f2;text-align:left}\
td.n{text-align:right;font-variant-numeric:tabular-nums}td.iv{white-space:nowrap}\
figure{margin:1em 0 2em;overflow-x:auto}figcaption{color:#666;font-size:0.9em}\
svg{max-width:100%;height:auto}";

/// One HTML page, well-formed XML (so any XML parser reads it), needing nothing outside it.
pub fn html(title: &str, blocks: &[Block]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"generator\" content=\"kgscope {}\"/><title>{}</title>\
         <style>{STYLE}</style></head><body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(title)
    );
    for b in blocks {
        match b {
            Block::Heading(level, text) => {
                let l = (*level).clamp(1, 6);
                let _ = writeln!(out, "<h{l}>{}</h{l}>", escape(text));
            }
            Block::Para(text) => {
                let _ = writeln!(out, "<p>{}</p>", escape(text));
            }
            Block::Table {
                header,
                rows,
                numeric,
            } => {
                out.push_str("<table><thead><tr>");
                for h in header {
                    let _ = write!(out, "<th>{}</th>", escape(h));
                }
                out.push_str("</tr></thead><tbody>\n");
                for r in rows {
                    out.push_str("<tr>");
                    for (i, c) in r.iter().enumerate() {
                        let class = match (*numeric && i > 0, is_interval(c)) {
                            (true, true) => " class=\"n iv\"",
                            (true, false) => " class=\"n\"",
                            (false, true) => " class=\"iv\"",
                            (false, false) => "",
                        };
                        let _ = write!(out, "<td{class}>{}</td>", escape(c));
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</tbody></table>\n");
            }
            Block::Figure { svg, caption } => {
                // plotters' SVG is a standalone document: drop an XML declaration if any.
                let body = svg.trim_start();
                let body = match body.strip_prefix("<?xml") {
                    Some(rest) => rest.split_once("?>").map_or(body, |(_, r)| r.trim_start()),
                    None => body,
                };
                let _ = writeln!(
                    out,
                    "<figure>{body}<figcaption>{}</figcaption></figure>",
                    escape(caption)
                );
            }
        }
    }
    out.push_str("</body></html>\n");
    out
}

/// Whether a cell reads as a value with its interval ("0.734 [0.612, 0.831]", "52.5%
/// [37.5–67.1]", "+0.12 [+0.01,+0.20]"): read as one, so the HTML keeps it on one line
/// rather than wrapping the interval under its value in a narrow column.
fn is_interval(cell: &str) -> bool {
    let Some((value, rest)) = cell.trim().split_once(" [") else {
        return false;
    };
    let value = value.trim().trim_end_matches(['%', '?']);
    rest.ends_with(']') && value.parse::<f64>().is_ok()
}

/// Comma-separated values with RFC 4180 quoting; a cell that a spreadsheet would run as a
/// formula (=, +, -, @ first) is quoted with a leading apostrophe.
pub fn csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let cell = |s: &str| {
        let s = clean(s);
        let s = if s.starts_with(['=', '+', '@'])
            || (s.starts_with('-') && s.parse::<f64>().is_err())
        {
            format!("'{s}")
        } else {
            s
        };
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s
        }
    };
    let mut out = header.join(",");
    out.push('\n');
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kg_text_cannot_break_the_markup() {
        let blocks = vec![
            Block::Heading(1, "a <b> & c".into()),
            Block::Table {
                header: vec!["name".into(), "n".into()],
                rows: vec![vec!["x|y\u{1b}[31m".into(), "3".into()]],
                numeric: true,
            },
        ];
        let md = markdown(&blocks);
        assert!(md.contains("x\\|y"), "{md}");
        assert!(md.starts_with("# a &lt;b&gt; &amp; c\n"), "{md}");
        assert!(!md.contains('\u{1b}'));
        let h = html("t<", &blocks);
        assert!(h.contains("a &lt;b&gt; &amp; c") && h.contains("<title>t&lt;</title>"));
        let opts = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        };
        roxmltree::Document::parse_with_options(&h, opts).expect("well-formed");
    }

    /// Intervals stay on one line in HTML: their cells are marked, and the style keeps the
    /// marked cells from wrapping; other cells (names, counts) wrap as text does.
    #[test]
    fn interval_cells_do_not_wrap_in_html() {
        let rows = vec![
            vec![
                "landlocked status".into(),
                "40".into(),
                "52.5% [37.5–67.1]".into(),
            ],
            vec![
                "capital".into(),
                "12".into(),
                rate(crate::metrics::Rate::new(8.0, 10.0)),
            ],
            vec!["a [b]".into(), "–".into(), "+0.12 [+0.01,+0.20]".into()],
        ];
        let blocks = [true, false].map(|numeric| Block::Table {
            header: vec!["relation".into(), "n".into(), "accuracy [95%]".into()],
            rows: rows.clone(),
            numeric,
        });
        let h = html("t", &blocks);
        assert!(STYLE.contains("td.iv{white-space:nowrap}"));
        let doc = roxmltree::Document::parse_with_options(
            &h,
            roxmltree::ParsingOptions {
                allow_dtd: true,
                ..Default::default()
            },
        )
        .unwrap();
        let mut marked = 0;
        for td in doc.descendants().filter(|n| n.has_tag_name("td")) {
            let text = td.text().unwrap_or("");
            let nowrap = td
                .attribute("class")
                .is_some_and(|c| c.split(' ').any(|c| c == "iv"));
            let interval = text.contains(" [") && text.ends_with(']') && !text.starts_with('a');
            assert_eq!(nowrap, interval, "{text:?}");
            marked += usize::from(nowrap);
        }
        assert_eq!(marked, 6);
    }

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        let out = csv(
            &["a", "b"],
            &[
                vec!["=cmd()".into(), "x, \"y\"".into()],
                vec!["-0.5".into(), "-x".into()],
            ],
        );
        assert_eq!(out, "a,b\n'=cmd(),\"x, \"\"y\"\"\"\n-0.5,'-x\n");
    }
}

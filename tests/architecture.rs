//! The house reads one way: top-level modules import only the layers below them
//! (`tools/imports.py` holds the order), and only the method registry branches on the method.

use crate::common;

use std::path::{Path, PathBuf};

#[test]
fn top_level_modules_import_only_downward() {
    let out = std::process::Command::new("python3")
        .arg(common::root().join("tools/imports.py"))
        .arg(common::root().join("src"))
        .output()
        .expect("python3 runs tools/imports.py");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("circles between top-level modules: 0")
            && said.contains("imports from a lower layer to a higher one: 0"),
        "{said}"
    );
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `code` without its test module (last in a file, by the house style) and comments.
fn without_tests_and_comments(code: &str) -> String {
    code.split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The places in `code` that branch on a value of the enum `ty` (`Task`, `Gold`): a match arm
/// or or-pattern naming a variant (with its fields, `Gold::Bool { value } =>`), a comparison
/// with one, `matches!`, `if let` or `let … else` on one. Building a value is no branch.
fn branches(code: &str, ty: &str) -> Vec<String> {
    let code = without_tests_and_comments(code);
    let prefix = format!("{ty}::");
    let mut found = vec![];
    for (at, _) in code.match_indices(&prefix) {
        // What comes before the path (`crate::questions::Task::X`): the path itself is not.
        let path_start = code[..at]
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            .len();
        let before = code[..path_start].trim_end();
        let after = &code[at + prefix.len()..];
        let variant_end = after
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        // A variant, not an associated function (`Gold::yes()`).
        if !after.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let mut next = after[variant_end..].trim_start();
        // A variant's fields in a pattern: skipped to what follows them.
        if let Some(fields) = next.strip_prefix('{') {
            let mut depth = 1;
            let close = fields.char_indices().find(|&(_, c)| {
                depth += i32::from(c == '{') - i32::from(c == '}');
                depth == 0
            });
            next = close.map_or("", |(i, _)| fields[i + 1..].trim_start());
        }
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = code[line_start..].lines().next().unwrap_or("").trim();
        let in_matches = code[line_start..at].contains("matches!(");
        // `if let (Gold::Compound { facts }, Some(s)) = …`: a pattern in a tuple.
        let in_let = {
            let stmt_start = code[..at].rfind([';', '{', '}']).map_or(0, |i| i + 1);
            let stmt = code[stmt_start..at].trim_start();
            (stmt.starts_with("let ")
                || stmt.starts_with("if let ")
                || stmt.starts_with("while let "))
                && !stmt.contains('=')
        };
        let branches = next.starts_with("=>")
            || (next.starts_with('|') && !next.starts_with("||"))
            || next.starts_with("==")
            || next.starts_with("!=")
            || before.ends_with("==")
            || before.ends_with("!=")
            || before.ends_with("if let")
            || before.ends_with('|') && !before.ends_with("||")
            || in_matches
            || in_let;
        if branches {
            found.push(line.to_string());
        }
    }
    found
}

fn task_branches(code: &str) -> Vec<String> {
    branches(code, "Task")
}

fn gold_branches(code: &str) -> Vec<String> {
    branches(code, "Gold")
}

#[test]
fn the_detector_sees_every_form_of_branching() {
    for code in [
        "match t { Task::Saq => 1, _ => 0 }",
        "let x = matches!(t, Task::Kglens | Task::KgFpq);",
        "if t == Task::Statement {}",
        "if t != crate::questions::Task::KgFpq {}",
        "if let Task::Tfq = t {}",
    ] {
        assert!(!task_branches(code).is_empty(), "{code}");
    }
    for code in [
        "let t = Task::Statement;",
        "for t in Task::ALL {}",
        "f(Task::Saq, 3) // match Task::Saq => x",
    ] {
        assert!(task_branches(code).is_empty(), "{code}");
    }
    for code in [
        "match &q.gold { Gold::Bool { value } => 1, _ => 0 }",
        "let Gold::Choice { options, correct } = &q.gold else { return };",
        "if let (crate::core::gold::Gold::Compound { facts }, Some(m)) = (&q.gold, x) {}",
        "let closed = matches!(q.gold, Gold::Bool { .. } | Gold::Choice { .. });",
        "match g { Gold::Premise { .. } | Gold::Compound { .. } => 2, _ => 0 }",
    ] {
        assert!(!gold_branches(code).is_empty(), "{code}");
    }
    for code in [
        "let g = Gold::Choice { options: vec![], correct: 0 };",
        "q.gold = Gold::yes();",
        "record(Gold::Bool { value: true }, Task::Yesno)",
        "let facts = q.gold.facts();",
    ] {
        assert!(gold_branches(code).is_empty(), "{code}");
    }
}

/// Every place in `src/` outside the files `allowed` lets through where `ty` is branched on,
/// as "file: line".
fn branches_outside(ty: &str, allowed: &dyn Fn(&Path, &Path) -> bool) -> Vec<String> {
    let src = common::root().join("src");
    let mut files = vec![];
    rust_files(&src, &mut files);
    let mut offenders = vec![];
    for f in files.iter().filter(|f| !allowed(&src, f)) {
        for line in branches(&std::fs::read_to_string(f).unwrap(), ty) {
            offenders.push(format!(
                "{}: {line}",
                f.strip_prefix(&src).unwrap().display()
            ));
        }
    }
    offenders
}

/// Where methods differ is asked of the method (`method::of(task).…`): only the registry
/// (`src/method/mod.rs`, the one `match` from a task to its method) branches on the task.
#[test]
fn only_the_registry_branches_on_the_method() {
    let offenders = branches_outside("Task", &|src, f| f == src.join("method/mod.rs"));
    assert!(
        offenders.is_empty(),
        "branching on the method outside src/method/mod.rs (ask the Method trait instead):\n{}",
        offenders.join("\n")
    );
    // The registry itself still does (the test would pass vacuously if it could not see it).
    let registry = common::root().join("src/method/mod.rs");
    assert!(!task_branches(&std::fs::read_to_string(registry).unwrap()).is_empty());
}

/// A method owns its verification: what a gold answer's shape decides is the method's (its
/// rules, its checker: `src/method/`) or the gold answer's own (`src/core/gold.rs`, whose
/// accessors every layer reads). Nowhere else is a gold answer taken apart by its shape, so a
/// method with a checker of its own touches only its folder, its prompt and the registry.
#[test]
fn only_the_methods_branch_on_the_gold_answer() {
    let offenders = branches_outside("Gold", &|src, f| {
        f == src.join("core/gold.rs") || f.starts_with(src.join("method"))
    });
    assert!(
        offenders.is_empty(),
        "branching on a gold answer's shape outside src/method/ (ask the method, or the \
         gold answer's accessors in src/core/gold.rs):\n{}",
        offenders.join("\n")
    );
    // The methods still do (the test would pass vacuously if it could not see them).
    let mcq = std::fs::read_to_string(common::root().join("src/method/mcq/mod.rs")).unwrap();
    assert!(!gold_branches(&mcq).is_empty());
}

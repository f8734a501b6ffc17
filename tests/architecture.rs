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

/// The places in `code` that branch on a `Task` value: a match arm or or-pattern naming a
/// variant, a comparison with one, `matches!` or `if let` on one.
fn task_branches(code: &str) -> Vec<String> {
    let code: String = code
        .split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = vec![];
    for (at, _) in code.match_indices("Task::") {
        // What comes before the path (`crate::questions::Task::X`): the path itself is not.
        let path_start = code[..at]
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            .len();
        let before = code[..path_start].trim_end();
        let after = &code[at + "Task::".len()..];
        let variant_end = after
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        let next = after[variant_end..].trim_start();
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = code[line_start..].lines().next().unwrap_or("").trim();
        let in_matches = code[line_start..at].contains("matches!(");
        let branches = next.starts_with("=>")
            || (next.starts_with('|') && !next.starts_with("||"))
            || next.starts_with("==")
            || next.starts_with("!=")
            || before.ends_with("==")
            || before.ends_with("!=")
            || before.ends_with("if let")
            || before.ends_with('|') && !before.ends_with("||")
            || in_matches;
        if branches {
            found.push(line.to_string());
        }
    }
    found
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
}

/// Where methods differ is asked of the method (`method::of(task).…`): only the registry
/// (`src/method/mod.rs`, the one `match` from a task to its method) branches on the task.
#[test]
fn only_the_registry_branches_on_the_method() {
    let src = common::root().join("src");
    let mut files = vec![];
    rust_files(&src, &mut files);
    let registry = src.join("method/mod.rs");
    let mut offenders = vec![];
    for f in files.iter().filter(|f| **f != registry) {
        for line in task_branches(&std::fs::read_to_string(f).unwrap()) {
            offenders.push(format!(
                "{}: {line}",
                f.strip_prefix(&src).unwrap().display()
            ));
        }
    }
    assert!(
        offenders.is_empty(),
        "branching on the method outside src/method/mod.rs (ask the Method trait instead):\n{}",
        offenders.join("\n")
    );
    // The registry itself still does (the test would pass vacuously if it could not see it).
    assert!(!task_branches(&std::fs::read_to_string(registry).unwrap()).is_empty());
}

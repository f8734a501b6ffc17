//! The command line itself, with the real binary: the bare command's TUI flags, `--out -`,
//! `--entity`, and the help text.

use crate::common;

use std::path::Path;

use common::{ok, run};
use kgscope::questions::Question;

const FRANCE: &str = "https://kgscope.dev/kg/countries/entity/France";

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn questions_of(jsonl: &str) -> Vec<Question> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is a question"))
        .collect()
}

/// Files in `dir`, so a test can see that nothing but the output was left behind.
fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn the_bare_command_takes_the_tui_flags() {
    // Without a terminal the TUI refuses to start, after the flags were accepted: a flag the
    // bare command did not know would fail in clap, with another message and exit code 2.
    for args in [
        &["--kg", "sample:nba"][..],
        &[
            "--kg",
            "sample:nba",
            "--model",
            "openai:x",
            "--theme",
            "light",
        ],
        &["--runs-dir", "elsewhere", "--log", "tui.log"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "kgscope {args:?}");
        assert!(
            stderr(&out).contains("interactive terminal"),
            "kgscope {args:?}: {}",
            stderr(&out)
        );
    }
    // Values are checked as `kgscope tui` checks them.
    let bare = run(&["--theme", "purple"]);
    let tui = run(&["tui", "--theme", "purple"]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(
        stderr(&bare).contains("invalid value 'purple'"),
        "{}",
        stderr(&bare)
    );
    assert!(stderr(&tui).contains("invalid value 'purple'"));
    // A TUI flag before a command would be ignored by it: refused instead.
    let before = run(&["--kg", "sample:nba", "questions", "--limit", "2"]);
    assert_eq!(before.status.code(), Some(2));
    assert!(stderr(&before).contains("--kg"), "{}", stderr(&before));
    // A TUI flag set in the environment is no flag before a command.
    let env = common::bin()
        .env("KGSCOPE_RUNS", "elsewhere")
        .args(["kg", "samples"])
        .output()
        .unwrap();
    assert!(env.status.success(), "{}", stderr(&env));
}

#[test]
fn help_lists_the_commands_and_the_tui_flags() {
    let help = ok(&["--help"]);
    for word in [
        "Commands:",
        "tui",
        "run",
        "questions",
        "labels",
        "--kg <KG>",
        "--model <MODEL>",
        "--theme <THEME>",
        "[default: sample:countries]",
        "Terminal UI options",
    ] {
        assert!(
            help.contains(word),
            "`kgscope --help` lacks {word:?}:\n{help}"
        );
    }
}

#[test]
fn out_dash_is_standard_output_and_a_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.jsonl");
    let args = |out: &str| {
        ok(&[
            "questions",
            "--kg",
            "sample:elements",
            "--limit",
            "12",
            "--out",
            out,
        ])
    };
    let stdout = args("-");
    assert_eq!(questions_of(&stdout).len(), 12);
    // The default is standard output too.
    let default = ok(&["questions", "--kg", "sample:elements", "--limit", "12"]);
    assert_eq!(default, stdout);
    // To a file: nothing on stdout, the same bytes in the file, no temporary file left.
    let printed = args(file.to_str().unwrap());
    assert!(printed.is_empty(), "{printed}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout);
    assert_eq!(files_in(dir.path()), ["q.jsonl"]);
    // A directory that cannot be made leaves no output and says where.
    let blocked = dir.path().join("q.jsonl").join("sub").join("x.jsonl");
    let out = run(&[
        "questions",
        "--kg",
        "sample:elements",
        "--limit",
        "2",
        "--out",
        blocked.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("q.jsonl"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stdout);
}

#[test]
fn questions_entity_takes_an_iri_a_label_or_an_alias() {
    let by = |entity: &str| {
        let qs = questions_of(&ok(&[
            "questions",
            "--kg",
            "sample:countries",
            "--limit",
            "20",
            "--entity",
            entity,
        ]));
        assert_eq!(qs.len(), 20, "--entity {entity}");
        assert_all_around(&qs, &[FRANCE]);
        qs
    };
    let iri = by(FRANCE);
    let label = by("france");
    let alias = by("French Republic");
    let ids = |qs: &[Question]| qs.iter().map(|q| q.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&iri), ids(&label));
    assert_eq!(ids(&iri), ids(&alias));

    // Two entities: the facts around either.
    let two = questions_of(&ok(&[
        "questions",
        "--kg",
        "sample:countries",
        "--limit",
        "400",
        "--entity",
        "France",
        "--entity",
        "Japan",
    ]));
    let japan = "https://kgscope.dev/kg/countries/entity/Japan";
    assert_all_around(&two, &[FRANCE, japan]);
    assert!(two.iter().any(|q| q.subject == japan));
    assert!(two.iter().any(|q| q.subject == FRANCE));
}

/// Every question comes from a fact with one of `entities` as subject or object: a positive
/// is that fact, a negative one with its subject or object replaced, so it is checked
/// through its positive, which the same set holds (groups are never split).
fn assert_all_around(qs: &[Question], entities: &[&str]) {
    let by_id: std::collections::HashMap<&str, &Question> =
        qs.iter().map(|q| (q.id.as_str(), q)).collect();
    for q in qs {
        let fact = by_id[q.positive_id.as_str()];
        assert!(
            entities.contains(&fact.subject.as_str()) || entities.contains(&fact.object.as_str()),
            "{} is not about {entities:?}",
            q.prompt
        );
    }
}

#[test]
fn an_unknown_or_ambiguous_entity_is_a_clear_error() {
    let out = run(&[
        "questions",
        "--kg",
        "sample:countries",
        "--entity",
        "Frnace",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("--entity 'Frnace'"), "{err}");
    assert!(err.contains("no entity in sample:countries"), "{err}");
    assert!(err.contains("near matches: "), "{err}");
    assert!(err.contains(&format!("France <{FRANCE}>")), "{err}");
    assert!(out.stdout.is_empty());

    // An IRI not in the KG: its local name is what is searched for.
    let out = run(&[
        "questions",
        "--kg",
        "sample:countries",
        "--entity",
        "https://kgscope.dev/kg/countries/entity/Frances",
    ]);
    assert!(
        stderr(&out).contains(&format!("France <{FRANCE}>")),
        "{}",
        stderr(&out)
    );

    // "MAD" is an alias of Madagascar and of the Moroccan dirham.
    let out = run(&["questions", "--kg", "sample:countries", "--entity", "MAD"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("names 2 entities"), "{err}");
    assert!(err.contains("Madagascar <https://"), "{err}");
    assert!(err.contains("give the IRI"), "{err}");

    // `run` checks before it creates a run directory or loads a model.
    let runs = tempfile::tempdir().unwrap();
    let out = run(&[
        "run",
        "--kg",
        "sample:countries",
        "--entity",
        "Frnace",
        "--runs-dir",
        runs.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("France <{FRANCE}>")),
        "{}",
        stderr(&out)
    );
    assert!(files_in(runs.path()).is_empty());
}

#[test]
fn every_command_describes_every_flag_in_its_help() {
    // The unit test walks clap's tree; this checks what a user sees for a few commands.
    for cmd in [
        &["run", "--help"][..],
        &["questions", "--help"],
        &["labels", "export", "--help"],
        &["kg", "stats", "--help"],
    ] {
        let help = ok(cmd);
        for line in help.lines() {
            let flag = line.trim_start();
            // A flag whose help is empty is printed alone on its line.
            if flag.starts_with("--") && !flag.contains("  ") {
                let next = help.lines().skip_while(|l| *l != line).nth(1).unwrap_or("");
                assert!(
                    next.starts_with("          "),
                    "`kgscope {}` shows {flag} without help:\n{help}",
                    cmd.join(" ")
                );
            }
        }
    }
    let run_help = ok(&["run", "--help"]);
    assert!(run_help.contains("--entity <ENTITY>"), "{run_help}");
    assert!(run_help.contains("[default: 24]"), "{run_help}");
}

/// `kgscope run` of KG-FPQ against a server that accepts some true premises and denies the
/// others: the run's end says how many were asked and how many the gate left out and why,
/// and the two add up to the planned total (with those no edit could make).
#[test]
fn a_gated_kg_fpq_run_says_what_it_did_not_ask_and_why() {
    use std::io::Write;
    let server = common::body_handler_server(|_, stream, _, body| {
        let body = String::from_utf8_lossy(body);
        let text = if body.contains("What is the reason that") {
            "Actually, that is not so."
        } else if body.bytes().map(u32::from).sum::<u32>() % 2 == 0 {
            "Yes"
        } else {
            "No"
        };
        let _ = stream.write_all(common::sse_completion(&[text], 1).as_bytes());
    });
    let runs = tempfile::tempdir().unwrap();
    let out = common::bin()
        .args(["run", "--kg", "sample:countries", "--task", "kg-fpq"])
        .args(["--model", "openai:m", "--base-url", &server.base])
        .args([
            "--limit",
            "12",
            "--concurrency",
            "2",
            "--json",
            "--runs-dir",
        ])
        .arg(runs.path())
        .env_remove("OPENAI_API_KEY")
        .env_remove("KGSCOPE_BASE_URL")
        .output()
        .unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let answered = json["answered"].as_u64().unwrap() as usize;
    let not_asked = json["not_asked"].as_array().unwrap();
    let gated = not_asked
        .iter()
        .find(|n| n["reason"] == "the true premise was denied")
        .unwrap_or_else(|| panic!("some true premises are denied: {json}"))["count"]
        .as_u64()
        .unwrap();
    let left_out: u64 = not_asked.iter().map(|n| n["count"].as_u64().unwrap()).sum();
    let id = common::only_run_id(runs.path());
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(runs.path().join(&id).join("manifest.json")).unwrap(),
    )
    .unwrap();
    let planned = manifest["questions"].as_u64().unwrap();
    assert_eq!(answered as u64 + left_out, planned, "{json}");
    let line = format!("{answered} asked; {gated} not asked because the true premise was denied");
    assert!(err.contains(&line), "{err}");
    assert!(err.contains(&format!("(of {planned} planned)")), "{err}");
}

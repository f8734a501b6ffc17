//! `kgscope export` and `labels export --format jsonl` write what Hugging Face `datasets`
//! loads: every line with the keys README.md's "Datasets" table lists, each key of one JSON
//! type (or null) on every line, whatever the method. The inputs are the recorded runs of
//! `tests/data/legacy-runs/` and two runs made here against a scripted OpenAI-compatible
//! server (multiple choice and KG-FPQ), so the gold answers are of every kind.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use kgscope::store::labels::{ErrorType, Label, LabelVerdict};
use kgscope::store::RunDir;
use serde_json::{Map, Value};

const LEGACY: [&str; 2] = [
    "20261124-091613-statement-5bd4",
    "20261124-091545-yesno-9a74",
];

/// Copies the recorded runs into `runs`.
fn copy_legacy(runs: &Path) {
    for id in LEGACY {
        let (from, to) = (
            common::root().join("tests/data/legacy-runs").join(id),
            runs.join(id),
        );
        std::fs::create_dir_all(&to).unwrap();
        for f in ["manifest.json", "results.jsonl"] {
            std::fs::copy(from.join(f), to.join(f)).unwrap();
        }
    }
}

/// A run of `args` against a server that answers every request with `reply`; its id.
fn scripted_run(runs: &Path, reply: &'static str, args: &[&str]) -> String {
    let (base_url, _) = common::scripted_server(move |_| common::sse_completion(&[reply], 2));
    let mut all = vec![
        "run",
        "--kg",
        "sample:countries",
        "--model",
        "openai:scripted",
        "--base-url",
        &base_url,
        "--runs-dir",
        runs.to_str().unwrap(),
        "--json",
    ];
    all.extend_from_slice(args);
    let summary: Value = serde_json::from_str(&common::ok(&all)).unwrap();
    summary["run_id"].as_str().unwrap().to_string()
}

/// The columns of README.md's "Datasets" table.
fn documented_columns() -> BTreeSet<String> {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let section = readme.split("\n### Datasets\n").nth(1).unwrap();
    let section = section.split("\n#").next().unwrap();
    let columns: BTreeSet<String> = section
        .lines()
        .filter_map(|l| {
            let first = l.trim().strip_prefix('|')?.split('|').next()?.trim();
            Some(first.strip_prefix('`')?.strip_suffix('`')?.to_string())
        })
        .collect();
    assert!(columns.len() > 20, "{columns:?}");
    columns
}

fn lines(path: &Path) -> Vec<Map<String, Value>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| match serde_json::from_str(l).unwrap() {
            Value::Object(o) => o,
            v => panic!("a line is an object, not {v}"),
        })
        .collect()
}

/// The JSON type of `v`, with a list's element type and an object's keys and their types:
/// what pyarrow makes one column type of.
fn type_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(_) => "bool".into(),
        Value::Number(n) if n.is_f64() => "float".into(),
        Value::Number(_) => "int".into(),
        Value::String(_) => "string".into(),
        Value::Array(a) => {
            let inner: BTreeSet<String> = a.iter().map(type_of).collect();
            assert!(inner.len() <= 1, "a list of mixed types: {v}");
            format!("list<{}>", inner.into_iter().next().unwrap_or_default())
        }
        Value::Object(o) => {
            let mut fields: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{k}:{}", type_of(v)))
                .collect();
            fields.sort();
            format!("{{{}}}", fields.join(","))
        }
    }
}

/// Each key's types over all `rows`, null and empty lists aside; panics on a key of two.
fn one_type_per_key(rows: &[Map<String, Value>]) -> BTreeMap<String, String> {
    let mut types: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for row in rows {
        for (k, v) in row {
            let t = type_of(v);
            let entry = types.entry(k.clone()).or_default();
            if t != "null" && t != "list<>" {
                entry.insert(t);
            }
        }
    }
    types
        .into_iter()
        .map(|(k, t)| {
            assert!(t.len() <= 1, "column {k} has several types: {t:?}");
            (k, t.into_iter().next().unwrap_or_else(|| "null".into()))
        })
        .collect()
}

#[test]
fn runs_of_every_method_export_as_one_dataset_of_typed_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    copy_legacy(&runs);
    let mcq = scripted_run(&runs, "B", &["--task", "mcq-wh", "--limit", "6"]);
    let fpq = scripted_run(
        &runs,
        "Yes.",
        &[
            "--task",
            "kg-fpq",
            "--format",
            "discriminative",
            "--limit",
            "3",
        ],
    );
    let ids = [LEGACY[0], LEGACY[1], mcq.as_str(), fpq.as_str()];
    let out = tmp.path().join("data/results.jsonl");
    let mut args = vec!["export"];
    args.extend_from_slice(&ids);
    args.extend_from_slice(&[
        "--out",
        out.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
    ]);
    let said = common::run(&args);
    let stderr = String::from_utf8_lossy(&said.stderr);
    assert!(said.status.success(), "{stderr}");
    let rows = lines(&out);
    assert!(
        stderr.contains(&format!("wrote {} row(s) from 4 run(s)", rows.len())),
        "{stderr}"
    );

    let columns = documented_columns();
    for row in &rows {
        let keys: BTreeSet<String> = row.keys().cloned().collect();
        assert_eq!(keys, columns, "a row's keys are not the documented ones");
    }
    let types = one_type_per_key(&rows);
    for (column, ty) in [
        ("gold", "string"),
        ("answer", "string"),
        ("options", "list<string>"),
        ("accepted", "null"),
        ("year", "int"),
        ("replaced", "string"),
        ("attempts", "int"),
        ("completion_tokens", "int"),
        ("temperature", "float"),
        ("facets", "list<{name:string,value:string}>"),
    ] {
        assert_eq!(types[column], ty, "column {column}");
    }

    // Row for row, the runs' records in order.
    let mut rest = rows.as_slice();
    for id in ids {
        let run = RunDir::open(&runs, id).unwrap();
        let records: Vec<Value> = run.read_results().unwrap();
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(runs.join(id).join("manifest.json")).unwrap(),
        )
        .unwrap();
        assert!(!records.is_empty());
        let (these, after) = rest.split_at(records.len());
        rest = after;
        for (row, r) in these.iter().zip(&records) {
            let q = &r["question"];
            assert_eq!(row["run_id"], id);
            assert_eq!(row["model"], manifest["model_id"]);
            assert_eq!(row["question_id"], q["id"]);
            assert_eq!(row["method"], q["task"]);
            assert_eq!(row["prompt"], q["prompt"]);
            assert_eq!(row["year"], q["year"]);
            assert_eq!(row["replaced"], q["negative"]);
            assert_eq!(row["outcome"], r["outcome"]);
            assert_eq!(row["verdict"], r["verdict"]);
            assert_eq!(row["attempts"], r["attempts"].as_array().unwrap().len());
            assert_eq!(row["response"], r["attempts"][0]["response"]);
            assert_eq!(
                row["temperature"].as_f64().unwrap() as f32,
                manifest["config"]["params"]["temperature"]
                    .as_f64()
                    .unwrap() as f32
            );
            match q["task"].as_str().unwrap() {
                // Written before typed gold answers: the words themselves.
                "yesno" | "statement" => {
                    assert_eq!(row["gold"], q["gold"]);
                    assert!(row["options"].is_null() && row["accepted"].is_null());
                }
                "mcq-wh" => {
                    let options = &q["gold"]["options"];
                    assert_eq!(row["options"], *options);
                    assert_eq!(
                        row["answer"],
                        format!("B) {}", options[1].as_str().unwrap()),
                        "the answer in the gold answer's words"
                    );
                }
                "kg-fpq" => {
                    assert!(["yes", "no"].contains(&row["gold"].as_str().unwrap()));
                    assert_eq!(row["answer"], "yes");
                    assert_eq!(row["attempts"], 3, "asked three times");
                    let edit = &row["facets"].as_array().unwrap()[0];
                    assert_eq!(edit["name"], "edit");
                }
                other => panic!("{other}"),
            }
        }
    }
    assert!(rest.is_empty(), "rows beyond the runs' records");

    // Parquet: the same number of rows, in a file the parquet crate reads.
    let parquet = tmp.path().join("data/results.parquet");
    let mut pq_args = args.clone();
    let at = pq_args.iter().position(|a| *a == "--out").unwrap();
    pq_args[at + 1] = parquet.to_str().unwrap();
    pq_args.extend_from_slice(&["--format", "parquet"]);
    common::ok(&pq_args);
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(&parquet).unwrap()).unwrap();
    assert_eq!(
        reader.metadata().file_metadata().num_rows(),
        rows.len() as i64
    );

    // `-` is standard output, the same bytes.
    let mut stdout_args = vec!["export"];
    stdout_args.extend_from_slice(&ids);
    stdout_args.extend_from_slice(&["--out", "-", "--runs-dir", runs.to_str().unwrap()]);
    assert_eq!(
        common::ok(&stdout_args),
        std::fs::read_to_string(&out).unwrap()
    );
}

#[test]
fn a_missing_or_repeated_run_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    copy_legacy(tmp.path());
    let out = tmp.path().join("out.jsonl");
    let dir = tmp.path().to_str().unwrap();
    for (runs, why) in [
        (vec![LEGACY[0], "no-such-run"], "no-such-run"),
        (vec![LEGACY[1], LEGACY[1]], "named twice"),
    ] {
        let mut args = vec!["export"];
        args.extend_from_slice(&runs);
        args.extend_from_slice(&["--out", out.to_str().unwrap(), "--runs-dir", dir]);
        let got = common::run(&args);
        let stderr = String::from_utf8_lossy(&got.stderr);
        assert!(!got.status.success());
        assert!(stderr.contains(why), "{stderr}");
        assert!(!out.exists(), "{runs:?}: a file was written");
    }
    let none = common::run(&["export", "--out", out.to_str().unwrap()]);
    assert!(!none.status.success(), "a run is required");
}

/// Rows are streamed, yet a run that turns out unreadable half-way writes nothing: a file
/// keeps what it held (the rows went to a temporary file beside it, removed), and standard
/// output gets no row (every run is read through before the first row is written).
#[test]
fn a_run_unreadable_half_way_writes_nothing_to_a_file_or_to_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    copy_legacy(tmp.path());
    let results = tmp.path().join(LEGACY[1]).join("results.jsonl");
    let mut text = std::fs::read_to_string(&results).unwrap();
    let half = text.lines().count() / 2;
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(half, "{not json");
    text = lines.join("\n") + "\n";
    std::fs::write(&results, text).unwrap();
    let out = tmp.path().join("out.jsonl");
    std::fs::write(&out, "before\n").unwrap();
    let dir = tmp.path().to_str().unwrap();
    for target in [out.to_str().unwrap(), "-"] {
        let got = common::run(&[
            "export",
            LEGACY[0],
            LEGACY[1],
            "--out",
            target,
            "--runs-dir",
            dir,
        ]);
        let stderr = String::from_utf8_lossy(&got.stderr);
        assert!(!got.status.success(), "{target}");
        assert!(stderr.contains(&format!(":{}", half + 1)), "{stderr}");
        assert!(
            got.stdout.is_empty(),
            "{target}: rows reached standard output"
        );
    }
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "before\n");
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Labels with and without error types and notes, by one annotator and by the majority: the
/// two exports together still give each key one type.
#[test]
fn labels_jsonl_keeps_one_type_per_key() {
    let tmp = tempfile::tempdir().unwrap();
    copy_legacy(tmp.path());
    let run = RunDir::open(tmp.path(), LEGACY[1]).unwrap();
    let records: Vec<Value> = run.read_results().unwrap();
    for (i, r) in records.iter().take(6).enumerate() {
        for who in ["ann", "bob"] {
            run.append_label(Label {
                question_id: r["question"]["id"].as_str().unwrap().into(),
                label: if i % 2 == 0 {
                    LabelVerdict::Right
                } else {
                    LabelVerdict::Wrong
                },
                error_type: (i % 2 == 1).then_some(ErrorType::FactualError),
                note: (i == 3).then(|| "a note".into()),
                cause: None,
                annotator: who.into(),
                time: format!("2026-01-01T00:00:0{i}Z"),
            })
            .unwrap();
        }
    }
    let dir = tmp.path().to_str().unwrap();
    let mut all = Vec::new();
    for (name, extra) in [("ann", ["--annotator", "ann"]), ("maj", ["--majority", ""])] {
        let out = tmp.path().join(format!("{name}.jsonl"));
        let mut args = vec![
            "labels",
            "export",
            LEGACY[1],
            "--format",
            "jsonl",
            "--out",
            out.to_str().unwrap(),
            "--runs-dir",
            dir,
        ];
        args.extend(extra.iter().copied().filter(|a| !a.is_empty()));
        common::ok(&args);
        let rows = lines(&out);
        assert_eq!(rows.len(), 6);
        all.extend(rows);
    }
    let types = one_type_per_key(&all);
    for (key, ty) in [
        ("gold", "string"),
        ("replaced", "string"),
        ("error_type", "string"),
        ("note", "string"),
        ("votes", "{carried_by:string,for:list<string>,of:int}"),
    ] {
        assert_eq!(types[key], ty, "{key}");
    }
}

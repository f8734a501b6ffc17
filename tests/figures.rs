//! Figures, reports and comparisons of recorded runs: every figure kind as an SVG snapshot
//! and as a decoded PNG, the HTML, Markdown and CSV reports, and `compare` on a fixture pair
//! whose McNemar figure is known by hand.

use crate::common;

use std::path::{Path, PathBuf};

use common::{ok, root, run};
use kgscope::figures::{self, Kind, Request, View};
use kgscope::report::grid::{HeatSort, HeatView};
use kgscope::report::loaded::LoadedRun;
use serde_json::Value;

fn legacy() -> PathBuf {
    root().join("tests/data/legacy-runs")
}
fn fixtures() -> PathBuf {
    root().join("tests/data/figure-runs")
}
const STATEMENT: &str = "20261124-091613-statement-5bd4";
const YESNO: &str = "20261124-091545-yesno-9a74";

fn load(dir: &Path, id: &str) -> LoadedRun {
    LoadedRun::load(dir, id, true).unwrap()
}

/// The only run in a fixture directory of `tests/data/figure-runs`.
fn fixture(name: &str) -> LoadedRun {
    let dir = fixtures().join(name);
    let id = common::only_run_id(&dir);
    load(&dir, &id)
}

fn req(kind: Kind, view: View) -> Request {
    Request {
        kind,
        view,
        max_rows: 12,
        ..Request::default()
    }
}

/// Every kind of figure, each on the run it is drawn for.
fn every_figure() -> Vec<(&'static str, Vec<LoadedRun>, Request)> {
    let st = || load(&legacy(), STATEMENT);
    let yn = || load(&legacy(), YESNO);
    vec![
        (
            "heatmap-relation",
            vec![st()],
            req(Kind::Heatmap, View::Heat(HeatView::Relation)),
        ),
        (
            "heatmap-types",
            vec![st()],
            req(Kind::Heatmap, View::Heat(HeatView::HeadTail)),
        ),
        (
            "heatmap-year",
            vec![yn()],
            req(Kind::Heatmap, View::Heat(HeatView::Year)),
        ),
        (
            "heatmap-edit-hop",
            vec![fixture("kg-fpq")],
            req(Kind::Heatmap, View::Heat(HeatView::Facets(0))),
        ),
        (
            "heatmap-two-runs",
            vec![yn(), st()],
            req(Kind::Heatmap, View::Heat(HeatView::Relation)),
        ),
        (
            "bars-relation",
            vec![st()],
            Request {
                sort: HeatSort::Value,
                ..req(Kind::Bars, View::Heat(HeatView::Relation))
            },
        ),
        (
            "bars-two-runs",
            vec![yn(), st()],
            req(Kind::Bars, View::HeadType),
        ),
        (
            "dots-kglens",
            vec![fixture("kglens")],
            req(Kind::Dots, View::Heat(HeatView::Relation)),
        ),
        (
            "calibration",
            vec![fixture("repeats")],
            req(Kind::Calibration, View::Heat(HeatView::Relation)),
        ),
    ]
}

#[test]
fn every_figure_kind_renders_the_same_svg() {
    for (name, runs, r) in every_figure() {
        let fig = figures::build(&runs, &r).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let svg = figures::svg(&fig).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        let texts: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .collect();
        // The title names what is drawn, the subtitle model, KG, method and n.
        assert!(texts.contains(&fig.title.as_str()), "{name}: {texts:?}");
        let sub = texts
            .iter()
            .find(|t| t.contains("KG "))
            .expect("a subtitle");
        assert!(sub.contains("n=") || sub.contains("runs"), "{name}: {sub}");
        // The model: in the subtitle of one run, in panel titles or the legend of several.
        assert!(texts.iter().any(|t| t.contains("gemma-3-270m")), "{name}");
        insta::assert_snapshot!(format!("figure-{name}"), svg);
    }
}

#[test]
fn every_figure_kind_renders_a_png_with_ink() {
    for (name, runs, r) in every_figure() {
        let fig = figures::build(&runs, &r).unwrap();
        let bytes = figures::png(&fig).unwrap();
        let img = image::load_from_memory(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .to_rgb8();
        let svg = figures::svg(&fig).unwrap();
        // The PNG has the SVG's size.
        let size = format!("width=\"{}\" height=\"{}\"", img.width(), img.height());
        assert!(svg.contains(&size), "{name}: {size}");
        assert!(img.width() >= 600 && img.height() >= 200, "{name}");
        let px = img.pixels().count();
        let ink = img.pixels().filter(|p| p.0 != [255, 255, 255]).count();
        let dark = img.pixels().filter(|p| p.0.iter().all(|c| *c < 80)).count();
        assert!(ink * 50 > px, "{name}: only {ink} of {px} pixels drawn");
        // Text is drawn (the bundled font), not only boxes.
        assert!(dark > 500, "{name}: {dark} dark pixels");
    }
}

#[test]
fn figures_without_their_data_say_why() {
    let st = load(&legacy(), STATEMENT);
    let err = |r: Request| {
        format!(
            "{:#}",
            figures::build(std::slice::from_ref(&st), &r).unwrap_err()
        )
    };
    assert!(err(req(Kind::Dots, View::Heat(HeatView::Relation))).contains("not a KGLens run"));
    assert!(err(req(Kind::Calibration, View::Heat(HeatView::Relation))).contains("--repeats"));
    assert!(err(req(Kind::Bars, View::Heat(HeatView::HeadTail))).contains("grid"));
    assert!(err(req(Kind::Heatmap, View::Heat(HeatView::Facets(0)))).contains("unknown view"));
    // KGLens' win rate is no metric of a statement run: refused, not a figure of "–" cells.
    for kind in [Kind::Heatmap, Kind::Bars] {
        let win_rate = Request {
            metric: Some(kgscope::metrics::Metric::WinRate),
            ..req(kind, View::Heat(HeatView::Relation))
        };
        assert!(err(win_rate).contains("nothing to draw"), "{kind:?}");
    }
}

#[test]
fn plot_writes_svg_and_png_and_refuses_other_extensions() {
    let dir = tempfile::tempdir().unwrap();
    let runs = legacy();
    let runs = runs.to_str().unwrap();
    for ext in ["svg", "png"] {
        let out = dir.path().join(format!("f.{ext}"));
        ok(&[
            "plot",
            YESNO,
            "--runs-dir",
            runs,
            "--kind",
            "bars",
            "--out",
            out.to_str().unwrap(),
        ]);
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.len() > 1000, "{ext}");
    }
    let out = run(&["plot", YESNO, "--runs-dir", runs, "--out", "f.pdf"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(".svg or .png"));
    let out = run(&[
        "plot",
        YESNO,
        "--runs-dir",
        runs,
        "--metric",
        "nope",
        "--out",
        "f.svg",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown metric"));
}

#[test]
fn html_report_is_one_well_formed_page_with_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    for (runs_dir, id) in [
        (legacy(), STATEMENT.to_string()),
        (
            fixtures().join("kglens"),
            common::only_run_id(&fixtures().join("kglens")),
        ),
    ] {
        let out = dir.path().join(format!("{id}.html"));
        ok(&[
            "report",
            &id,
            "--runs-dir",
            runs_dir.to_str().unwrap(),
            "--format",
            "html",
            "--out",
            out.to_str().unwrap(),
        ]);
        let html = std::fs::read_to_string(&out).unwrap();
        let doc = parse_html(&html);
        let count = |tag: &str| doc.descendants().filter(|n| n.has_tag_name(tag)).count();
        let run = load(&runs_dir, &id);
        let expected = kgscope::document::figure_requests(&run).len();
        assert!(expected >= 3, "{id}");
        assert_eq!(count("figure"), expected, "{id}");
        // Each figure is inline SVG, nothing fetched from elsewhere.
        let svgs: Vec<_> = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "svg")
            .collect();
        assert_eq!(svgs.len(), expected);
        assert!(
            !html.contains("src=") && !html.contains("href="),
            "{id}: external resource"
        );
        assert!(count("table") >= 4, "{id}");
        let title = doc.descendants().find(|n| n.has_tag_name("h1")).unwrap();
        assert!(title.text().unwrap().contains(&id));
        if id.contains("kglens") {
            assert!(html.contains("KGLens: by predicate"));
        }
    }
}

#[test]
fn markdown_and_csv_reports_carry_the_same_numbers_as_json() {
    let runs = legacy();
    let runs = runs.to_str().unwrap();
    let json: Value = serde_json::from_str(&ok(&[
        "report",
        YESNO,
        "--runs-dir",
        runs,
        "--format",
        "json",
    ]))
    .unwrap();
    let acc = json["metrics"]["overall"]["accuracy"]["value"]
        .as_f64()
        .unwrap();
    let md = ok(&["report", YESNO, "--runs-dir", runs, "--format", "md"]);
    assert!(md.contains("| metric | value [95% interval] |"), "{md}");
    assert!(md.contains(&format!("| accuracy | {acc:.3} [")), "{md}");
    assert!(md.contains("## By relation"));
    let csv = ok(&["report", YESNO, "--runs-dir", runs, "--format", "csv"]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        kgscope::document::CSV_HEADER.join(",")
    );
    let overall = lines
        .find(|l| l.contains(",overall,all,") && l.contains(",accuracy,"))
        .unwrap();
    assert!(overall.contains(&format!(",{acc:.6},")), "{overall}");
    // --json stays the same as --format json.
    let old = ok(&["report", YESNO, "--runs-dir", runs, "--json"]);
    assert_eq!(serde_json::from_str::<Value>(&old).unwrap(), json);
}

/// Copies the yes/no fixture run twice and changes outcomes so that, against the original,
/// run B got 6 questions wrong that A got right and 1 right that A got wrong: McNemar's
/// discordant pairs b = 6, c = 1, so by hand the exact two-sided p is
/// 2 · (C(7,0) + C(7,1)) / 2^7 = 16/128 = 0.125, and χ² = (|6 − 1| − 1)² / 7 = 16/7.
#[test]
fn compare_matches_a_hand_computed_mcnemar_on_a_fixture_pair() {
    let dir = tempfile::tempdir().unwrap();
    let a_dir = dir.path().join("A");
    let b_dir = dir.path().join("B");
    for d in [&a_dir, &b_dir] {
        copy_dir(&legacy().join(YESNO), d);
    }
    let lines: Vec<Value> = std::fs::read_to_string(a_dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let is_right = |v: &Value| v["outcome"] == "correct";
    let right: Vec<usize> = (0..lines.len()).filter(|i| is_right(&lines[*i])).collect();
    let wrong: Vec<usize> = (0..lines.len()).filter(|i| !is_right(&lines[*i])).collect();
    assert!(right.len() >= 6 && !wrong.is_empty());
    let mut b = lines.clone();
    for i in &right[..6] {
        b[*i]["outcome"] = "incorrect".into();
    }
    b[wrong[0]]["outcome"] = "correct".into();
    // B answered one question fewer: the comparison is on the common ids.
    let dropped = b.pop().unwrap();
    let text: String = b.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(b_dir.join("results.jsonl"), text).unwrap();
    let out = ok(&[
        "compare",
        a_dir.to_str().unwrap(),
        b_dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let c: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(c["common"].as_u64().unwrap() as usize, lines.len() - 1);
    let overall = &c["groups"][0];
    assert_eq!(overall["group"], "overall");
    let vs = &overall["vs_baseline"][0];
    // The dropped question could be one of the changed ones only if it was last: it is not
    // among the first six right ones or the first wrong one unless the run is tiny.
    assert_ne!(dropped["question"]["id"], lines[wrong[0]]["question"]["id"]);
    assert_eq!(vs["table"]["only_a"], 6);
    assert_eq!(vs["table"]["only_b"], 1);
    assert_eq!(vs["mcnemar"]["form"], "exact-binomial");
    assert!((vs["mcnemar"]["p"].as_f64().unwrap() - 0.125).abs() < 1e-12);
    assert!((vs["mcnemar"]["chi2"].as_f64().unwrap() - 16.0 / 7.0).abs() < 1e-12);
    let n = overall["n"].as_f64().unwrap();
    assert!((vs["difference"]["value"].as_f64().unwrap() + 5.0 / n).abs() < 1e-12);
    // Markdown says how many questions were compared and which test.
    let md = ok(&["compare", a_dir.to_str().unwrap(), b_dir.to_str().unwrap()]);
    assert!(
        md.contains(&format!("Compared on the {} question ids", lines.len() - 1)),
        "{md}"
    );
    assert!(md.contains("0.125 (exact)"), "{md}");
    assert!(md.contains("McNemar"));
    // The HTML comparison is well-formed and carries its figure.
    let html = ok(&[
        "compare",
        a_dir.to_str().unwrap(),
        b_dir.to_str().unwrap(),
        "--format",
        "html",
    ]);
    let doc = parse_html(&html);
    assert_eq!(
        doc.descendants()
            .filter(|n| n.tag_name().name() == "svg")
            .count(),
        1
    );
    // One run is not a comparison.
    let one = run(&["compare", a_dir.to_str().unwrap()]);
    assert!(!one.status.success());
}

/// The HTML pages are written well-formed: an XML parser reads them (`<!DOCTYPE html>` is
/// their only DTD).
fn parse_html(html: &str) -> roxmltree::Document<'_> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    roxmltree::Document::parse_with_options(html, opts).expect("well-formed HTML")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Issue 38: a statement run's figure defaults to accuracy (correctness is 0.00 in every cell
/// for a model that says "true" to everything), and a correctness heatmap's cells carry the
/// n of facts their intervals are computed from, with the legend saying so.
#[test]
fn a_statement_heatmap_defaults_to_accuracy_and_shows_the_n_of_its_unit() {
    let st = load(&legacy(), STATEMENT);
    let r = req(Kind::Heatmap, View::Heat(HeatView::Relation));
    let fig = figures::build(std::slice::from_ref(&st), &r).unwrap();
    assert!(fig.title.starts_with("accuracy "), "{}", fig.title);
    let texts = |fig: &figures::Figure| -> Vec<String> {
        let svg = figures::svg(fig).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(|t| t.trim().to_string())
            .collect()
    };
    let correctness = figures::build(
        std::slice::from_ref(&st),
        &Request {
            metric: Some(kgscope::metrics::Metric::Correctness),
            ..r
        },
    )
    .unwrap();
    let said = texts(&correctness);
    assert!(said.iter().any(|t| t.contains("n = facts")), "{said:?}");
    // Each relation's cell: its n is the relation's facts, never its statements.
    for (rel, g) in &st.snapshot.by_relation {
        let Some(ge) = &g.grapheval else { continue };
        assert!(g.n > ge.triples, "{rel}: the run asks negatives");
        let cells: Vec<&String> = said.iter().filter(|t| t.contains("] n=")).collect();
        assert!(
            cells
                .iter()
                .any(|t| t.ends_with(&format!("] n={}", ge.triples))),
            "{rel}: {cells:?}"
        );
        let facts_somewhere = st
            .snapshot
            .by_relation
            .values()
            .any(|o| o.grapheval.as_ref().is_some_and(|x| x.triples == g.n));
        assert!(
            facts_somewhere || !cells.iter().any(|t| t.ends_with(&format!("] n={}", g.n))),
            "{rel}: {cells:?}"
        );
    }
}

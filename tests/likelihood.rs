//! Likelihood scoring (`--scoring logprob`) with the real model: in process through llama.cpp,
//! and over HTTP from llama.cpp's own server.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use kgscope::backends::openai::{Endpoint, OpenAiBackend, OpenAiOptions};
use kgscope::backends::Backend;
use kgscope::run::config::AnswerScoring;
use kgscope::run::{engine, session, EngineOptions, ResultRecord, RunEvent};

fn records(runs: &Path, id: &str) -> Vec<ResultRecord> {
    let mut r = session::open_results(runs, id).unwrap().2;
    r.sort_by(|a, b| a.question.id.cmp(&b.question.id));
    r
}

fn run(runs: &Path, method: &str, limit: &str, scoring: &str) -> String {
    let out = common::ok(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        method,
        "--limit",
        limit,
        "--parallel",
        "1",
        "--scoring",
        scoring,
        "--runs-dir",
        runs.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["run_id"].as_str().unwrap().to_string()
}

/// The first word the model wrote, if it is one of a yes/no question's options.
fn first_word(response: &str) -> Option<&'static str> {
    let w = response.trim_start();
    if w.starts_with("Yes") {
        Some("Yes")
    } else if w.starts_with("No") {
        Some("No")
    } else {
        None
    }
}

#[test]
fn a_yes_no_answer_by_likelihood_is_the_greedy_first_word() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    let generated = records(runs, &run(runs, "yesno", "16", "generate"));
    let id = run(runs, "yesno", "16", "logprob");
    let scored = records(runs, &id);
    assert_eq!(generated.len(), scored.len());
    let mut compared = 0;
    for (g, s) in generated.iter().zip(&scored) {
        assert_eq!(g.question.id, s.question.id, "the same questions");
        let a = &s.attempts[0];
        let l = a.likelihood.as_ref().expect("options scored");
        assert_eq!(l.options, ["Yes", "No"]);
        assert_eq!(a.completion_tokens, 0, "nothing generated");
        assert_eq!(a.response, l.options[l.chosen]);
        let sum: f64 = l.probs.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{:?}", l.probs);
        assert!(l.probs[l.chosen] >= 0.5, "the most likely option: {l:?}");
        assert!(l.logprobs.iter().all(|&p| p < 0.0), "{:?}", l.logprobs);
        // Greedy generation took the most likely first token from the same logits (one
        // sequence, the same prompt): when it was Yes or No, likelihood chose it too.
        if let Some(word) = first_word(&g.attempts[0].response) {
            assert_eq!(a.response, word, "{}: {:?}", g.question.id, l);
            compared += 1;
        }
    }
    assert!(
        compared >= 8,
        "only {compared} answers began with Yes or No"
    );
    // The report gives the calibration from the token probabilities.
    let text = common::ok(&["report", &id, "--runs-dir", runs.to_str().unwrap()]);
    assert!(text.contains("calibration (token probabilities"), "{text}");
    let md = common::ok(&[
        "report",
        &id,
        "--runs-dir",
        runs.to_str().unwrap(),
        "--format",
        "md",
    ]);
    assert!(md.contains("## Calibration"), "{md}");
    assert!(md.contains("| all |"), "{md}");
    // So does the reliability diagram, which says so.
    let svg = runs.join("reliability.svg");
    common::ok(&[
        "plot",
        &id,
        "--runs-dir",
        runs.to_str().unwrap(),
        "--kind",
        "calibration",
        "--out",
        svg.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.contains("token probabilities"), "{svg}");
    assert!(svg.contains("answers chosen by likelihood"), "{svg}");
}

#[test]
fn an_option_of_several_tokens_is_summed_over_its_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    let id = run(runs, "statement", "8", "logprob");
    let scored = records(runs, &id);
    assert!(!scored.is_empty());
    for r in &scored {
        let l = r.attempts[0].likelihood.as_ref().unwrap();
        assert_eq!(l.options, ["Yes", "No", "I don't know"]);
        assert_eq!(&l.tokens[..2], &[1, 1], "one word each");
        assert!(l.tokens[2] > 1, "I don't know is several tokens: {l:?}");
        assert!(l.logprobs.iter().all(|p| p.is_finite() && *p < 0.0));
        let best = (0..3)
            .max_by(|&a, &b| l.logprobs[a].total_cmp(&l.logprobs[b]))
            .unwrap();
        assert_eq!(l.chosen, best);
    }
    // Per token, the long option is compared by its mean.
    let id = run(runs, "statement", "8", "logprob-norm");
    for r in records(runs, &id) {
        let l = r.attempts[0].likelihood.as_ref().unwrap();
        assert!(l.per_token);
        let norm: Vec<f64> = (0..3)
            .map(|i| l.logprobs[i] / f64::from(l.tokens[i]))
            .collect();
        let best = (0..3).max_by(|&a, &b| norm[a].total_cmp(&norm[b])).unwrap();
        assert_eq!(l.chosen, best, "{l:?}");
    }
}

#[test]
fn an_open_question_method_refuses_likelihood_scoring() {
    let tmp = tempfile::tempdir().unwrap();
    let out = common::run(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "saq",
        "--limit",
        "2",
        "--scoring",
        "logprob",
        "--runs-dir",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("saq asks open questions"), "{err}");
    assert!(common::walk(tmp.path()).is_empty(), "no run directory left");
}

async fn answers(
    backend: Arc<dyn Backend>,
    qs: Vec<kgscope::questions::Question>,
) -> Vec<ResultRecord> {
    answers_by(backend, qs, AnswerScoring::Logprob).await
}

async fn answers_by(
    backend: Arc<dyn Backend>,
    qs: Vec<kgscope::questions::Question>,
    scoring: AnswerScoring,
) -> Vec<ResultRecord> {
    let opts = EngineOptions {
        repeats: 1,
        concurrency: 2,
        params: Default::default(),
        checker: None,
        scoring,
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel(256);
    let task = tokio::spawn(engine::run(
        backend,
        qs,
        opts,
        tx,
        engine::Control::default(),
    ));
    let mut out = vec![];
    while let Some(ev) = rx.recv().await {
        match ev {
            RunEvent::Answered(r) => out.push(*r),
            RunEvent::Failed { qid, error } => panic!("{qid}: {error}"),
            _ => {}
        }
    }
    task.await.unwrap();
    out.sort_by(|a, b| a.question.id.cmp(&b.question.id));
    out
}

/// `limit` yes/no questions from the countries sample KG.
fn countries_yesno(limit: usize) -> Vec<kgscope::questions::Question> {
    let (_kg, index) = common::indexed("sample:countries");
    let opts = kgscope::questions::GenerateOptions {
        task: kgscope::questions::Task::Yesno,
        limit,
        ..Default::default()
    };
    kgscope::method::generate(&index, &kgscope::questions::TemplateSet::builtin(), &opts)
        .unwrap()
        .0
}

#[test]
fn likelihood_over_http_reads_the_servers_logprobs() {
    let model = common::default_model();
    let server = common::llama_server(&model);
    let qs = countries_yesno(12);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut o = OpenAiOptions::new(format!("{}/v1", server.base), "gemma");
    o.endpoint = Endpoint::Completions;
    let http: Arc<dyn Backend> = Arc::new(OpenAiBackend::new(o).unwrap());
    let over_http = rt.block_on(answers(http, qs.clone()));
    let mut lo = kgscope::backends::llama::LlamaOptions::new(&model);
    lo.parallel = 1;
    let local: Arc<dyn Backend> =
        Arc::new(kgscope::backends::llama::LlamaCppBackend::load(lo).unwrap());
    let in_process = rt.block_on(answers(local, qs));
    assert_eq!(over_http.len(), in_process.len());
    let mut agree = 0;
    for (h, l) in over_http.iter().zip(&in_process) {
        let (hl, ll) = (
            h.attempts[0].likelihood.as_ref().unwrap(),
            l.attempts[0].likelihood.as_ref().unwrap(),
        );
        // The server lists both words among its top 20: neither is the floor.
        assert!(hl.logprobs.iter().all(|&p| p > -15.0), "{hl:?}");
        assert_eq!(hl.tokens, [1, 1]);
        agree += usize::from(hl.chosen == ll.chosen);
    }
    // The same model and prompt text; the server sums " Yes", " yes" and " YES" for Yes, and
    // its kernels batch differently, so a near tie may go the other way.
    assert!(
        agree * 4 >= over_http.len() * 3,
        "{agree} of {} agree",
        over_http.len()
    );
}

/// The three ways of taking a greedy token (kgscope's own argmax over the output row,
/// llama.cpp's greedy sampler, llama.cpp's backend sampling in the graph) give the same
/// answers, token for token; a model loaded for backend sampling refuses likelihood scoring
/// with a message instead of reading output rows it does not have.
#[test]
fn every_greedy_path_gives_the_same_answers() {
    use kgscope::backends::llama::{GreedyPath, LlamaCppBackend, LlamaOptions};
    let model = common::default_model();
    let qs = countries_yesno(10);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let texts = |greedy: GreedyPath| {
        let mut o = LlamaOptions::new(&model);
        // One sequence: llama.cpp's CPU kernels are not batch-invariant.
        o.parallel = 1;
        o.greedy = greedy;
        let b: Arc<dyn Backend> = Arc::new(LlamaCppBackend::load(o).unwrap());
        rt.block_on(answers_by(b, qs.clone(), AnswerScoring::Generate))
            .into_iter()
            .map(|r| r.attempts[0].response.clone())
            .collect::<Vec<_>>()
    };
    let argmax = texts(GreedyPath::Argmax);
    assert_eq!(argmax.len(), qs.len());
    assert!(argmax.iter().any(|t| !t.trim().is_empty()), "{argmax:?}");
    assert_eq!(texts(GreedyPath::Library), argmax);
    assert_eq!(texts(GreedyPath::Device), argmax);

    let mut o = LlamaOptions::new(&model);
    o.parallel = 1;
    o.greedy = GreedyPath::Device;
    let device = LlamaCppBackend::load(o).unwrap();
    let scored = rt.block_on(device.score(kgscope::backends::ScoreRequest {
        id: "q".into(),
        prompt: kgscope::method::of(qs[0].task).prompt(&qs[0]),
        options: vec!["Yes".into(), "No".into()],
    }));
    let err = scored.unwrap_err().to_string();
    assert!(err.contains("temperature 0 only"), "{err}");
}

#[test]
fn every_closed_answer_reads_as_a_distinct_answer() {
    let (_kg, index) = common::indexed("sample:countries");
    let mut methods = 0;
    for m in kgscope::method::all().filter(|m| m.has_closed_answers()) {
        let opts = kgscope::questions::GenerateOptions {
            task: m.task(),
            limit: 6,
            ..Default::default()
        };
        let (qs, _) =
            kgscope::method::generate(&index, &kgscope::questions::TemplateSet::builtin(), &opts)
                .unwrap();
        let closed: Vec<_> = qs
            .iter()
            .filter_map(|q| Some((q, m.closed_answers(q)?)))
            .collect();
        assert!(
            !closed.is_empty(),
            "{}: no question with closed answers",
            m.task().as_str()
        );
        for (q, options) in closed {
            let readings: Vec<_> = options.iter().map(|o| m.read(q, o)).collect();
            for (o, r) in options.iter().zip(&readings) {
                assert!(r.confident, "{}: {o:?} read as {r:?}", m.task().as_str());
            }
            for i in 0..readings.len() {
                for j in i + 1..readings.len() {
                    assert_ne!(
                        readings[i].answer,
                        readings[j].answer,
                        "{}: {:?} and {:?}",
                        m.task().as_str(),
                        options[i],
                        options[j]
                    );
                }
            }
        }
        methods += 1;
    }
    assert_eq!(methods, 6, "statement, yesno, tfq, mcq-fib, mcq-wh, kg-fpq");
}

#[test]
fn bench_llama_measures_both_sides_on_the_same_questions() {
    let server = common::tool("KGSCOPE_LLAMA_SERVER", "llama-server");
    let batched = common::tool("KGSCOPE_LLAMA_BATCHED_BENCH", "llama-batched-bench");
    let out = common::ok(&[
        "bench",
        "llama",
        "--questions",
        "6",
        "--parallel",
        "1,2",
        "--llama-server",
        server.to_str().unwrap(),
        "--batched-bench",
        batched.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runs = v["runs"].as_array().unwrap();
    let sides: Vec<(&str, u64)> = runs
        .iter()
        .map(|r| (r["side"].as_str().unwrap(), r["parallel"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        sides,
        [
            ("kgscope generate", 1),
            ("kgscope likelihood", 1),
            ("llama-server", 1),
            ("kgscope generate", 2),
            ("kgscope likelihood", 2),
            ("llama-server", 2),
        ]
    );
    for r in runs {
        assert_eq!(r["questions"], 6);
        assert!(r["questions_per_s"].as_f64().unwrap() > 0.0);
        let tokens = r["completion_tokens"].as_u64().unwrap();
        if r["side"] == "kgscope likelihood" {
            assert_eq!(tokens, 0, "nothing generated");
        } else {
            // Both sides count what they generated: at least one token per answer, at most
            // the limit.
            assert!((6..=6 * 24).contains(&tokens), "{r}");
        }
    }
    for p in v["ratios"].as_array().unwrap() {
        assert!(p["likelihood_vs_generate"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["kgscope_vs_server"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["generate_vs_ceiling"].as_f64().unwrap() > 0.0, "{p}");
        assert!(p["likelihood_vs_ceiling"].as_f64().unwrap() > 0.0, "{p}");
    }
    // kgscope's runs say where the time went; the server's cannot.
    for r in runs {
        let split = &r["split"];
        if r["side"] == "llama-server" {
            assert!(split.is_null(), "{r}");
            continue;
        }
        assert!(split["steps"].as_u64().unwrap() > 0, "{r}");
        assert!(split["prompt_tokens"].as_u64().unwrap() >= 6, "{r}");
        let fill = split["mean_sequences_per_step"].as_f64().unwrap();
        assert!(fill > 0.0 && fill <= r["parallel"].as_f64().unwrap(), "{r}");
        assert!(
            split["ms"]["forward (prompt)"].as_f64().unwrap() > 0.0,
            "{r}"
        );
        let generated = split["generated_tokens"].as_u64().unwrap();
        if r["side"] == "kgscope likelihood" {
            assert_eq!(generated, 0, "{r}");
        } else {
            // Every answer's tokens but its first (which the prompt's step chose) and its end.
            assert!(generated <= r["completion_tokens"].as_u64().unwrap(), "{r}");
        }
    }
    // llama.cpp's ceiling for the same prompt and answer lengths, per --parallel.
    let rows = v["llama_batched_bench"].as_array().unwrap();
    let pls: Vec<u64> = rows.iter().map(|r| r["pl"].as_u64().unwrap()).collect();
    assert_eq!(pls, [1, 2]);
    assert!(rows
        .iter()
        .all(|r| r["tg"] == 24 && r["pp"].as_u64().unwrap() >= 5));
}

/// With --fixed-answers every answer is exactly --max-tokens tokens on every side, whatever
/// the model would have said (the end-of-generation token and stop sequences ignored).
#[test]
fn bench_llama_fixed_answers_cost_the_same_tokens_everywhere() {
    let server = common::tool("KGSCOPE_LLAMA_SERVER", "llama-server");
    let out = common::ok(&[
        "bench",
        "llama",
        "--questions",
        "8",
        "--parallel",
        "2",
        "--max-tokens",
        "3",
        "--fixed-answers",
        "--greedy",
        "argmax,device",
        "--no-likelihood",
        "--llama-server",
        server.to_str().unwrap(),
        "--server-questions",
        "3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // The statements drawn (a fact and its negative come in pairs, so about --questions).
    let n = v["questions"].as_u64().unwrap();
    assert!(n > 3, "{v}");
    let runs = v["runs"].as_array().unwrap();
    let got: Vec<(&str, u64, u64)> = runs
        .iter()
        .map(|r| {
            (
                r["side"].as_str().unwrap(),
                r["questions"].as_u64().unwrap(),
                r["completion_tokens"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("kgscope generate", n, 3 * n),
            ("kgscope generate (device sampler)", n, 3 * n),
            ("llama-server", 3, 9),
        ]
    );
}

/// A server that fails a likelihood request many times before answering: every retry notice
/// is read while the request runs (none is lost or blocks it), and the answer's logprobs are
/// read whatever came first. One that answers without logprobs stops the run, saying why.
#[test]
fn likelihood_over_http_survives_retries_and_refuses_a_server_without_logprobs() {
    use kgscope::backends::ScoreRequest;
    const RETRIES: usize = 12;
    let answer = r#"{"choices":[{"text":" No","logprobs":{"content":[{"token":" No","logprob":-0.2,"top_logprobs":[{"token":" No","logprob":-0.2},{"token":" Yes","logprob":-1.8}]}]},"finish_reason":"length"}],"usage":{"prompt_tokens":9,"completion_tokens":1}}"#;
    let (base, seen) = common::scripted_server(move |n| {
        if n < RETRIES {
            common::http("503 Service Unavailable", "", "busy")
        } else {
            common::http("200 OK", "Content-Type: application/json\r\n", answer)
        }
    });
    let mut o = OpenAiOptions::new(base, "m");
    o.endpoint = Endpoint::Completions;
    o.max_retries = RETRIES as u32;
    o.backoff_base = std::time::Duration::from_millis(1);
    o.backoff_max = std::time::Duration::from_millis(5);
    let backend = OpenAiBackend::new(o).unwrap();
    let req = ScoreRequest {
        id: "q1".into(),
        prompt: kgscope::backends::Prompt {
            instruction: "Answer yes or no.".into(),
            shots: vec![],
            input: "Is Paris in Spain?".into(),
        },
        options: vec!["Yes".into(), "No".into()],
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let scored = rt.block_on(backend.score(req.clone())).unwrap();
    assert_eq!(scored.logprobs, [-1.8, -0.2]);
    assert_eq!(scored.prompt_tokens, 9);
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), RETRIES + 1);
    assert_eq!(backend.retries(), RETRIES as u64);

    let plain = r#"{"choices":[{"text":" No","finish_reason":"length"}]}"#;
    let (base, _) = common::scripted_server(move |_| {
        common::http("200 OK", "Content-Type: application/json\r\n", plain)
    });
    let backend = OpenAiBackend::new(OpenAiOptions::new(base, "m")).unwrap();
    let err = rt.block_on(backend.score(req)).unwrap_err().to_string();
    assert!(err.contains("returned no log-probabilities"), "{err}");
    assert!(err.contains("--scoring generate"), "{err}");
}

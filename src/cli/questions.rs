//! `kgscope questions`: generate a question set and write it as JSON Lines.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use kgscope::questions::{self, ContextKind, GenerateOptions, NegativesFrom, Question, Task};
use kgscope::run::session;
use kgscope::sampling::Sampling;

use super::KgArg;

/// What to generate: shared by `kgscope questions` and `kgscope run`.
#[derive(Args, Clone)]
pub struct GenArgs {
    #[command(flatten)]
    pub kg: KgArg,
    /// The method and question kind (each is one method: its questions, prompt, reading and
    /// metrics). `kglens` is KGLens in full: adaptive sampling iteration by iteration (with
    /// `kgscope questions`, its first iteration's questions).
    #[arg(
        long,
        visible_alias = "method",
        value_enum,
        default_value = "statement"
    )]
    pub task: Task,
    /// tfq, mcq-fib, mcq-wh, saq: put context before each question: `relevant` (the fact and
    /// the subject's other facts as sentences), `irrelevant` (the same about an unrelated
    /// entity) or `antifactual` (the relevant text with a wrong object) [default: none].
    #[arg(long, value_enum, value_name = "KIND")]
    pub context: Option<ContextKind>,
    /// Number of questions (statements: whole groups of a fact and its negatives), or `all`:
    /// every askable fact of the selection (`kgscope run` asks them batch by batch, in
    /// bounded memory, and resumes like any run; not for kglens and kg-fpq).
    #[arg(long, value_name = "N|all", default_value_t = kgscope::questions::DEFAULT_LIMIT, value_parser = parse_limit)]
    pub limit: usize,
    /// statement task: false statements made from each true one by replacing its subject or
    /// object.
    #[arg(long, default_value_t = kgscope::questions::DEFAULT_NEGATIVES)]
    pub negatives: usize,
    /// Where a negative's replacement comes from: `fair` (an entity of the replaced one's
    /// type, an object its relation has elsewhere, a relation that fits both ends, and false
    /// for the asked knowledge, not for another reason), `typed` (the same without the fairness
    /// checks, as kgscope drew them before) or `random` (any entity, object or relation, as the
    /// GraphEval paper does).
    #[arg(long, value_enum, default_value = "fair")]
    pub negatives_from: NegativesFrom,
    /// How facts are drawn: `by-relation` (every relation its share), `by-type` (subjects'
    /// types in turn, rarer first) or `uniform` (relations as often as the KG states them).
    #[arg(long, value_enum, default_value = "by-relation")]
    pub sampling: Sampling,
    /// Seed for every random choice; the same seed and KG give the same questions.
    #[arg(long, default_value_t = kgscope::questions::DEFAULT_SEED)]
    pub seed: u64,
    /// Only these relations (IRI, label or local name); repeatable [default: every relation].
    #[arg(long = "relation", value_name = "R")]
    pub relations: Vec<String>,
    /// Only facts around these entities, as subject or object (an IRI, or a label or alias as
    /// `kgscope kg show` takes it); repeatable, like the TUI's marked entities [default: every
    /// entity].
    #[arg(long = "entity", value_name = "ENTITY")]
    pub entities: Vec<String>,
    /// Extra template files (.toml, GraphEval .tsv, LAMA .jsonl); repeatable, later files win
    /// [default: the built-in templates only].
    #[arg(long = "templates", value_name = "FILE")]
    pub templates: Vec<PathBuf>,
    #[command(flatten)]
    pub fpq: kgscope::method::kgfpq::args::FpqArgs,
    /// Draw N facts per relation from the KG with bounded queries, instead of reading it whole:
    /// for an endpoint or store too big to read (Wikidata, DBpedia). Questions come from the
    /// sample; negatives are checked against every fact of the entities drawn. `--entity`
    /// entities are drawn too; KGLens walks and KG-FPQ's neighbourhoods reach out from what is
    /// drawn, hop by hop [default: 100 on a SPARQL endpoint (`--kg-whole` reads it whole);
    /// files and stores are read whole]
    #[arg(long, value_name = "N")]
    pub kg_sample: Option<usize>,
}

/// `--limit`: a number, or `all`.
fn parse_limit(s: &str) -> Result<usize, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(kgscope::run::sweep::ALL);
    }
    s.parse()
        .map_err(|_| format!("'{s}' is neither a number of questions nor `all`"))
}

impl GenArgs {
    /// The generation options, with `--entity` already resolved to `entity_iris`.
    pub fn options(&self, entity_iris: Vec<String>) -> GenerateOptions {
        GenerateOptions {
            // Checked by `check`, which every command calls first.
            fpq: self.fpq.options(self.task).ok().flatten(),
            task: self.task,
            limit: self.limit,
            negatives: self.negatives,
            negatives_from: self.negatives_from,
            sampling: self.sampling,
            seed: self.seed,
            relations: self.relations.clone(),
            entities: entity_iris,
            context: self.context,
            assessments: 1,
            // Learnt from recorded runs by `kgscope run` only.
            relation_scores: Default::default(),
        }
    }

    /// What to draw from the KG, with `--kg-sample`: the `--entity` IRIs too, and KG-FPQ's
    /// neighbourhood around everything drawn.
    pub fn draw(&self, entity_iris: &[String]) -> Option<kgscope::kg::bounded::Draw> {
        let hops = self
            .fpq
            .options(self.task)
            .ok()
            .flatten()
            .map_or(0, |o| o.max_hops);
        kgscope::kg::bounded::Draw::of(self.kg_sample, &self.relations, self.seed)
            .map(|d| d.reaching(entity_iris, hops, kgscope::kg::bounded::HOP_WIDTH, true))
    }

    /// An endpoint is sampled unless `--kg-whole` says otherwise: `--kg-sample` becomes the
    /// default size there (so a run's manifest records the sample it asked), said on stderr.
    pub fn sample_endpoints(&mut self) {
        if self.kg_sample.is_none()
            && !self.kg.kg_whole
            && kgscope::kg::bounded::is_endpoint(&self.kg.kg)
        {
            let n = kgscope::kg::bounded::DEFAULT_SAMPLE;
            eprintln!("note: {}", kgscope::kg::bounded::default_sample_note(n));
            self.kg_sample = Some(n);
        }
    }

    /// Refuses options the task does not use, rather than ignoring them.
    pub fn check(&self) -> anyhow::Result<()> {
        self.fpq.options(self.task)?;
        if let Some(n) = self.kg_sample {
            anyhow::ensure!(n > 0, "--kg-sample 0: draw at least one fact per relation");
        }
        anyhow::ensure!(
            !(self.kg_sample.is_some() && self.kg.kg_whole),
            "--kg-sample and --kg-whole contradict each other: draw a sample, or read the KG whole"
        );
        if self.context.is_some() && !kgscope::method::of(self.task).takes_context() {
            anyhow::bail!(
                "--context is for the tfq, mcq-fib, mcq-wh and saq tasks (Luo et al.), not {}",
                self.task.as_str()
            );
        }
        Ok(())
    }
}

#[derive(Args)]
pub struct QuestionsArgs {
    #[command(flatten)]
    pub gen: GenArgs,
    /// Output file (JSON Lines), written whole or not at all; `-` for standard output.
    #[arg(long, value_name = "FILE", default_value = super::STDOUT)]
    pub out: String,
    #[command(flatten)]
    pub review: super::review::ReviewArgs,
    /// Write the questions the reviewer rejected too, each with its review [default: only
    /// the questions it accepts, as a run would ask them].
    #[arg(long, requires = "review_with")]
    pub keep_rejected: bool,
    #[command(flatten)]
    pub openai: super::openai_args::OpenAiArgs,
}

pub fn run(mut a: QuestionsArgs) -> anyhow::Result<ExitCode> {
    a.gen.check()?;
    let reviewer = a.review.spec(&a.openai)?;
    a.gen.sample_endpoints();
    a.gen.kg.apply(&a.gen.relations);
    let templates = session::load_templates(&a.gen.templates)?;
    let sp = super::progress::spinner("opening the KG");
    let (session::OpenKg { kg, index }, entities) = super::kg::open_with_entities(
        &a.gen.kg.kg,
        &a.gen.entities,
        a.gen.kg_sample.is_some(),
        |iris| a.gen.draw(iris),
        &|step| sp.set_message(step.to_string()),
    )?;
    sp.finish_and_clear();
    let (mut qs, report) = kgscope::method::generate(&index, &templates, &a.gen.options(entities))?;
    let renderer = questions::Renderer {
        index: &index,
        templates: &templates,
        seed: a.gen.seed,
    };
    kgscope::method::of(a.gen.task).complete(kg.as_ref(), &renderer, &mut qs)?;
    let reviewed = match &reviewer {
        Some(spec) => {
            let r = super::review::start(spec, super::review::default_parallel())?;
            let tally = super::review::review(&r, &mut qs)?;
            if !a.keep_rejected {
                qs = kgscope::run::review::split(qs).0;
            }
            let fate = if a.keep_rejected {
                "written with their review"
            } else {
                "not written"
            };
            Some(tally.line(r.model(), fate))
        }
        None => None,
    };
    let mut buf = Vec::with_capacity(qs.len() * 512);
    for q in &qs {
        // KG text may hold bidi overrides or C1 controls: escaped as \uXXXX, read back the same.
        kgscope::sanitize::write_json(&mut buf, q)?;
        buf.push(b'\n');
    }
    super::write_output(&a.out, &buf)?;
    let wanted = a.gen.limit;
    let shortfall = (wanted != kgscope::run::sweep::ALL)
        .then(|| report.shortfall(wanted))
        .flatten();
    eprintln!(
        "{} {} questions from {} candidate facts{}{}",
        report.questions,
        a.gen.task.as_str(),
        report.candidates,
        if a.out == super::STDOUT {
            String::new()
        } else {
            format!(" → {}", a.out)
        },
        shortfall
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default()
    );
    if report.negatives_missing > 0 && shortfall.is_none() {
        eprintln!("note: {} {}", report.negatives_missing, report.unmade);
    } else if shortfall.is_none() {
        for s in &report.skipped {
            eprintln!(
                "note: {} of the {} matching facts skipped, {}",
                s.facts, report.matching, s.why
            );
        }
    }
    for (line, n) in &report.unmade_why {
        eprintln!("  {n} facts, {line}");
    }
    if let Some(line) = reviewed {
        eprintln!("{}", kgscope::sanitize::line(&line));
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct AuditArgs {
    /// A question set, as `kgscope questions` writes it (JSON Lines); `-` for standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// The KG the questions were made from.
    #[command(flatten)]
    pub kg: KgArg,
    /// Template files the statements were rendered with, besides the built-in ones; they
    /// decide which negatives read like true facts [default: the built-in templates only].
    #[arg(long = "templates", value_name = "FILE")]
    pub templates: Vec<PathBuf>,
    /// Print the audit as JSON.
    #[arg(long)]
    pub json: bool,
    /// Hand verdicts on these questions (the reviewed set's `*.verdicts.jsonl`: id, verdict
    /// accept/reject, cause); repeatable. The audit then says how many rejected questions it
    /// flags (recall) and how many accepted ones (false alarms), per cause [default: no
    /// measurement].
    #[arg(long = "reviewed", value_name = "FILE")]
    pub reviewed: Vec<PathBuf>,
    #[command(flatten)]
    pub review: super::review::ReviewArgs,
    #[command(flatten)]
    pub openai: super::openai_args::OpenAiArgs,
}

/// `kgscope audit`: what an annotator would flag in a question set.
pub fn audit(a: AuditArgs) -> anyhow::Result<ExitCode> {
    let text = if a.file == super::STDOUT {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(&a.file)
            .map_err(|e| anyhow::anyhow!("reading the question set {}: {e}", a.file))?
    };
    let mut qs: Vec<Question> = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        qs.push(serde_json::from_str(line).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}: not a question as `kgscope questions` writes it: {e}",
                a.file,
                i + 1
            )
        })?);
    }
    // The reviewer reads the set before the KG is opened: its findings are one more line of
    // the audit. Reviews the file carries already (`questions --keep-rejected`) count as well.
    if let Some(spec) = a.review.spec(&a.openai)? {
        let r = super::review::start(&spec, super::review::default_parallel())?;
        super::review::review(&r, &mut qs)?;
    }
    let review = ReviewFinding::of(&qs);
    let templates = session::load_templates(&a.templates)?;
    a.kg.apply(&[]);
    let session::OpenKg { index, .. } = super::kg::open_indexed(&a.kg.kg, None)?;
    let renderer = questions::Renderer {
        index: &index,
        templates: &templates,
        seed: 0,
    };
    let corrupter = questions::negatives::Corrupter::new(&renderer, NegativesFrom::Fair);
    let mut report = questions::audit::audit(&renderer, &corrupter, &qs, &|q| {
        kgscope::method::of(q.task).asks_statements()
    });
    report.method_checks = kgscope::method::audit_checks(&index, &qs);
    if a.json {
        let mut out = serde_json::to_value(&report)?;
        if let (Some(r), Some(map)) = (&review, out.as_object_mut()) {
            map.insert("review".into(), serde_json::to_value(r)?);
        }
        println!("{}", kgscope::sanitize::json_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    let of = |n: usize| {
        format!(
            "{n} of {} ({:.1}%)",
            report.negatives_checked,
            report.share(n)
        )
    };
    println!(
        "{} questions, {} negatives ({} checked against the KG)",
        report.questions, report.negatives, report.negatives_checked
    );
    println!(
        "  type-mismatched negatives   {}",
        of(report.type_mismatched)
    );
    println!("  negatives true in words     {}", of(report.true_in_words));
    println!(
        "  questions giving the answer away   {} of {}",
        report.gives_answer_away, report.questions
    );
    println!(
        "  questions with a grammar problem   {} of {}",
        report.grammar, report.questions
    );
    println!(
        "  names without their article        {} of {}",
        report.article_errors, report.questions
    );
    println!(
        "  questions with unnatural wording   {} of {}",
        report.unnatural_wording, report.questions
    );
    println!(
        "  about the data model's machinery   {} of {}",
        report.model_machinery, report.questions
    );
    for (what, n) in [
        (
            "ambiguous subjects (a shared name without context)",
            report.ambiguous_subjects,
        ),
        (
            "ambiguous objects (another object of the relation has the name)",
            report.ambiguous_objects,
        ),
        ("duplicate questions", report.duplicates),
    ] {
        println!("  {what}   {n} of {}", report.questions);
    }
    for c in &report.method_checks {
        let share = if c.of == 0 {
            0.0
        } else {
            100.0 * c.count as f64 / c.of as f64
        };
        println!("  {:<48} {} of {} ({share:.1}%)", c.what, c.count, c.of);
    }
    println!(
        "  questions a reader would reject    {} of {}",
        report.flagged.len(),
        report.questions
    );
    for (what, n) in &report.reader_flags {
        println!("    {what:<70} {n}");
    }
    if !a.reviewed.is_empty() {
        let verdicts = kgscope::questions::review_set::read_verdicts(&a.reviewed)?;
        let m = kgscope::questions::review_set::measure(&verdicts, &report.flagged);
        println!("{}", m.render());
    }
    let o = &report.options;
    if o.questions > 0 {
        println!("  multiple-choice questions          {}", o.questions);
        for (what, n) in [
            ("more than one right option", o.several_right),
            ("option containing/contained in the answer", o.overlapping),
            ("option the KG ties to the answer", o.tied),
            ("option named like an object of the subject", o.stated),
            ("number within rounding/tolerance", o.too_close),
            ("options matched to the subject's name", o.matched),
            ("number written to another precision", o.other_form),
            ("not four distinct options", o.malformed),
        ] {
            println!("    {what:<44} {n} of {}", o.questions);
        }
    }
    if let Some(r) = &review {
        println!(
            "  rejected by the reviewer          {} of {} ({}){}",
            r.rejected,
            r.reviewed,
            clean_line(&r.models.join(", ")),
            if r.unreadable > 0 {
                format!("; {} reviews unreadable (kept)", r.unreadable)
            } else {
                String::new()
            }
        );
    }
    let mut kinds: Vec<_> = report.examples.iter().collect();
    kinds.sort();
    let method_examples = report
        .method_checks
        .iter()
        .filter(|c| !c.examples.is_empty())
        .map(|c| (&c.what, &c.examples));
    for (what, examples) in kinds
        .into_iter()
        .map(|(w, e)| (w.to_string(), e))
        .chain(method_examples.map(|(w, e)| (w.clone(), e)))
    {
        println!("\n{what}, e.g.:");
        for e in examples {
            println!("  {}", kgscope::sanitize::clean(e, false));
        }
    }
    if let Some(r) = review.as_ref().filter(|r| !r.rejections.is_empty()) {
        println!("\nrejected by the reviewer, with its reasons:");
        for x in &r.rejections {
            println!("  {} — {}", clean_line(&x.prompt), clean_line(&x.reason));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn clean_line(s: &str) -> String {
    kgscope::sanitize::line(s)
}

/// What the reviewer said of an audited set: every rejection with its reason.
#[derive(serde::Serialize)]
struct ReviewFinding {
    models: Vec<String>,
    reviewed: usize,
    rejected: usize,
    unreadable: usize,
    rejections: Vec<Rejection>,
}

#[derive(serde::Serialize)]
struct Rejection {
    id: String,
    prompt: String,
    reason: String,
}

impl ReviewFinding {
    /// The reviews `qs` carry; `None` when none was reviewed.
    fn of(qs: &[Question]) -> Option<Self> {
        let reviews = || qs.iter().filter_map(|q| q.review.as_ref());
        let t = kgscope::run::review::Tally::of(reviews());
        if t.reviewed == 0 {
            return None;
        }
        let mut models: Vec<String> = reviews()
            .map(|r| kgscope::run::review::short_model(&r.model).to_string())
            .collect();
        models.sort();
        models.dedup();
        Some(Self {
            models,
            reviewed: t.reviewed,
            rejected: t.rejected,
            unreadable: t.unreadable,
            rejections: qs
                .iter()
                .filter_map(|q| {
                    let r = q.review.as_ref().filter(|r| !r.accept)?;
                    Some(Rejection {
                        id: q.id.clone(),
                        prompt: q.prompt.clone(),
                        reason: r.reason.clone(),
                    })
                })
                .collect(),
        })
    }
}

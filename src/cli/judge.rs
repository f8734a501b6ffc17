//! `kgscope judge train`: GraphEval's trained judge learnt from statement runs (their verified
//! outcomes, hand labels overriding them) on the model's hidden states.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use kgscope::core::verdict::JudgeClass;
use kgscope::metrics::confusion::Scores;
use kgscope::run::trained::{self, ClassFrom};
use kgscope::sanitize::line as clean;
use kgscope::verify::trained::train::{self as training, Example, TrainOptions, Trained};
use kgscope::verify::trained::{Provenance, TrainedJudge, LAYER};

use super::progress;

#[derive(Subcommand)]
pub enum JudgeCommand {
    /// Train GraphEval's judge on statement runs: each statement's hidden state in the model,
    /// labelled by what the model did with it (the run's verified outcome, or a hand label).
    /// Prints per-class precision, recall and F1 on the held-out part beside the majority
    /// baseline, and writes the judge with its provenance.
    Train(TrainArgs),
}

#[derive(Args)]
pub struct TrainArgs {
    /// Statement runs to learn from (ids or run directories).
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,
    /// Where to write the judge (one safetensors file).
    #[arg(long, value_name = "JUDGE")]
    pub out: PathBuf,
    /// The GGUF model whose hidden states the judge reads: the evaluated model, or a smaller
    /// one of its family standing in for it (GraphEval's substitute model) [default: the
    /// runs' own model file].
    #[arg(long, value_name = "FILE")]
    pub model: Option<PathBuf>,
    /// Passes over the training part (the paper trains 100).
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Statements per optimiser step.
    #[arg(long, default_value_t = 8)]
    pub batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 1e-4)]
    pub lr: f64,
    /// Seed of the 70/30 split, the initial weights and the batch order.
    #[arg(long, default_value_t = kgscope::sampling::DEFAULT_SEED)]
    pub seed: u64,
    /// Share of the statements held out for scoring.
    #[arg(long, default_value_t = 0.3)]
    pub held_out: f64,
    /// Keep the last epoch's weights (the paper's judge) instead of those of the epoch with
    /// the lowest held-out loss.
    #[arg(long)]
    pub last_epoch: bool,
    /// Statements decoded together when reading hidden states.
    #[arg(long, default_value_t = 16)]
    pub parallel: usize,
    /// llama backend: layers offloaded to the GPU [default: all when llama.cpp has a GPU].
    #[arg(long)]
    pub gpu_layers: Option<u32>,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
    /// Print the scores as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn dispatch(c: JudgeCommand) -> anyhow::Result<ExitCode> {
    match c {
        JudgeCommand::Train(a) => train(a),
    }
}

fn train(a: TrainArgs) -> anyhow::Result<ExitCode> {
    if !(0.0..1.0).contains(&a.held_out) || a.held_out == 0.0 {
        bail!(
            "--held-out must be between 0 and 1 (exclusive), not {}",
            a.held_out
        );
    }
    let data = trained::training_data(&a.runs_dir, &a.runs).map_err(anyhow::Error::msg)?;
    let model = match (&a.model, data.model_files.as_slice()) {
        (Some(m), _) => m.clone(),
        (None, [one]) => one.clone(),
        (None, []) => bail!(
            "the runs used no local GGUF model: give --model the GGUF file whose hidden states \
             the judge should read"
        ),
        (None, many) => bail!(
            "the runs used {} model files: choose the one whose hidden states the judge reads \
             with --model",
            many.len()
        ),
    };
    if !model.is_file() {
        bail!("model file {} does not exist", model.display());
    }
    let sp = progress::spinner("hashing the model file");
    let sha = trained::model_hash(&model).map_err(anyhow::Error::msg)?;
    sp.set_message(format!("loading {} for hidden states", model.display()));
    let llama =
        trained::hidden_model(&model, a.parallel, a.gpu_layers).map_err(anyhow::Error::msg)?;
    sp.finish_and_clear();

    let questions: Vec<&kgscope::questions::Question> =
        data.items.iter().map(|l| &l.record.question).collect();
    let bar = progress::counter(Some(questions.len() as u64), "hidden states");
    let rt = tokio::runtime::Runtime::new()?;
    let states = rt
        .block_on(trained::hidden_states(&llama, &questions, &|n| {
            bar.set_position(n as u64)
        }))
        .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    drop(llama);
    let examples: Vec<Example> = data
        .items
        .iter()
        .zip(states)
        .map(|(l, state)| Example {
            id: l.record.question.id.clone(),
            state,
            positive: l.record.question.gold.truth(),
            class: l.class,
        })
        .collect();
    let opts = TrainOptions {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        seed: a.seed,
        held_out: a.held_out,
    };
    let bar = progress::counter(Some(a.epochs as u64), "epochs");
    let t = training::train(&examples, &opts, &mut |s| {
        bar.set_position(s.epoch as u64);
        bar.set_message(format!("held-out loss {:.4}", s.held_out_loss));
    })?;
    bar.finish_and_clear();

    let best = TrainedJudge::from_weights(&t.best, Provenance::default())?;
    let last = TrainedJudge::from_weights(&t.last, Provenance::default())?;
    let counts = |rows: &[usize]| {
        let mut c = [0usize; 3];
        for &r in rows {
            c[examples[r].class.index()] += 1;
        }
        c
    };
    let train_counts = counts(&t.train);
    let provenance = Provenance {
        format: kgscope::verify::trained::file::FORMAT,
        model_file: model.file_name().map_or_else(
            || model.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        model_sha256: sha,
        layer: LAYER.into(),
        dim: examples.first().map_or(0, |e| e.state.len()),
        evaluated: data.evaluated.clone(),
        runs: data.runs.clone(),
        labelled: class_counts(&data.items, None),
        from_hand_labels: class_counts(&data.items, Some(ClassFrom::HandLabel)),
        left_out: data.left_out,
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        seed: a.seed,
        held_out_share: a.held_out,
        kept_epoch: if a.last_epoch { a.epochs } else { t.best_epoch },
        early_stopped: !a.last_epoch,
        held_out_best: confusion(&best, &examples, &t.held_out)?,
        held_out_last: confusion(&last, &examples, &t.held_out)?,
        train_counts,
        held_out_polarity_baseline: polarity_baseline(&examples, &t.train, &t.held_out),
        created: kgscope::store::rundir::now(),
        kgscope_version: env!("CARGO_PKG_VERSION").into(),
    };
    let kept = if a.last_epoch { &t.last } else { &t.best };
    let judge = TrainedJudge::from_weights(kept, provenance)?;
    judge
        .save(&a.out)
        .with_context(|| format!("writing the judge to {}", a.out.display()))?;
    print_scores(&a, &judge.provenance, &t, examples.len())?;
    Ok(ExitCode::SUCCESS)
}

/// Statements per class; with `from`, only those whose class came from there.
fn class_counts(items: &[trained::Labelled], from: Option<ClassFrom>) -> [usize; 3] {
    let mut c = [0; 3];
    for l in items.iter().filter(|l| from.is_none_or(|f| l.from == f)) {
        c[l.class.index()] += 1;
    }
    c
}

/// The judge's held-out confusion matrix: rows the true class, columns the predicted one.
fn confusion(
    judge: &TrainedJudge,
    examples: &[Example],
    rows: &[usize],
) -> anyhow::Result<[[usize; 3]; 3]> {
    let states: Vec<&[f32]> = rows.iter().map(|&r| examples[r].state.as_slice()).collect();
    let positive: Vec<bool> = rows.iter().map(|&r| examples[r].positive).collect();
    let mut m = [[0; 3]; 3];
    for (p, &r) in judge.predict_many(&states, &positive)?.iter().zip(rows) {
        m[examples[r].class.index()][JudgeClass::argmax(p).index()] += 1;
    }
    Ok(m)
}

/// The index of the most common class; a tie goes to the earlier class.
fn commonest(counts: [usize; 3]) -> usize {
    (0..3)
        .max_by_key(|&i| (counts[i], std::cmp::Reverse(i)))
        .unwrap_or(0)
}

/// The majority baseline's matrix: every held-out statement put in the class most common in
/// the training part.
pub fn majority_matrix(train_counts: [usize; 3], held_out: &[[usize; 3]; 3]) -> [[usize; 3]; 3] {
    let majority = commonest(train_counts);
    let mut m = [[0; 3]; 3];
    for (truth, row) in held_out.iter().enumerate() {
        m[truth][majority] = row.iter().sum();
    }
    m
}

/// The baseline that knows the polarity: each held-out statement put in the class most common
/// among training statements of the same polarity.
fn polarity_baseline(examples: &[Example], train: &[usize], held_out: &[usize]) -> [[usize; 3]; 3] {
    let majority = |positive: bool| {
        let mut c = [0usize; 3];
        for &r in train.iter().filter(|&&r| examples[r].positive == positive) {
            c[examples[r].class.index()] += 1;
        }
        commonest(c)
    };
    let (yes, no) = (majority(true), majority(false));
    let mut m = [[0; 3]; 3];
    for &r in held_out {
        let said = if examples[r].positive { yes } else { no };
        m[examples[r].class.index()][said] += 1;
    }
    m
}

fn print_scores(a: &TrainArgs, p: &Provenance, t: &Trained, n: usize) -> anyhow::Result<()> {
    let baseline = majority_matrix(p.train_counts, &p.held_out_best);
    let rows = [
        (
            format!("early-stopped (epoch {})", t.best_epoch),
            &p.held_out_best,
        ),
        (format!("last epoch ({})", a.epochs), &p.held_out_last),
        ("majority baseline".to_string(), &baseline),
        (
            "majority by polarity".to_string(),
            &p.held_out_polarity_baseline,
        ),
    ];
    if a.json {
        let scored: Vec<_> = rows
            .iter()
            .map(|(name, m)| serde_json::json!({"judge": name, "matrix": m, "scores": Scores::of(m)}))
            .collect();
        let out = serde_json::json!({
            "judge": a.out,
            "provenance": p,
            "held_out": t.held_out.len(),
            "trained_on": t.train.len(),
            "history": t.history.iter().map(|s| serde_json::json!({
                "epoch": s.epoch, "train_loss": s.train_loss, "held_out_loss": s.held_out_loss
            })).collect::<Vec<_>>(),
            "scores": scored,
        });
        println!("{}", kgscope::sanitize::json_pretty(&out)?);
        return Ok(());
    }
    let [c, i, k] = p.labelled;
    let [hc, hi, hk] = p.from_hand_labels;
    println!(
        "{n} labelled statements from {} run(s) ({} correct, {} incorrect, {} idk; {} of them \
         set by hand labels: {hc}/{hi}/{hk}); {} left out",
        p.runs.len(),
        c,
        i,
        k,
        hc + hi + hk,
        p.left_out
    );
    println!(
        "hidden states: {} ({}), width {}",
        clean(&p.model_file),
        p.layer,
        p.dim
    );
    println!(
        "trained on {}, scored on the {} held out (seed {})\n",
        t.train.len(),
        t.held_out.len(),
        p.seed
    );
    println!(
        "{:<26} {:<10} {:>9} {:>7} {:>6} {:>8}",
        "", "class", "precision", "recall", "F1", "support"
    );
    let pct = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{:.3}", v));
    for (name, m) in &rows {
        let s = Scores::of(m);
        for (j, cs) in s.classes.iter().enumerate() {
            println!(
                "{:<26} {:<10} {:>9} {:>7} {:>6} {:>8}",
                if j == 0 { name.as_str() } else { "" },
                cs.class.name(),
                pct(cs.precision),
                pct(cs.recall),
                pct(cs.f1),
                cs.support
            );
        }
        println!(
            "{:<26} accuracy {}, macro F1 {}, weighted F1 {}",
            "",
            pct(s.accuracy),
            pct(s.macro_f1),
            pct(s.weighted_f1)
        );
    }
    println!(
        "\nwrote {} (the {} judge); apply it with `kgscope run --method statement --via-judge {} \
         --model {}`",
        a.out.display(),
        if p.early_stopped {
            "early-stopped"
        } else {
            "last-epoch"
        },
        a.out.display(),
        clean(&p.model_file)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polarity_baseline_takes_each_polarity_s_commonest_class() {
        let ex = |positive, class| Example {
            id: String::new(),
            state: vec![],
            positive,
            class,
        };
        use JudgeClass::*;
        let examples = vec![
            ex(true, Correct),
            ex(true, Correct),
            ex(false, Incorrect),
            ex(false, Idk),
            ex(false, Idk),
            // held out: a true statement the model got wrong, a negative it abstained on
            ex(true, Incorrect),
            ex(false, Idk),
        ];
        let m = polarity_baseline(&examples, &[0, 1, 2, 3, 4], &[5, 6]);
        assert_eq!(m, [[0, 0, 0], [1, 0, 0], [0, 0, 1]]);
    }

    #[test]
    fn the_majority_baseline_puts_everything_in_the_training_part_s_commonest_class() {
        let held = [[5, 1, 0], [2, 3, 1], [0, 0, 4]];
        let m = majority_matrix([10, 30, 5], &held);
        assert_eq!(m, [[0, 6, 0], [0, 6, 0], [0, 4, 0]]);
    }
}

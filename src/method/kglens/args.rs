//! `kgscope run --method kglens`'s options: iterations, batch, difficulty, the subgraph walk and
//! the convergence rule.

use super::plan::KglensConfig;
use super::questions::Difficulty;
use crate::questions::Task;
use clap::Args;

#[derive(Args, Clone, Default)]
pub struct KglensArgs {
    /// kglens: most iterations [default: 60, the paper's].
    #[arg(long, value_name = "N")]
    pub iterations: Option<u32>,
    /// kglens: edges asked per iteration, the top-n of one Beta draw per edge [default: 64,
    /// the paper's].
    #[arg(long, value_name = "N")]
    pub batch: Option<usize>,
    /// kglens: `easy` asks yes/no questions only; `hard` asks yes/no and Wh-questions 50/50
    /// (Wh only where the subject has fewer than 10 objects for the relation) [default: hard].
    #[arg(long, value_enum)]
    pub difficulty: Option<Difficulty>,
    /// kglens: random-walk steps forward and backward from each --entity; without --entity the
    /// whole KG is evaluated [default: 3].
    #[arg(long, value_name = "K")]
    pub walk_steps: Option<usize>,
    /// kglens: most facts a walk takes per step and direction [default: 100].
    #[arg(long, value_name = "N")]
    pub walk_width: Option<usize>,
    /// kglens: a relation never asked about (IRI, label or local name); repeatable [default:
    /// none excluded].
    #[arg(long = "exclude-relation", value_name = "R")]
    pub exclude_relations: Vec<String>,
    /// kglens: leave out entities that have no alias, as the paper does.
    #[arg(long)]
    pub require_aliases: bool,
    /// kglens: stop once the running win rate and zero-sense rate have each moved less than
    /// this over --converge-window iterations; 0 runs every iteration [default: 0.01].
    #[arg(long, value_name = "EPS")]
    pub converge_tolerance: Option<f64>,
    /// kglens: iterations the convergence rule looks back over (it applies from twice this
    /// many on) [default: 5].
    #[arg(long, value_name = "N")]
    pub converge_window: Option<u32>,
}

impl KglensArgs {
    /// Whether any KGLens option was given.
    fn given(&self) -> bool {
        self.iterations.is_some()
            || self.batch.is_some()
            || self.difficulty.is_some()
            || self.walk_steps.is_some()
            || self.walk_width.is_some()
            || !self.exclude_relations.is_empty()
            || self.require_aliases
            || self.converge_tolerance.is_some()
            || self.converge_window.is_some()
    }

    /// The run's KGLens settings for `task`; refuses KGLens options on another task.
    pub fn config(&self, task: Task) -> anyhow::Result<Option<KglensConfig>> {
        if !crate::method::of(task).takes_kglens_settings() {
            if self.given() {
                anyhow::bail!(
                    "--iterations, --batch, --difficulty, --walk-steps, --walk-width, \
                     --exclude-relation, --require-aliases and --converge-* are for \
                     --method kglens, not {}",
                    task.as_str()
                );
            }
            return Ok(None);
        }
        let d = KglensConfig::default();
        let cfg = KglensConfig {
            iterations: self.iterations.unwrap_or(d.iterations),
            batch: self.batch.unwrap_or(d.batch),
            difficulty: self.difficulty.unwrap_or(d.difficulty),
            walk_steps: self.walk_steps.unwrap_or(d.walk_steps),
            walk_width: self.walk_width.unwrap_or(d.walk_width),
            exclude_relations: self.exclude_relations.clone(),
            require_aliases: self.require_aliases,
            tolerance: self.converge_tolerance.unwrap_or(d.tolerance),
            window: self.converge_window.unwrap_or(d.window),
        };
        if cfg.iterations == 0 || cfg.batch == 0 {
            anyhow::bail!("--iterations and --batch must be at least 1");
        }
        if !(0.0..1.0).contains(&cfg.tolerance) {
            anyhow::bail!("--converge-tolerance is a change in a rate: from 0 (off) to below 1");
        }
        Ok(Some(cfg))
    }
}

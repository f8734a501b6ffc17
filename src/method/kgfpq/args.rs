//! KG-FPQ's options, shared by `kgscope questions` and `kgscope run`.

use super::edits::Edit;
use super::questions::FpqOptions;
use crate::questions::{FpqFormat, Task};
use clap::{Args, ValueEnum};

/// Which of KG-FPQ's two task formats to ask.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatChoice {
    Discriminative,
    Generative,
    Both,
}

#[derive(Args, Clone, Default)]
pub struct FpqArgs {
    /// kg-fpq: the edits that make false premises, comma-separated (NSC, NDC, NNSC, NNDC,
    /// NNSR, NNDR) [default: all six].
    #[arg(long, value_delimiter = ',', value_name = "EDITS", value_parser = parse_edit)]
    pub edits: Vec<Edit>,
    /// kg-fpq: `discriminative` (Yes/No questions), `generative` (Wh-questions on the false
    /// premise, judged) or `both` [default: both].
    #[arg(long, value_enum)]
    pub format: Option<FormatChoice>,
    /// kg-fpq: an entity within this many hops of the subject (either direction) is its
    /// neighbour [default: 5, the paper's].
    #[arg(long, value_name = "H")]
    pub max_hops: Option<u8>,
}

fn parse_edit(s: &str) -> Result<Edit, String> {
    Edit::parse(s)
        .ok_or_else(|| format!("unknown edit {s:?}: one of NSC, NDC, NNSC, NNDC, NNSR, NNDR"))
}

impl FpqArgs {
    fn given(&self) -> bool {
        !self.edits.is_empty() || self.format.is_some() || self.max_hops.is_some()
    }

    /// The edits and formats for `task`; refuses KG-FPQ options on another task.
    pub fn options(&self, task: Task) -> anyhow::Result<Option<FpqOptions>> {
        if !crate::method::of(task).takes_fpq_settings() {
            if self.given() {
                anyhow::bail!(
                    "--edits, --format and --max-hops are for --method kg-fpq, not {}",
                    task.as_str()
                );
            }
            return Ok(None);
        }
        let d = FpqOptions::default();
        let formats = match self.format.unwrap_or(FormatChoice::Both) {
            FormatChoice::Discriminative => vec![FpqFormat::Discriminative],
            FormatChoice::Generative => vec![FpqFormat::Generative],
            FormatChoice::Both => d.formats.clone(),
        };
        let mut edits = if self.edits.is_empty() {
            d.edits.clone()
        } else {
            self.edits.clone()
        };
        edits.sort();
        edits.dedup();
        let max_hops = self.max_hops.unwrap_or(d.max_hops);
        if max_hops == 0 {
            anyhow::bail!("--max-hops must be at least 1");
        }
        Ok(Some(FpqOptions {
            edits,
            formats,
            max_hops,
        }))
    }
}

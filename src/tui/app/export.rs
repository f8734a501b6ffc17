//! `X`: the open run's labels by this window's annotator, written as judge training data into
//! the run's directory, in the shape its method's judge learns from (GraphEval's for
//! statements, KG-FPQ's, KGHaluBench's fact judge; plain JSON Lines otherwise). The file is
//! made by the same code as `kgscope labels export`, from the labels and results on disk, and
//! written whole or not at all.

use super::*;
use crate::report::label_export::{self, LabelFormat};

/// What an export wrote: the file and its line count, or why nothing was written.
pub type Exported = Result<(std::path::PathBuf, usize, usize), String>;

/// Where an export of `annotator`'s labels in `format` goes in the run directory: one file
/// per shape and annotator, so annotators' exports never overwrite each other.
pub fn export_path(
    run: &std::path::Path,
    format: LabelFormat,
    annotator: &str,
) -> std::path::PathBuf {
    run.join(format!(
        "labels-{}-{}.jsonl",
        format.name(),
        super::figure::slug(annotator)
    ))
}

/// Reads the run's results and labels back and writes the export (see the module).
fn export(run: crate::store::RunDir, format: LabelFormat, annotator: String) -> Exported {
    let manifest: crate::run::Manifest = run.read_manifest().map_err(|e| e.to_string())?;
    let book = crate::store::labels::LabelBook::from_entries(
        run.read_labels().map_err(|e| e.to_string())?,
    );
    if !book.annotators().contains(&annotator) {
        return Err(format!(
            "{} has no labels in this run: nothing written",
            crate::sanitize::line(&annotator)
        ));
    }
    let mut records = Vec::new();
    run.for_each_result(|r| records.push(r))
        .map_err(|e| e.to_string())?;
    let made = label_export::examples(format, &manifest, &records, &book, Some(&annotator));
    if made.lines.is_empty() {
        return Err(format!(
            "{} label(s) by {} give no {} example (they blame the question or the KG, or name \
             no answer on record): nothing written",
            made.skipped + made.unknown,
            crate::sanitize::line(&annotator),
            format.name()
        ));
    }
    let bytes = label_export::to_jsonl(&made.lines).map_err(|e| e.to_string())?;
    let path = export_path(&run.path, format, &annotator);
    crate::store::write_atomically(&path, &bytes).map_err(|e| format!("{e:#}"))?;
    Ok((path, made.lines.len(), made.skipped))
}

fn said(r: Exported, format: LabelFormat) -> String {
    match r {
        Ok((path, n, skipped)) => {
            let mut s = format!(
                "labels exported: {n} {} line(s) to {}",
                format.name(),
                path.display()
            );
            if skipped > 0 {
                s.push_str(&format!(
                    " ({skipped} label(s) give no example in this shape)"
                ));
            }
            s
        }
        Err(e) => format!("no labels exported: {e}"),
    }
}

impl App {
    /// `X`: exports the open run's labels by this annotator, in the background (it reads the
    /// whole run back), and says where, how many lines, or why none.
    pub(super) fn export_labels(&mut self) {
        let Some(d) = &self.data else {
            self.status = "no labels exported: no run open (O opens one)".into();
            return;
        };
        let format = crate::method::of(d.manifest.config.task).label_format();
        let run = d.run.clone();
        let annotator = self.annotator.clone();
        self.status = format!("exporting {}'s labels…", crate::sanitize::line(&annotator));
        self.export_job
            .request(move || (format, export(run, format, annotator)));
    }

    /// Says how the export ended, once it has.
    pub(super) fn poll_export(&mut self) {
        if let Some((format, r)) = self.export_job.take() {
            self.status = said(r, format);
        }
    }

    /// Waits for the export (tests).
    pub fn wait_for_export(&mut self) {
        let r = self.export_job.wait(std::time::Duration::from_secs(60));
        if let Some((format, r)) = r {
            self.status = said(r, format);
        }
    }
}

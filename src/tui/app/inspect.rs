//! Inspect's keys: moving through the listed answers (the errors, unless the Errors list's
//! outcome filter shows correct answers too) and hand labelling.
//!
//! No labelling key is a navigation key anywhere (j k h l n p, arrows, digits): a key pressed
//! to move can never record a judgement. Each verdict or error-type key records one whole
//! judgement in the current annotator's name (the note written for it included, nothing
//! carried over from an earlier one) and moves on to the next error this annotator has not
//! labelled.

use super::*;

impl App {
    /// The inspected error's record, read back from results.jsonl.
    pub fn inspected(&self) -> Option<Arc<ResultRecord>> {
        self.data.as_ref()?.record(self.inspect.current?).ok()
    }

    /// The current annotator's label of the inspected error.
    pub fn inspected_label(&self) -> Option<&Label> {
        let r = self.inspected()?;
        self.data
            .as_ref()?
            .labels
            .get(&r.question.id, &self.annotator)
    }

    /// The other annotators' labels of the inspected error, by name.
    pub fn others_labels(&self) -> Vec<Label> {
        let (Some(r), Some(d)) = (self.inspected(), self.data.as_ref()) else {
            return vec![];
        };
        d.labels
            .of(&r.question.id)
            .filter(|l| l.annotator != self.annotator)
            .cloned()
            .collect()
    }

    /// The note written for the inspected error and not yet saved with a label.
    pub fn draft_note(&self) -> Option<&str> {
        match &self.inspect.draft {
            Some((row, text)) if Some(*row) == self.inspect.current => Some(text),
            _ => None,
        }
    }

    /// How many of the listed answers (before the label filter: the outcome filter's, in the
    /// chosen heatmap cell) the current annotator has labelled, of how many; what they are
    /// is [`App::listed_noun`].
    pub fn label_progress(&self) -> (usize, usize) {
        let Some(d) = &self.data else { return (0, 0) };
        let list = self.errors_unfiltered_by_label();
        let mine = d.labelled_rows(&self.annotator);
        (
            list.iter().filter(|i| mine.contains_key(i)).count(),
            list.len(),
        )
    }

    /// What the Errors list holds now, as a count names it: "errors", "correct answers".
    pub fn listed_noun(&self) -> &'static str {
        self.errors.kind.unwrap_or(KindFilter::AllErrors).noun()
    }

    /// The next error in list order, after the inspected one and wrapping round, that the
    /// current annotator has not labelled.
    fn next_unlabelled(&self) -> Option<usize> {
        let d = self.data.as_ref()?;
        let list = self.errors_unfiltered_by_label();
        let mine = d.labelled_rows(&self.annotator);
        let at = self
            .inspect
            .current
            .and_then(|c| list.iter().position(|&i| i == c))
            .map_or(0, |p| p + 1);
        list[at..]
            .iter()
            .chain(&list[..at])
            .copied()
            .find(|i| !mine.contains_key(i) && Some(*i) != self.inspect.current)
    }

    /// On opening a run: the first error this annotator has not labelled, so a sitting
    /// resumes where the last one stopped (the first error when all are labelled).
    pub(super) fn resume_labelling(&mut self) {
        let list = self.errors_unfiltered_by_label();
        let mine = self
            .data
            .as_ref()
            .map(|d| d.labelled_rows(&self.annotator))
            .unwrap_or_default();
        let first = list.iter().copied().find(|i| !mine.contains_key(i));
        self.inspect.current = first.or_else(|| list.first().copied());
        self.show(self.inspect.current);
    }

    /// Inspects error `row` (when there is one), keeping the Errors selection on it.
    pub(super) fn show(&mut self, row: Option<usize>) {
        let Some(row) = row else { return };
        if self.inspect.current != Some(row) {
            self.inspect.scroll = 0;
            self.inspect.facts_scroll = 0;
        }
        self.inspect.current = Some(row);
        if let Some(p) = self.error_indices().iter().position(|&i| i == row) {
            self.errors.selected = p;
        }
    }

    pub(super) fn move_inspect(&mut self, by: isize) {
        let list = self.error_indices();
        if list.is_empty() {
            self.status = format!("no {} to move through", self.listed_noun());
            return;
        }
        let pos = self
            .inspect
            .current
            .and_then(|c| list.iter().position(|&i| i == c));
        let next = match pos {
            Some(p) => step(p, by, list.len()),
            None => 0,
        };
        self.show(Some(list[next]));
    }

    pub(super) fn inspect_key(&mut self, k: KeyEvent) {
        if let Some(ta) = &mut self.inspect.note {
            // Alt-Enter is not Enter here: the editor takes it as a new line.
            match keymap::in_mode(Mode::Note, &k) {
                Some(Action::Dismiss) => {
                    self.inspect.note = None;
                    self.status = "note discarded".into();
                }
                Some(Action::Accept) => {
                    let note = ta.lines().join("\n");
                    self.inspect.note = None;
                    self.save_note(note);
                }
                _ => {
                    ta.input(k);
                }
            }
            return;
        }
        let Some(action) = keymap::bound(Scope::On(Screen::Inspect), k.code) else {
            return;
        };
        match action {
            Action::PageDown => self.inspect.scroll = self.inspect.scroll.saturating_add(5),
            Action::PageUp => self.inspect.scroll = self.inspect.scroll.saturating_sub(5),
            // The facts pane clamps the scroll to what it has when it draws.
            Action::ScrollFactsDown => {
                self.inspect.facts_scroll = self.inspect.facts_scroll.saturating_add(5)
            }
            Action::ScrollFactsUp => {
                self.inspect.facts_scroll = self.inspect.facts_scroll.saturating_sub(5)
            }
            Action::NextError => self.move_inspect(1),
            Action::PreviousError => self.move_inspect(-1),
            Action::NextUnlabelled => match self.next_unlabelled() {
                Some(row) => self.show(Some(row)),
                None => self.status = self.all_labelled(),
            },
            Action::TogglePrompt => self.inspect.show_prompt = !self.inspect.show_prompt,
            Action::Undo => self.undo(),
            Action::ClearLabels => self.clear(),
            Action::Note if self.inspected().is_some() => {
                let old = self
                    .draft_note()
                    .map(String::from)
                    .or_else(|| self.inspected_label().and_then(|l| l.note.clone()))
                    .unwrap_or_default();
                let mut ta = TextArea::new(old.lines().map(String::from).collect());
                ta.move_cursor(ratatui_textarea::CursorMove::End);
                self.inspect.note = Some(ta);
            }
            // A bad question asks why first (the cause picker records it).
            Action::Judge(LabelVerdict::BadQuestion) if self.inspected().is_some() => {
                self.ask_cause(LabelVerdict::BadQuestion)
            }
            Action::Judge(v) => self.judge(v, None, v.implied_cause()),
            // An error type says what kind of wrong: one key for both.
            Action::WrongAs(t) => self.judge(LabelVerdict::Wrong, Some(t), None),
            _ => {}
        }
    }

    fn all_labelled(&self) -> String {
        let (done, of) = self.label_progress();
        format!(
            "{done} of {of} {} labelled by {}: none left",
            self.listed_noun(),
            self.annotator
        )
    }

    /// Records a whole judgement of the inspected error (with the note written for it), then
    /// moves on to the next error this annotator has not labelled.
    pub(super) fn judge(
        &mut self,
        verdict: LabelVerdict,
        error_type: Option<ErrorType>,
        cause: Option<QuestionCause>,
    ) {
        let (Some(r), Some(row)) = (self.inspected(), self.inspect.current) else {
            self.status = "nothing to label: open an outcome from Errors first".into();
            return;
        };
        let note = self.draft_note().map(String::from);
        let qid = r.question.id.clone();
        if let Some(summary) = self.write_label(qid, Some(row), verdict, error_type, cause, note) {
            if self.draft_note().is_some() {
                self.inspect.draft = None;
            }
            let (done, of) = self.label_progress();
            match self.next_unlabelled() {
                Some(next) => {
                    self.show(Some(next));
                    self.status = format!(
                        "saved {summary} · {done} of {of} {} labelled",
                        self.listed_noun()
                    );
                }
                None => self.status = format!("saved {summary} · {}", self.all_labelled()),
            }
        }
    }

    /// Records one whole judgement of question `qid` in the current annotator's name (`row`:
    /// its error row, when it is an error of the run): what every labelling key does, on
    /// Inspect and on Judge. Returns the label as the status line names it, once saved.
    pub(super) fn write_label(
        &mut self,
        qid: String,
        row: Option<usize>,
        verdict: LabelVerdict,
        error_type: Option<ErrorType>,
        cause: Option<QuestionCause>,
        note: Option<String>,
    ) -> Option<String> {
        let label = Label {
            question_id: qid,
            label: verdict,
            error_type,
            note,
            cause,
            annotator: self.annotator.clone(),
            time: crate::store::rundir::now(),
        };
        let summary = label_summary(&label);
        self.append(row, label.into()).then_some(summary)
    }

    /// A note for the inspected error: added to this annotator's label of it, or, when they
    /// have none yet, kept to be saved with the label they give it.
    fn save_note(&mut self, note: String) {
        let Some(row) = self.inspect.current else {
            return;
        };
        let note = Some(note).filter(|n| !n.trim().is_empty());
        match self.inspected_label().cloned() {
            Some(mut label) => {
                label.note = note;
                label.time = crate::store::rundir::now();
                if self.append(Some(row), label.into()) {
                    self.status = "note saved with your label".into();
                }
            }
            None => {
                self.inspect.draft = note.map(|n| (row, n));
                self.status = "note kept: it is saved with the label you give this error".into();
            }
        }
    }

    /// Takes back the current annotator's latest label line, wherever it was, and shows
    /// that error with what it had before.
    fn undo(&mut self) {
        let Some(d) = &self.data else { return };
        let Some(qid) = d.labels.undo_target(&self.annotator).map(String::from) else {
            self.status = format!(
                "nothing to undo: no labels by {} in this run",
                self.annotator
            );
            return;
        };
        // A label of a question this run has no answer row for (a label file may name one) is
        // undone all the same, and Inspect stays where it is.
        let row = d.label_row(&qid);
        let entry = Retraction {
            question_id: qid.clone(),
            retract: Retract::Undo,
            annotator: self.annotator.clone(),
            time: crate::store::rundir::now(),
        };
        if self.append(row, entry.into()) {
            let Some(row) = row else {
                self.status = format!(
                    "undone: your latest label, of {} (no answer of this run)",
                    crate::sanitize::line(&qid)
                );
                return;
            };
            self.show(Some(row));
            self.status = match self.inspected_label() {
                Some(l) => format!("undone: back to {}", label_summary(l)),
                None => "undone: not labelled".into(),
            };
        }
    }

    /// Clears the current annotator's label of the inspected error (undo brings it back).
    fn clear(&mut self) {
        let (Some(r), Some(row)) = (self.inspected(), self.inspect.current) else {
            return;
        };
        if self.inspected_label().is_none() {
            self.status = format!(
                "nothing to clear: {} has not labelled this error",
                self.annotator
            );
            return;
        }
        let entry = Retraction {
            question_id: r.question.id.clone(),
            retract: Retract::Clear,
            annotator: self.annotator.clone(),
            time: crate::store::rundir::now(),
        };
        if self.append(Some(row), entry.into()) {
            self.status = "label cleared (u undoes)".into();
        }
    }

    /// Appends a label line about a question (error `row`, when it is one); says why not
    /// when it cannot.
    fn append(&mut self, row: Option<usize>, entry: LabelEntry) -> bool {
        let d = self.data.as_mut().expect("a record implies run data");
        match d.append_label(row, entry) {
            Ok(()) => true,
            Err(e) => {
                self.status = format!("could not save the label: {e}");
                false
            }
        }
    }
}

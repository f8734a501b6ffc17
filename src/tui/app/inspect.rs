//! Inspect's keys: moving through the errors and hand labelling.

use super::*;

impl App {
    /// The inspected error's record, read back from results.jsonl.
    pub fn inspected(&self) -> Option<Arc<ResultRecord>> {
        self.data.as_ref()?.record(self.inspect.current?).ok()
    }

    pub fn inspected_label(&self) -> Option<&Label> {
        let r = self.inspected()?;
        self.data.as_ref()?.labels.get(&r.question.id)
    }

    pub(super) fn move_inspect(&mut self, by: isize) {
        let list = self.error_indices();
        if list.is_empty() {
            self.status = "no errors to move through".into();
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
        self.inspect.current = Some(list[next]);
        self.inspect.scroll = 0;
        self.inspect.facts_scroll = 0;
        self.errors.selected = next;
    }

    pub(super) fn inspect_key(&mut self, k: KeyEvent) {
        if let Some(ta) = &mut self.inspect.note {
            match k.code {
                KeyCode::Esc => {
                    self.inspect.note = None;
                    self.status = "note discarded".into();
                }
                KeyCode::Enter if !k.modifiers.contains(KeyModifiers::ALT) => {
                    let note = ta.lines().join("\n");
                    self.inspect.note = None;
                    self.relabel(|l| l.note = Some(note.clone()).filter(|n| !n.trim().is_empty()));
                }
                _ => {
                    ta.input(k);
                }
            }
            return;
        }
        let verdict = |c| match c {
            'r' => Some(LabelVerdict::Right),
            'w' => Some(LabelVerdict::Wrong),
            'a' => Some(LabelVerdict::Abstained),
            'b' => Some(LabelVerdict::BadQuestion),
            'k' => Some(LabelVerdict::KgWrong),
            _ => None,
        };
        let error_type = |c| match c {
            'f' => Some(ErrorType::FactualError),
            'o' => Some(ErrorType::ObsoleteKnowledge),
            's' => Some(ErrorType::SelfContradiction),
            'i' => Some(ErrorType::InconsistentResponse),
            'x' => Some(ErrorType::Other),
            _ => None,
        };
        match k.code {
            KeyCode::PageDown => self.inspect.scroll = self.inspect.scroll.saturating_add(5),
            KeyCode::PageUp => self.inspect.scroll = self.inspect.scroll.saturating_sub(5),
            // The facts pane clamps the scroll to what it has when it draws.
            KeyCode::Char('J') => {
                self.inspect.facts_scroll = self.inspect.facts_scroll.saturating_add(5)
            }
            KeyCode::Char('K') => {
                self.inspect.facts_scroll = self.inspect.facts_scroll.saturating_sub(5)
            }
            KeyCode::Char('n') | KeyCode::Down => self.move_inspect(1),
            KeyCode::Char('p') | KeyCode::Up => self.move_inspect(-1),
            KeyCode::Char('e') if self.inspected().is_some() => {
                let old = self
                    .inspected_label()
                    .and_then(|l| l.note.clone())
                    .unwrap_or_default();
                let mut ta = TextArea::new(old.lines().map(String::from).collect());
                ta.move_cursor(ratatui_textarea::CursorMove::End);
                self.inspect.note = Some(ta);
            }
            KeyCode::Char(c) => {
                if let Some(v) = verdict(c) {
                    self.relabel(|l| l.label = v);
                } else if let Some(t) = error_type(c) {
                    self.relabel(|l| l.error_type = Some(t));
                }
            }
            _ => {}
        }
    }

    /// Appends the inspected record's label, changed by `change`, to labels.jsonl. A record
    /// never labelled starts from the verdict "wrong", since labelling mostly happens on errors.
    pub(super) fn relabel(&mut self, change: impl FnOnce(&mut Label)) {
        let Some(r) = self.inspected() else {
            self.status = "nothing to label: open an outcome from Errors first".into();
            return;
        };
        let qid = r.question.id.clone();
        let mut label = self.inspected_label().cloned().unwrap_or(Label {
            question_id: qid.clone(),
            label: LabelVerdict::Wrong,
            error_type: None,
            note: None,
            annotator: String::new(),
            time: String::new(),
        });
        change(&mut label);
        label.annotator = labels::annotator();
        label.time = crate::store::rundir::now();
        let d = self.data.as_mut().expect("a record implies run data");
        match d.run.append_label(&label) {
            Ok(()) => {
                self.status = format!(
                    "saved label {} to {}",
                    label_summary(&label),
                    d.run.labels_path().display()
                );
                d.labels.insert(qid, label);
            }
            Err(e) => self.status = format!("could not save the label: {e}"),
        }
    }
}

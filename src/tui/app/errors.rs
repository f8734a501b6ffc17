//! The Errors list: which outcomes, in which order, and its keys.

use super::*;

/// Errors read back on each side of the selection before a frame: more than a screen's rows.
const VIEW_ROWS: usize = 100;

/// The Errors list's filter on the current annotator's labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelFilter {
    Labelled,
    Unlabelled,
    Is(LabelVerdict),
}

impl LabelFilter {
    /// The next filter `l` gives; after the last verdict, no filter.
    pub fn next(f: Option<LabelFilter>) -> Option<LabelFilter> {
        let verdicts = LabelVerdict::ALL;
        match f {
            None => Some(LabelFilter::Labelled),
            Some(LabelFilter::Labelled) => Some(LabelFilter::Unlabelled),
            Some(LabelFilter::Unlabelled) => Some(LabelFilter::Is(verdicts[0])),
            Some(LabelFilter::Is(v)) => {
                let at = verdicts.iter().position(|x| *x == v).unwrap_or(0);
                verdicts.get(at + 1).map(|v| LabelFilter::Is(*v))
            }
        }
    }

    pub fn keeps(self, mine: Option<LabelVerdict>) -> bool {
        match self {
            LabelFilter::Labelled => mine.is_some(),
            LabelFilter::Unlabelled => mine.is_none(),
            LabelFilter::Is(v) => mine == Some(v),
        }
    }

    /// "labelled by ann", "labelled KG wrong by ann".
    pub fn describe(self, annotator: &str) -> String {
        match self {
            LabelFilter::Labelled => format!("labelled by {annotator}"),
            LabelFilter::Unlabelled => format!("not labelled by {annotator}"),
            LabelFilter::Is(v) => format!("labelled {} by {annotator}", v.name()),
        }
    }
}

/// What the Errors list depends on: the run and how far it got, its labels, the filters and
/// the sort.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorsKey {
    run: Option<(String, usize, u64)>,
    cell: Option<Cell>,
    kind: Option<KindFilter>,
    sort: SortBy,
    label: Option<LabelFilter>,
}

impl App {
    /// Indices of the errors the Errors list shows, in its order. Filtered and sorted once
    /// per change (new answers, a label, another filter or sort), not once per frame: a run
    /// has tens of thousands of errors and every frame draws the list.
    /// Reads back, before a frame is drawn, the records it may show: the errors around the
    /// selection (more than any screen has rows) and the inspected one. Drawing reads no file.
    pub fn prepare_view(&self) {
        let Some(d) = &self.data else {
            return;
        };
        if self.screen == Screen::Judge {
            self.prepare_judge();
        }
        let list = self.error_indices();
        let sel = self.errors.selected.min(list.len());
        let window = &list[sel.saturating_sub(VIEW_ROWS)..(sel + VIEW_ROWS).min(list.len())];
        d.prepare(window.iter().copied().chain(self.inspect.current));
    }

    /// What the Errors list depends on now, with `label` as its label filter.
    fn list_key(&self, label: Option<LabelFilter>) -> ErrorsKey {
        ErrorsKey {
            run: self
                .data
                .as_ref()
                .map(|d| (d.run.id.clone(), d.rows.len(), d.labels_seen)),
            cell: self.errors.cell.clone(),
            kind: self.errors.kind,
            sort: self.errors.sort,
            label,
        }
    }

    pub fn error_indices(&self) -> Arc<Vec<usize>> {
        let key = self.list_key(self.errors.label);
        if let Some((k, list)) = &*self.errors_memo.borrow() {
            if *k == key {
                return list.clone();
            }
        }
        let unfiltered = self.errors_unfiltered_by_label();
        let list = match (self.errors.label, &self.data) {
            (Some(f), Some(d)) => {
                let mine = d.labelled_rows(&self.annotator);
                let mut out = unfiltered.to_vec();
                out.retain(|i| f.keeps(mine.get(i).copied()));
                Arc::new(out)
            }
            _ => unfiltered,
        };
        *self.errors_memo.borrow_mut() = Some((key, list.clone()));
        list
    }

    /// The Errors list before its label filter: what labelling progress counts (the answers
    /// of the outcome filter, in the heatmap cell when one is chosen), and where labelling
    /// looks for the next answer to label. Memoised like [`App::error_indices`]:
    /// Inspect counts its progress on every frame, and with "all answers" listed this filters
    /// and sorts every answer of the run.
    pub fn errors_unfiltered_by_label(&self) -> Arc<Vec<usize>> {
        let key = self.list_key(None);
        if let Some((k, list)) = &*self.unfiltered_memo.borrow() {
            if *k == key {
                return list.clone();
            }
        }
        let list = Arc::new(self.list_unfiltered_by_label());
        *self.unfiltered_memo.borrow_mut() = Some((key, list.clone()));
        list
    }

    fn list_unfiltered_by_label(&self) -> Vec<usize> {
        let Some(d) = &self.data else { return vec![] };
        let kind = self.errors.kind.unwrap_or(KindFilter::AllErrors);
        let mut out: Vec<usize> = d
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| kind.keeps(r.outcome))
            .filter(|(_, r)| self.errors.cell.as_ref().is_none_or(|c| d.in_cell(r, c)))
            .map(|(i, _)| i)
            .collect();
        let rank = |o: OutcomeKind| o as u8;
        match self.errors.sort {
            SortBy::Run => {}
            // Stable sorts: run order within a relation or an outcome.
            SortBy::Relation => {
                out.sort_by(|&a, &b| d.relation(&d.rows[a]).cmp(d.relation(&d.rows[b])))
            }
            SortBy::Outcome => out.sort_by_key(|&i| rank(d.rows[i].outcome)),
        }
        out
    }

    pub(super) fn errors_key(&mut self, k: KeyEvent) {
        let Some(action) = keymap::bound(Scope::On(Screen::Errors), k.code) else {
            return;
        };
        let list = self.error_indices();
        match action {
            Action::Down => self.errors.selected = step(self.errors.selected, 1, list.len()),
            Action::Up => self.errors.selected = step(self.errors.selected, -1, list.len()),
            Action::PageDown => self.errors.selected = step(self.errors.selected, 10, list.len()),
            Action::PageUp => self.errors.selected = step(self.errors.selected, -10, list.len()),
            Action::FilterOutcome => {
                self.errors.kind = Some(self.errors.kind.unwrap_or(KindFilter::AllErrors).next());
                self.errors.selected = 0;
                let (done, of) = self.label_progress();
                self.status = format!(
                    "{of} {} listed · {done} labelled by {}",
                    self.listed_noun(),
                    crate::sanitize::line(&self.annotator)
                );
            }
            Action::NextSort => {
                self.errors.sort = self.errors.sort.next();
                self.errors.selected = 0;
            }
            Action::FilterLabels => {
                self.errors.label = LabelFilter::next(self.errors.label);
                self.errors.selected = 0;
            }
            Action::ClearFilters => {
                self.errors.cell = None;
                self.errors.kind = None;
                self.errors.label = None;
                self.errors.selected = 0;
                // The status line said which cell the list was filtered by: no longer true.
                self.status = "filters cleared: every error (o: correct answers too)".into();
            }
            Action::Open => {
                if let Some(&i) = list.get(self.errors.selected) {
                    self.inspect.current = Some(i);
                    self.inspect.scroll = 0;
                    self.inspect.facts_scroll = 0;
                    self.screen = Screen::Inspect;
                }
            }
            _ => {}
        }
    }
}

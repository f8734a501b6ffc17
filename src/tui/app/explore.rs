//! Explore's keys: the search field, the selection, the new-run dialog.

use super::*;
use crate::tui::request::MAX_LIMIT;

/// Entities a search of the whole KG brings into the sample at most.
const KG_SEARCH_LIMIT: usize = 20;

/// What a search of the whole KG found: the sample grown by it.
pub struct Found {
    pub draw: crate::kg::bounded::Draw,
    pub index: KgIndex,
    /// Entities found that the sample had not been drawn around yet.
    pub new: usize,
}

/// Looks `query` up in the KG `spec` ([`crate::kg::search`]) and draws the sample again with
/// what it finds, each with its facts and what points at them (one hop, both ways, as the
/// entity card shows them). Every query already asked is answered by the endpoint's cache.
fn find(
    spec: &str,
    mut draw: crate::kg::bounded::Draw,
    query: &str,
) -> anyhow::Result<Option<Found>> {
    let kg = crate::kg::open(spec)?;
    let iris = crate::kg::search::search(kg.as_ref(), query, KG_SEARCH_LIMIT)?;
    let fresh: Vec<String> = iris
        .into_iter()
        .filter(|i| !draw.around.contains(i))
        .collect();
    if fresh.is_empty() {
        return Ok(None);
    }
    let new = fresh.len();
    draw.around.extend(fresh);
    draw.hops = draw.hops.max(1);
    if draw.width == 0 {
        draw.width = crate::kg::bounded::HOP_WIDTH;
    }
    let index = crate::kg::bounded::build(kg.as_ref(), &draw, &|_| {})?;
    Ok(Some(Found { draw, index, new }))
}

/// Lines `J` and `K` scroll the edge list by. The app does not know the pane's height (only
/// drawing does), so this is a fixed step, small enough to keep context on a short terminal.
const EDGE_SCROLL_STEP: usize = 10;

impl App {
    /// Searches the entries for the query: at once for a small KG or an empty query, else in
    /// the background ([`App::poll_search`] takes the newest result as a frame begins).
    pub(super) fn refresh_matches(&mut self) {
        let query = self.explore.query.clone();
        if self.entries.len() < self.search_inline_below || query.trim().is_empty() {
            let hits = kgview::search(&self.entries, &query, &mut self.matcher);
            // Whatever a background search still computes is for an older query.
            self.search = Default::default();
            self.show_matches(hits);
            return;
        }
        let entries = self.entries.clone();
        self.search
            .request(move || kgview::search(&entries, &query, &mut kgview::new_matcher()));
    }

    fn show_matches(&mut self, hits: kgview::Hits) {
        self.explore.matches = hits.entries;
        self.explore.via = hits.via;
        self.explore.selected = 0;
        self.explore.scroll = 0;
    }

    /// Shows the newest background search's matches once they have arrived.
    pub fn poll_search(&mut self) {
        if let Some(hits) = self.search.take() {
            self.show_matches(hits);
        }
    }

    /// Whether a background search for the query as typed is still running.
    pub fn searching(&self) -> bool {
        self.search.pending()
    }

    /// Waits for the background search (for tests and the demo, which act on its result).
    pub fn wait_for_search(&mut self) {
        if let Some(hits) = self.search.wait(std::time::Duration::from_secs(60)) {
            self.show_matches(hits);
        }
    }

    /// On a sample of the KG, looks the query up in the whole KG in the background ([`find`])
    /// and draws what it finds into the sample; on a KG indexed whole there is nothing more to
    /// find.
    fn search_kg(&mut self) {
        let (Some(draw), query) = (self.draw.clone(), self.explore.query.trim().to_string()) else {
            return;
        };
        if query.is_empty() {
            return;
        }
        self.status = format!(
            "searching the whole KG for '{}'…",
            crate::sanitize::line(&query)
        );
        let spec = self.kg_name.clone();
        self.kg_search
            .request(move || find(&spec, draw, &query).map_err(|e| format!("{e:#}")));
    }

    /// Takes the whole-KG search's result once it has arrived: the sample grown by what it
    /// found, marks kept on the same entities.
    pub fn poll_kg_search(&mut self) {
        match self.kg_search.take() {
            Some(Ok(found)) => self.take_found(found),
            Some(Err(e)) => self.status = format!("the KG search failed: {e}"),
            None => {}
        }
    }

    /// Waits for the whole-KG search (for tests).
    pub fn wait_for_kg_search(&mut self) {
        match self.kg_search.wait(std::time::Duration::from_secs(120)) {
            Some(Ok(found)) => self.take_found(found),
            Some(Err(e)) => self.status = format!("the KG search failed: {e}"),
            None => {}
        }
    }

    fn take_found(&mut self, found: Option<Found>) {
        let query = crate::sanitize::line(&self.explore.query);
        let Some(Found { draw, index, new }) = found else {
            self.status = format!("nothing more in the KG is named '{query}'");
            return;
        };
        // Entries are numbered anew: marks follow their terms.
        let marked: Vec<(EntryKind, crate::kg::Term)> = match self.index.as_deref() {
            Some(old) => self
                .explore
                .marked
                .iter()
                .filter_map(|&i| self.entries.get(i))
                .map(|e| (e.kind, old.term(e.id).clone()))
                .collect(),
            None => vec![],
        };
        let entries = kgview::entries(&index);
        self.explore.marked = marked
            .iter()
            .filter_map(|(kind, term)| {
                let id = index.id(term)?;
                entries.iter().position(|e| e.kind == *kind && e.id == id)
            })
            .collect();
        self.draw = Some(draw);
        self.index = Some(Arc::new(index));
        self.entries = Arc::new(entries);
        self.refresh_matches();
        self.status = format!(
            "{new} entities named '{query}' found in the KG, drawn into the sample with their neighbours"
        );
    }

    /// Selects match `i`; a new selection shows its edge list from the top.
    pub(super) fn select_explore(&mut self, i: usize) {
        self.explore.touched = true;
        if i != self.explore.selected {
            self.explore.selected = i;
            self.explore.scroll = 0;
        }
    }

    /// Scrolls the selected entity's edge list, keeping at least its last line in view.
    fn scroll_edges(&mut self, by: isize) {
        let rows = self.selected_card().map_or(0, |c| c.row_count());
        self.explore.scroll = step(self.explore.scroll, by, rows);
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.explore
            .matches
            .get(self.explore.selected)
            .and_then(|&i| self.entries.get(i))
    }

    /// The selected entity's card (a relation has none).
    pub fn selected_card(&self) -> Option<Card<'_>> {
        let e = self.selected_entry()?;
        let index = self.index.as_deref()?;
        (e.kind == EntryKind::Entity).then(|| kgview::card(index, e.id, self.explore.hops))
    }

    /// What a run from Explore covers: the marked entries, or else the selection.
    pub fn run_targets(&self) -> Vec<&Entry> {
        if self.explore.marked.is_empty() {
            self.selected_entry().into_iter().collect()
        } else {
            self.explore
                .marked
                .iter()
                .filter_map(|&i| self.entries.get(i))
                .collect()
        }
    }

    /// Marked relations and entities combine as the question generator's filters do: facts of
    /// any marked relation, around any marked entity.
    pub(super) fn run_request(&self, d: &RunDialog) -> Option<RunRequest> {
        let index = self.index.as_deref()?;
        let (mut relations, mut entities) = (vec![], vec![]);
        for e in self.run_targets() {
            let iri = crate::kg::term_str(index.term(e.id)).to_string();
            match e.kind {
                EntryKind::Relation => relations.push(iri),
                EntryKind::Entity => entities.push(iri),
            }
        }
        if relations.is_empty() && entities.is_empty() {
            return None;
        }
        let method = crate::method::of(d.task);
        let choices = self.helper_choices();
        let chosen = |i: usize, used: bool| choices.get(i).cloned().flatten().filter(|_| used);
        Some(RunRequest {
            relations,
            entities,
            task: d.task,
            context: d.context.filter(|_| method.takes_context()),
            limit: d.limit,
            judge: chosen(d.judge, method.has_open_answers()),
            writer: chosen(d.writer, method.takes_fpq_settings()),
        })
    }

    /// What the run dialog offers as judge and as question writer, in the order `j` and `w`
    /// go through them: none, the run's own model, then the models given to `kgscope tui
    /// --judge` and `--writer`, each once.
    pub fn helper_choices(&self) -> Vec<Option<crate::run::ModelSpec>> {
        let mut out = vec![None];
        let offered = [&self.model, &self.judge_given, &self.writer_given];
        for m in offered.into_iter().flatten() {
            if !out.iter().any(|o| o.as_ref() == Some(m)) {
                out.push(Some(m.clone()));
            }
        }
        out
    }

    /// Where a model stands in [`App::helper_choices`]: the dialog proposes the model given to
    /// `--judge` (`--writer`) when there is one, else none.
    fn helper_index(&self, given: Option<&crate::run::ModelSpec>) -> usize {
        let choices = self.helper_choices();
        given
            .and_then(|g| choices.iter().position(|c| c.as_ref() == Some(g)))
            .unwrap_or(0)
    }

    /// The dialog's judge or writer choice `i`, as the dialog names it: which model, and
    /// where it comes from.
    pub fn helper_name(&self, i: usize) -> String {
        let Some(Some(m)) = self.helper_choices().get(i).cloned() else {
            return "none".into();
        };
        let mut from = vec![];
        if self.model.as_ref() == Some(&m) {
            from.push("the run's model");
        }
        if self.judge_given.as_ref() == Some(&m) {
            from.push("--judge");
        }
        if self.writer_given.as_ref() == Some(&m) {
            from.push("--writer");
        }
        format!(
            "{} ({})",
            crate::sanitize::line(&m.describe()),
            from.join(", ")
        )
    }

    /// Keeps what the dialog was set to, for the next dialog and the next session (the
    /// state file). The demo's own choices are not the user's: it keeps nothing.
    fn remember_dialog(&mut self, d: &RunDialog) {
        if self.demo.is_some() || d.limit == 0 {
            return;
        }
        let choice = super::super::state::DialogChoice {
            task: d.task,
            limit: d.limit,
            context: d.context,
        };
        if self.explore.last == Some(choice) {
            return;
        }
        self.explore.last = Some(choice);
        if let Some(path) = &self.state_path {
            let mut state = super::super::state::load(path);
            state.dialog = Some(choice);
            if let Err(e) = super::super::state::save(path, &state) {
                tracing::warn!("{e}");
                self.status = e;
            }
        }
    }

    /// Reads what the TUI remembers from the state file at `path` (a broken one is ignored
    /// with a log line), and keeps the dialog's choices there from now on.
    pub fn load_state(&mut self, path: std::path::PathBuf) {
        self.explore.last = super::super::state::load(&path).dialog;
        self.state_path = Some(path);
    }

    /// How many of the scope's facts make questions, counted once when the dialog opens (a
    /// relation of a large KG is too many facts to count each frame).
    fn facts_preview(&self, d: &RunDialog) -> Result<FactsPreview, String> {
        let index = self.index.as_deref().ok_or("no KG loaded")?;
        let req = self.run_request(d).ok_or("nothing marked")?;
        let opts = crate::questions::GenerateOptions {
            relations: req.relations,
            entities: req.entities,
            ..Default::default()
        };
        let s = crate::questions::select_facts(index, &opts).map_err(|e| e.to_string())?;
        Ok(FactsPreview {
            matching: s.matching,
            askable: s.facts.len(),
            skipped: s.skipped,
        })
    }

    /// What a run from the dialog would be, as `kgscope run` would make it: the dialog shows
    /// its model, negatives, seed and repeats.
    pub fn dialog_config(&self) -> Option<crate::run::RunConfig> {
        self.config_of(self.explore.dialog.as_ref()?, self.model.clone()?)
    }

    fn config_of(
        &self,
        d: &RunDialog,
        model: crate::run::ModelSpec,
    ) -> Option<crate::run::RunConfig> {
        let req = self.run_request(d)?;
        let base = super::super::request::RunBase {
            kg: self.kg_name.clone(),
            kg_sample: self.kg_sample,
            model,
            runs_dir: std::path::PathBuf::new(),
        };
        Some(super::super::request::config_for(&base, &req))
    }

    /// Counts again what the open dialog's run would ask when its method, limit or context
    /// changed since the last count.
    fn refresh_makes(&mut self) {
        let Some(mut d) = self.explore.dialog.take() else {
            return;
        };
        let key = (d.task, d.limit, d.context);
        if d.makes.as_ref().map(|m| m.0) != Some(key) {
            d.makes = Some((key, self.makes_preview(&d)));
        }
        self.explore.dialog = Some(d);
    }

    /// What the run would ask: the run's own generation over the loaded KG, its limit counted
    /// up to [`super::MAKES_COUNTED_UP_TO`].
    fn makes_preview(&self, d: &RunDialog) -> Result<crate::run::session::Makes, String> {
        let index = self.index.as_deref().ok_or("no KG loaded")?;
        // Questions are made without the model: any stands in when none is configured.
        let model = self.model.clone().unwrap_or(crate::run::ModelSpec::Llama {
            path: std::path::PathBuf::new(),
        });
        let mut cfg = self.config_of(d, model).ok_or("nothing marked")?;
        cfg.limit = cfg.limit.min(super::MAKES_COUNTED_UP_TO);
        crate::run::session::what_it_makes(&cfg, index)
    }

    fn toggle_mark(&mut self) {
        let Some(&i) = self.explore.matches.get(self.explore.selected) else {
            return;
        };
        match self.explore.marked.iter().position(|&m| m == i) {
            Some(p) => {
                self.explore.marked.remove(p);
            }
            None => self.explore.marked.push(i),
        }
    }

    pub(super) fn explore_key(&mut self, k: KeyEvent) {
        self.explore.touched = true;
        if let Some(d) = &mut self.explore.dialog {
            match keymap::in_mode(Mode::RunDialog, &k) {
                // Every method in the registry's order; T goes back.
                Some(a @ (Action::NextTask | Action::PreviousTask)) => {
                    let all = Task::ALL;
                    let i = all.iter().position(|t| *t == d.task).unwrap_or(0);
                    let step = if a == Action::NextTask {
                        1
                    } else {
                        all.len() - 1
                    };
                    d.task = all[(i + step) % all.len()];
                }
                Some(Action::NextContext) if crate::method::of(d.task).takes_context() => {
                    use crate::questions::ContextKind;
                    let all = ContextKind::ALL;
                    d.context = match d.context {
                        None => Some(all[0]),
                        Some(k) => all
                            .iter()
                            .position(|x| *x == k)
                            .and_then(|i| all.get(i + 1).copied()),
                    };
                }
                Some(a @ (Action::NextJudge | Action::NextWriter)) => {
                    let method = crate::method::of(d.task);
                    let (used, role) = if a == Action::NextJudge {
                        (
                            method.has_open_answers(),
                            "a judge reads open answers (saq, kglens, kg-fpq, kghalubench)",
                        )
                    } else {
                        (
                            method.takes_fpq_settings(),
                            "a question writer rewords kg-fpq's generative questions",
                        )
                    };
                    let n = self.helper_choices().len();
                    let Some(d) = self.explore.dialog.as_mut() else {
                        return;
                    };
                    if !used {
                        self.status = format!("{} takes none: {role}", d.task.as_str());
                    } else if a == Action::NextJudge {
                        d.judge = (d.judge + 1) % n;
                    } else {
                        d.writer = (d.writer + 1) % n;
                    }
                }
                Some(Action::LimitUp) => d.limit = (d.limit + 10).min(MAX_LIMIT),
                Some(Action::LimitDown) => d.limit = d.limit.saturating_sub(10).max(10),
                Some(Action::Digit(digit)) => {
                    let digit = digit as usize;
                    let typed = if d.typed { d.limit * 10 + digit } else { digit };
                    if typed <= MAX_LIMIT {
                        d.limit = typed;
                    }
                    d.typed = true;
                }
                Some(Action::DeleteBack) => {
                    d.limit /= 10;
                    d.typed = true;
                }
                // The run would refuse: the dialog says so now, with the method that works.
                Some(Action::Accept) if matches!(d.makes, Some((_, Err(_)))) => {
                    if let Some((_, Err(e))) = &d.makes {
                        self.status = crate::sanitize::line(e);
                    }
                }
                Some(Action::Accept) if d.limit == 0 => {
                    self.status = "the limit must be at least 1: type a number".into();
                }
                Some(Action::Accept) => {
                    let d = self.explore.dialog.take().expect("dialog is open");
                    // What the dialog said ("statement takes none: …") ends with it.
                    self.status.clear();
                    self.remember_dialog(&d);
                    if let Some(req) = self.run_request(&d) {
                        self.commands.push(Command::StartRun(req));
                        self.live = Live {
                            active: true,
                            status: "preparing the run".into(),
                            ..Live::default()
                        };
                        self.screen = Screen::Live;
                    }
                }
                Some(Action::Dismiss) => {
                    self.status.clear();
                    if let Some(d) = self.explore.dialog.take() {
                        self.remember_dialog(&d);
                    }
                }
                _ => {}
            }
            self.refresh_makes();
            return;
        }
        if self.explore.searching {
            match keymap::in_mode(Mode::Search, &k) {
                // Readline's kill-line: a new search without erasing the old one key by key.
                Some(Action::ClearSearch) => {
                    self.explore.query.clear();
                    self.refresh_matches();
                }
                Some(Action::DeleteBack) => {
                    self.explore.query.pop();
                    self.refresh_matches();
                }
                Some(Action::EndSearch) => self.explore.searching = false,
                Some(Action::SearchKg) => {
                    self.explore.searching = false;
                    self.search_kg();
                }
                Some(Action::Down) => self.move_explore(1),
                Some(Action::Up) => self.move_explore(-1),
                // Any other character is text.
                _ => {
                    if let KeyCode::Char(c) = k.code {
                        if !k
                            .modifiers
                            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                        {
                            self.explore.query.push(c);
                            self.refresh_matches();
                        }
                    }
                }
            }
            return;
        }
        let Some(action) = keymap::bound(Scope::On(Screen::Explore), k.code) else {
            return;
        };
        match action {
            Action::Search => self.explore.searching = true,
            Action::Hops => {
                self.explore.hops = if self.explore.hops == 2 { 1 } else { 2 };
                self.explore.scroll = 0;
            }
            Action::ScrollFactsDown => self.scroll_edges(EDGE_SCROLL_STEP as isize),
            Action::ScrollFactsUp => self.scroll_edges(-(EDGE_SCROLL_STEP as isize)),
            Action::Down => self.move_explore(1),
            Action::Up => self.move_explore(-1),
            Action::PageDown => self.move_explore(10),
            Action::PageUp => self.move_explore(-10),
            Action::Mark => self.toggle_mark(),
            Action::UnmarkAll => self.explore.marked.clear(),
            Action::Run => {
                if !self.can_run {
                    self.status = "no model configured: start kgscope with --model to run".into();
                } else if self.live.active && self.live.finished.is_none() {
                    self.status = "a run is already going (Live: c cancels it)".into();
                } else if !self.run_targets().is_empty() {
                    // The demo shows the defaults; a user gets what they chose last.
                    let last = self.explore.last.filter(|_| self.demo.is_none());
                    let mut dialog = RunDialog {
                        task: last.map_or(RunDialog::default_task(), |l| l.task),
                        context: last.and_then(|l| l.context),
                        limit: last.map_or(20, |l| l.limit),
                        judge: self.helper_index(self.judge_given.as_ref()),
                        writer: self.helper_index(self.writer_given.as_ref()),
                        typed: false,
                        facts: Err(String::new()),
                        makes: None,
                    };
                    dialog.facts = self.facts_preview(&dialog);
                    self.explore.dialog = Some(dialog);
                    self.refresh_makes();
                }
            }
            _ => {}
        }
    }

    pub(super) fn move_explore(&mut self, by: isize) {
        let n = self.explore.matches.len();
        self.select_explore(step(self.explore.selected, by, n));
    }
}

//! The cause picker: a "bad question" label asks why the question is bad before it is
//! recorded, with the reviewed set's cause codes, so a team's labels grow that set
//! (`labels export --reviewed`). One key per cause; Esc records nothing.

use super::*;

/// A label waiting for its cause: the verdict, and the screen whose selection it labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CauseAsk {
    pub verdict: LabelVerdict,
    pub from: Screen,
}

/// The key that picks `QuestionCause::ALL[i]`: its place in the rubric's order, from 1.
pub fn key_of(i: usize) -> char {
    char::from_digit(i as u32 + 1, 10).expect("fewer than ten causes")
}

/// The cause a key picks, if any.
fn picked(code: KeyCode) -> Option<QuestionCause> {
    let KeyCode::Char(c) = code else { return None };
    QuestionCause::ALL
        .iter()
        .enumerate()
        .find(|(i, _)| key_of(*i) == c)
        .map(|(_, c)| *c)
}

impl App {
    /// Opens the picker for a label of the current screen's selection.
    pub(super) fn ask_cause(&mut self, verdict: LabelVerdict) {
        self.inspect.asking_cause = Some(CauseAsk {
            verdict,
            from: self.screen,
        });
        self.status = format!(
            "{}: why? a digit picks the cause, Esc labels nothing",
            verdict.name()
        );
    }

    pub(super) fn cause_key(&mut self, k: KeyEvent) {
        let Some(ask) = self.inspect.asking_cause else {
            return;
        };
        if k.code == KeyCode::Esc {
            self.inspect.asking_cause = None;
            self.status = "not labelled: no cause chosen".into();
            return;
        }
        // Any other key leaves the picker open: a stray key must not drop the label silently.
        let Some(cause) = picked(k.code) else { return };
        self.inspect.asking_cause = None;
        match ask.from {
            Screen::Judge => self.label_queued(ask.verdict, None, Some(cause)),
            _ => self.judge(ask.verdict, None, Some(cause)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cause_has_its_own_digit() {
        for (i, c) in QuestionCause::ALL.iter().enumerate() {
            assert_eq!(picked(KeyCode::Char(key_of(i))), Some(*c));
        }
        assert_eq!(picked(KeyCode::Char('0')), None);
        assert_eq!(picked(KeyCode::Char('8')), None);
        assert_eq!(picked(KeyCode::Esc), None);
    }
}

//! Reading a verdict out of a response, for GraphEval statements and KGLens yes/no questions.
//!
//! Both parsers share the same steps:
//! 1. [`clean_response`] keeps only the model's answer: reasoning blocks, template tokens, invented
//!    next turns and prompt echoes go; a JSON object gives its answer key's value.
//! 2. A response that recites the answer options ("Yes, the statement is true. No, the statement
//!    is false. ...") answered nothing → `Invalid`.
//! 3. The deciding sentence is the first one that says something: questions (an echo of the
//!    prompt, "Yes or no?"), filler ("Sure!", "Here is my answer:") and sentences with no answer
//!    word ("The capital of Peru is Lima.") are passed over, so an explanation that comes first
//!    does not hide the conclusion after it. A bare courtesy affirmative ("Certainly!") decides
//!    only when no later sentence does. Sentences after the deciding one are never read: models
//!    add justifications that mention the other polarity or hedge about details.
//! 4. In the deciding sentence, an abstention that concerns the question (see
//!    [`abstention`](super::abstention)) → `Idk`: it wins over any answer word there, so "I don't
//!    know whether it is true" is never `True` and "I'm not sure, but I think yes" is `Idk`. An
//!    abstention about a side detail ("I don't know the exact year, but yes") does not.
//! 5. A decisive leading answer wins: an answer word or truth word that opens the sentence
//!    (after at most an apology or connective: "Sorry, but no", "False —", "Correct,") decides,
//!    and later words of the other polarity only make it `Invalid` when they answer again ("Yes,
//!    but no", "No, it is true"), not when they belong to the explanation ("No. While it is true
//!    that ...", "the correct currency is ..."). Without a leading answer, every claim in the
//!    sentence must agree, else `Invalid`.
//!
//! Answer words come from the multilingual table in [`words`](super::words): a reply in another
//! language is read for what it says ("Sí.", "Нет.", "わかりません。").
//!
//! KGLens verifies yes/no questions "on the first word"; kgscope reads them with the same rules
//! as statements because real answers put the yes/no after a courtesy word, an apology, a label
//! or a question echo as often as first, and "The answer is yes." commits to yes.

use serde::{Deserialize, Serialize};

use super::abstention;
use super::clean::{clean_response, sentences_with_questions};
use super::words::{
    is_unspaced, FALSE_WORDS, FILLER, NEGATORS, NO, POST_NEGATORS, QUALIFIERS, TRUE_WORDS,
    WEAK_YES, YES,
};
use crate::core::verdict::Verdict;

/// A verdict and a short human-readable trace of why, for the drill-down view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parsed {
    pub verdict: Verdict,
    pub rule: String,
    /// A decisive leading answer or an abstention about the question: a judge need not look.
    /// Unreadable responses, contradictions, courtesy words and answers found only inside a
    /// sentence are not.
    #[serde(default)]
    pub confident: bool,
}

impl Parsed {
    fn new(verdict: Verdict, rule: impl Into<String>) -> Self {
        Parsed {
            verdict,
            rule: rule.into(),
            confident: false,
        }
    }
    fn sure(verdict: Verdict, rule: impl Into<String>) -> Self {
        Parsed {
            confident: true,
            ..Self::new(verdict, rule)
        }
    }
}

/// Parses a response to a GraphEval statement (the model was told to answer
/// 'Yes, the statement is true.' / 'No, the statement is false.' / 'I don't know.').
///
/// See the module documentation for the rules; in short: first sentence that says something,
/// abstention first, a leading answer wins over its explanation, contradictions are `Invalid`.
pub fn parse_statement_verdict(response: &str) -> Parsed {
    read(response)
}

/// Parses a response to a KGLens yes/no question, with the same rules as statements: `Yes`
/// (`yeah`, `true`, `correct`, "of course", "Sí", ...) or `No` (`nope`, "certainly not", "Nein",
/// ...), wherever the deciding sentence states it.
pub fn parse_yesno_verdict(response: &str) -> Parsed {
    read(response)
}

fn read(response: &str) -> Parsed {
    if response.trim().is_empty() {
        return Parsed::sure(Verdict::Invalid, "empty response");
    }
    let cleaned = clean_response(response);
    let all = sentences_with_questions(&cleaned);
    if all.is_empty() {
        return Parsed::new(
            Verdict::Invalid,
            "nothing left after removing reasoning, template tokens, invented turns and prompt echo",
        );
    }
    if recites_options(&cleaned) {
        return Parsed::new(Verdict::Invalid, "recites the answer options");
    }
    let mut weak = None;
    for (n, (sentence, question)) in all.iter().enumerate() {
        if *question || is_filler(sentence) {
            continue;
        }
        let place = if n == 0 {
            "first sentence".to_string()
        } else {
            format!("sentence {}", n + 1)
        };
        match read_sentence(sentence, &place) {
            Reading::Nothing => {}
            Reading::Weak(text) => {
                weak.get_or_insert(format!("{place} says '{text}'"));
            }
            Reading::Decided(p) => return p,
        }
    }
    match weak {
        Some(rule) => Parsed::new(Verdict::True, rule),
        None => Parsed::new(Verdict::Invalid, "no verdict in first sentence"),
    }
}

/// The instructed answer sentences, both present: the model listed the options instead of
/// choosing one (a base model echoing its instruction does this).
fn recites_options(cleaned: &str) -> bool {
    let l = cleaned.to_lowercase();
    l.contains("yes, the statement is true") && l.contains("no, the statement is false")
}

fn is_filler(sentence: &str) -> bool {
    let norm: Vec<String> = tokens(sentence).into_iter().map(|t| t.lower).collect();
    FILLER.contains(&norm.join(" ").as_str())
}

enum Reading {
    /// No answer and no abstention: read the next sentence.
    Nothing,
    /// Only a courtesy affirmative ("Certainly!"): a yes unless a later sentence decides.
    Weak(String),
    Decided(Parsed),
}

fn read_sentence(sentence: &str, place: &str) -> Reading {
    let toks = tokens(sentence);
    let claims = claims(&toks);
    let strong: Vec<&Claim> = claims.iter().filter(|c| !c.weak).collect();
    if let Some(a) = abstention::find(sentence) {
        if a.about_question || strong.is_empty() {
            return Reading::Decided(Parsed::sure(
                Verdict::Idk,
                format!("abstention phrase '{}'", a.phrase),
            ));
        }
    }
    let Some(lead) = strong.first() else {
        return match claims.first() {
            Some(c) => Reading::Weak(c.text.clone()),
            None => Reading::Nothing,
        };
    };
    let decisive = lead.answers && toks[..lead.start].iter().all(|t| is_lead_in(&t.lower));
    // After a decisive answer, only another answer contradicts it; an explanation's truth
    // words are about other claims. Without one, every claim counts.
    let conflict = strong[1..]
        .iter()
        .find(|c| c.positive != lead.positive && (!decisive || c.answers));
    if let Some(c) = conflict {
        return Reading::Decided(Parsed::new(
            Verdict::Invalid,
            format!("both yes and no in {place} ('{}', '{}')", lead.text, c.text),
        ));
    }
    let verdict = if lead.positive {
        Verdict::True
    } else {
        Verdict::False
    };
    let how = if lead.start == 0 {
        "starts with"
    } else {
        "says"
    };
    let rule = format!("{place} {how} '{}'", lead.text);
    Reading::Decided(if decisive {
        Parsed::sure(verdict, rule)
    } else {
        Parsed::new(verdict, rule)
    })
}

/// Words that may come before a decisive answer: apologies, regret, connectives ("Sorry, but
/// no", "Unfortunately, no", "Well, yes").
fn is_lead_in(w: &str) -> bool {
    matches!(
        w,
        "sorry"
            | "i'm"
            | "i"
            | "am"
            | "apologize"
            | "apologise"
            | "for"
            | "any"
            | "the"
            | "confusion"
            | "afraid"
            | "unfortunately"
            | "sadly"
            | "alas"
            | "well"
            | "so"
            | "and"
            | "but"
            | "oh"
            | "ah"
            | "actually"
            | "honestly"
            | "however"
            | "thus"
            | "therefore"
            | "hence"
            | "then"
    ) || WEAK_YES.contains(&w)
}

/// A word of a sentence, with whether it starts a clause (first word, or after punctuation).
struct Tok {
    text: String,
    lower: String,
    clause_start: bool,
    /// The punctuation right before it, if any ("Yes/No": '/').
    after: Option<char>,
}

fn tokens(sentence: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut clause_start = true;
    let mut punct = None;
    let flush = |word: &mut String,
                 clause_start: &mut bool,
                 punct: &mut Option<char>,
                 out: &mut Vec<Tok>| {
        let w = word.trim_matches('\'');
        if !w.is_empty() {
            out.push(Tok {
                text: w.to_string(),
                lower: w.to_lowercase(),
                clause_start: *clause_start,
                after: punct.take(),
            });
            *clause_start = false;
        }
        word.clear();
    };
    let mut chars = sentence.chars().peekable();
    while let Some(c) = chars.next() {
        // A hyphen inside a word joins it ("real-time", "No-ited"): not a clause break.
        let joins =
            c == '-' && !word.is_empty() && chars.peek().is_some_and(|n| n.is_alphanumeric());
        if c.is_alphanumeric() || c == '\'' || joins {
            word.push(c);
        } else {
            flush(&mut word, &mut clause_start, &mut punct, &mut out);
            if !c.is_whitespace() {
                clause_start = true;
                punct = Some(c);
            }
        }
    }
    flush(&mut word, &mut clause_start, &mut punct, &mut out);
    out
}

/// One claim found in a sentence.
struct Claim {
    positive: bool,
    /// The words that made the claim, e.g. "Yes" or "not true".
    text: String,
    /// Index of its first token.
    start: usize,
    /// It answers by itself (an answer word or phrase, a truth word opening a clause or ending
    /// one about "it"/"the statement", a bare "it is (not)"), rather than inside an explanation.
    answers: bool,
    /// A courtesy affirmative ("Certainly"), overridden by any other claim.
    weak: bool,
}

/// Nouns and pronouns whose "is true/false" restates the verdict ("No, it is true.").
const VERDICT_SUBJECTS: &[&str] = &[
    "it",
    "this",
    "that",
    "statement",
    "claim",
    "answer",
    "assertion",
    "sentence",
];

/// "No other city", "no doubt": a sentence-initial "no" that quantifies a noun, not an answer.
const NO_QUANTIFIES: &[&str] = &[
    "doubt", "one", "other", "longer", "more", "matter", "problem", "way", "need", "such",
    "evidence", "country", "city",
];

fn claims(toks: &[Tok]) -> Vec<Claim> {
    let lower: Vec<&str> = toks.iter().map(|t| t.lower.as_str()).collect();
    let ends_clause = |i: usize| toks.get(i + 1).is_none_or(|n| n.clause_start);
    let options = options_tokens(toks);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if options.contains(&i) {
            i += 1;
            continue;
        }
        // Multi-word answer phrases first ("of course not", "that's right", "not at all").
        if let Some((n, positive, weak)) = phrase_at(&lower[i..]) {
            if toks[i].clause_start && ends_clause(i + n - 1) {
                out.push(Claim {
                    positive,
                    text: join(&toks[i..i + n]),
                    start: i,
                    answers: true,
                    weak,
                });
                i += n;
                continue;
            }
        }
        let t = &toks[i];
        if let Some(positive) = answer_word(&t.lower) {
            let sentence_initial = i == 0
                && (positive
                    || toks
                        .get(1)
                        .is_none_or(|n| !NO_QUANTIFIES.contains(&n.lower.as_str())));
            if (t.clause_start && (ends_clause(i) || sentence_initial))
                || (!t.clause_start && ends_clause(i))
            {
                out.push(Claim {
                    positive,
                    text: t.text.clone(),
                    start: i,
                    answers: true,
                    weak: false,
                });
            }
        } else if WEAK_YES.contains(&lower[i]) && t.clause_start {
            out.push(Claim {
                positive: true,
                text: t.text.clone(),
                start: i,
                answers: true,
                weak: true,
            });
        } else if let Some(c) = copula_answer(toks, i) {
            let n = c.1;
            out.push(Claim {
                positive: c.0,
                text: join(&toks[i..i + n]),
                start: i,
                answers: true,
                weak: false,
            });
            i += n;
            continue;
        } else if let Some(pos) = truth_word(&t.lower) {
            if let Some(c) = truth_claim(toks, i, pos) {
                out.push(c);
            }
        }
        i += 1;
    }
    out
}

fn join(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A multi-word entry of the answer tables starting at `words[0]`: (length, positive, weak).
fn phrase_at(words: &[&str]) -> Option<(usize, bool, bool)> {
    let tables = [
        (NO, false, false),
        (YES, true, false),
        (WEAK_YES, true, true),
    ];
    for (list, positive, weak) in tables {
        for p in list.iter().filter(|p| p.contains(' ')) {
            let parts: Vec<&str> = p.split(' ').collect();
            if words.len() >= parts.len() && words[..parts.len()] == parts[..] {
                return Some((parts.len(), positive, weak));
            }
        }
    }
    None
}

/// A one-word answer: "yes", "Nein", "不是", ... Words of unspaced scripts (Chinese, Japanese)
/// match at the start of a token, since the answer word is written together with what follows.
fn answer_word(w: &str) -> Option<bool> {
    let hit = |list: &[&str]| {
        list.iter().any(|a| {
            !a.contains(' ') && (w == *a || (is_unspaced(a) && !is_hangul(a) && w.starts_with(a)))
        })
    };
    // "No" before "yes": the negative CJK forms contain the positive one ("不是" ⊃ "是").
    if hit(NO) {
        Some(false)
    } else if hit(YES) {
        Some(true)
    } else {
        None
    }
}

fn is_hangul(s: &str) -> bool {
    s.chars().any(|c| ('\u{ac00}'..='\u{d7af}').contains(&c))
}

/// A truth word: exact, or inside a token for unspaced scripts (false first: "不正确" ⊃ "正确").
fn truth_word(w: &str) -> Option<bool> {
    let hit = |list: &[&str]| {
        list.iter()
            .any(|a| w == *a || (is_unspaced(a) && w.contains(a)))
    };
    if hit(FALSE_WORDS) {
        Some(false)
    } else if hit(TRUE_WORDS) {
        Some(true)
    } else {
        None
    }
}

/// A truth word as a claim, or `None` when it is not one:
/// - attributive ("the correct currency", "a false rumour") — it describes a noun;
/// - in a relative clause ("..., which is wrong") — it describes what was just named;
/// - qualified ("partially true") — not a verdict.
///
/// A negation up to three words before ("is not true", "not at all true", "n'est pas vrai") or
/// right after ("das stimmt nicht") flips it.
fn truth_claim(toks: &[Tok], i: usize, positive: bool) -> Option<Claim> {
    let prev = |k: usize| (i >= k).then(|| toks[i - k].lower.as_str());
    let in_clause = |k: usize| (1..=k).all(|j| i >= j && !toks[i - j + 1].clause_start);
    if in_clause(1)
        && matches!(
            prev(1),
            Some("the" | "a" | "an" | "its" | "his" | "her" | "their" | "my" | "your" | "our")
        )
    {
        return None;
    }
    if in_clause(2)
        && matches!(prev(2), Some("which" | "who"))
        && matches!(prev(1), Some("is" | "was" | "are"))
    {
        return None;
    }
    if (1..=2).any(|k| in_clause(k) && prev(k).is_some_and(|w| QUALIFIERS.contains(&w))) {
        return None;
    }
    let mut negator = None;
    // Three words: "not at all true", "not entirely accurate".
    for k in 1..=3 {
        if !in_clause(k) {
            break;
        }
        if prev(k).is_some_and(|w| NEGATORS.contains(&w) || w.ends_with("n't")) {
            negator = Some(i - k);
            break;
        }
    }
    let post = toks
        .get(i + 1)
        .filter(|n| !n.clause_start && POST_NEGATORS.contains(&n.lower.as_str()));
    let (start, end) = match (negator, post) {
        (Some(j), _) => (j, i),
        (None, Some(_)) => (i, i + 1),
        (None, None) => (i, i),
    };
    let negated = negator.is_some() || post.is_some();
    let opens = toks[start].clause_start || toks[..start].iter().all(|t| is_lead_in(&t.lower));
    let ends = toks.get(end + 1).is_none_or(|n| n.clause_start);
    Some(Claim {
        positive: positive != negated,
        text: join(&toks[start..=end]),
        start,
        answers: opens || (ends && restates_verdict(toks, start)),
        weak: false,
    })
}

/// "it is", "the statement is not", "that's": the truth word that follows is said of the
/// statement itself, so it answers.
fn restates_verdict(toks: &[Tok], start: usize) -> bool {
    let mut j = start;
    while j > 0 && !toks[j].clause_start {
        j -= 1;
        let w = toks[j].lower.as_str();
        if matches!(w, "it's" | "that's" | "this's") {
            return true;
        }
        if matches!(w, "is" | "was" | "be" | "seems") {
            return j > 0 && VERDICT_SUBJECTS.contains(&toks[j - 1].lower.as_str());
        }
    }
    false
}

/// A clause that is only "it is", "it is not", "it's not", "it doesn't", ...: the short answer
/// to a yes/no question. Returns (positive, number of tokens).
fn copula_answer(toks: &[Tok], i: usize) -> Option<(bool, usize)> {
    // It opens its clause, or follows only a courtesy word there ("Of course it is.").
    let clause = (0..=i).rev().find(|&k| toks[k].clause_start).unwrap_or(0);
    let opens = toks[clause..i]
        .iter()
        .all(|t| is_lead_in(&t.lower) || matches!(t.lower.as_str(), "of" | "course"));
    if !opens {
        return None;
    }
    let words: Vec<&str> = toks[i..]
        .iter()
        .enumerate()
        .take_while(|(k, t)| *k == 0 || !t.clause_start)
        .map(|(_, t)| t.lower.as_str())
        .collect();
    let subject = |w: &str| matches!(w, "it" | "that" | "this" | "they" | "he" | "she");
    // "It should be." / "It must be." commit as firmly as "It is." ("might"/"may" do not).
    let aux = |w: &str| {
        matches!(
            w,
            "is" | "was" | "are" | "does" | "did" | "do" | "has" | "can" | "should" | "must"
        )
    };
    let positive = match words.as_slice() {
        [s, a] if subject(s) && aux(a) => true,
        [s, "should" | "must", "be"] if subject(s) => true,
        [s, a, "not"] if subject(s) && aux(a) => false,
        [s, n] if subject(s) && n.ends_with("n't") => false,
        ["it's" | "that's", "not"] => false,
        _ => return None,
    };
    Some((positive, words.len()))
}

/// Tokens that name the options rather than choose one: "yes or no", "true/false", a clause
/// "(both) yes and no".
fn options_tokens(toks: &[Tok]) -> Vec<usize> {
    let pol = |t: &Tok| answer_word(&t.lower).or_else(|| truth_word(&t.lower));
    let mut out = Vec::new();
    for i in 0..toks.len() {
        let Some(a) = pol(&toks[i]) else { continue };
        if let (Some(or), Some(b)) = (toks.get(i + 1), toks.get(i + 2)) {
            let and_ends = or.lower == "and" && toks.get(i + 3).is_none_or(|n| n.clause_start);
            if (matches!(or.lower.as_str(), "or" | "nor") || and_ends) && pol(b) == Some(!a) {
                out.extend([i, i + 1, i + 2]);
            }
        }
        if let Some(b) = toks.get(i + 1) {
            if b.after == Some('/') && pol(b) == Some(!a) {
                out.extend([i, i + 1]);
            }
        }
    }
    out
}

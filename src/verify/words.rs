//! Every word list the verdict rules read, in one place, as data.
//!
//! Models answer in the language of their training mix as often as in the prompt's: a small model
//! asked in English may still say "Sí." or "わかりません". The lists cover the major languages so
//! that such an answer is read as what it says instead of `Invalid` — and, above all, so that an
//! abstention such as "No lo sé" or "Nie wiem" is never read as the "no" it starts with. All
//! entries are lowercase; apostrophes are straight. Entries with CJK/Hangul characters are matched
//! inside a word (those scripts do not separate words with spaces), the others as whole words.

/// Words and phrases that answer "yes" on their own (a clause that is only one of these).
#[rustfmt::skip]
pub const YES: &[&str] = &[
    // English
    "yes", "yeah", "yep", "yup", "yea", "aye", "affirmative", "that's right", "you're right",
    // Spanish, Italian, Portuguese, French, German, Dutch
    "sí", "si", "sì", "sim", "oui", "ja", "jawohl",
    // Russian, Polish, Turkish
    "да", "tak", "evet",
    // Chinese, Japanese, Korean
    "是的", "是", "对", "對", "はい", "ええ", "네", "예",
];

/// Words and phrases that answer "no" on their own.
#[rustfmt::skip]
pub const NO: &[&str] = &[
    // English
    "no", "nope", "nah", "nay", "negative", "not at all", "not really", "not quite",
    "of course not", "certainly not", "absolutely not", "definitely not", "surely not",
    "unfortunately not", "sadly not", "i'm afraid not", "probably not", "not so",
    // Conventional English refusals of assent ("I think so" alone stays unread: a belief).
    "i don't think so", "i do not think so", "i don't believe so", "i do not believe so",
    // Romance, German, Dutch, Slavic, Turkish
    "non", "nein", "não", "nao", "nee", "нет", "nie", "hayır", "hayir",
    // Chinese, Japanese, Korean (negations before the plain "是" they contain)
    "不是", "不对", "不對", "不", "否", "いいえ", "아니요", "아니오", "아니",
];

/// Affirmatives that are also courtesy ("Certainly! The statement is false."): they count as a
/// "yes" only when nothing stronger is said in the same answer.
pub const WEAK_YES: &[&str] = &[
    "sure",
    "certainly",
    "absolutely",
    "definitely",
    "of course",
    "indeed",
    "exactly",
];

/// Words that call a statement true: a verdict wherever they stand, unless used attributively
/// ("the correct currency") or negated ("not true").
#[rustfmt::skip]
pub const TRUE_WORDS: &[&str] = &[
    // English
    "true", "correct", "accurate", "right",
    // Spanish, French, German
    "verdadero", "verdadera", "verdad", "cierto", "cierta", "correcto", "correcta", "vrai",
    "vraie", "exact", "exacte", "wahr", "richtig", "korrekt", "stimmt",
    // Italian, Portuguese
    "vero", "vera", "corretto", "corretta", "giusto", "verdadeiro", "verdadeira", "verdade",
    "correto", "correta", "certo",
    // Russian, Polish, Dutch, Turkish
    "верно", "правда", "правильно", "истина", "prawda", "waar", "juist", "doğru",
    // Chinese, Japanese, Korean
    "正确", "正確", "对的", "真的", "正しい", "本当", "맞습니다", "맞아요", "맞다",
];

/// Words that call a statement false.
#[rustfmt::skip]
pub const FALSE_WORDS: &[&str] = &[
    // English
    "false", "incorrect", "inaccurate", "untrue", "wrong",
    // Spanish, French, German
    "falso", "falsa", "incorrecto", "incorrecta", "faux", "fausse", "falsch", "inkorrekt",
    // Italian, Portuguese
    "sbagliato", "sbagliata", "errato", "errata", "errado", "errada", "incorreto", "incorreta",
    // Russian, Polish, Dutch, Turkish
    "неверно", "неправильно", "ложь", "ложно", "fałsz", "onwaar", "onjuist", "fout", "yanlış",
    // Chinese, Japanese, Korean (negated forms first: "不正确" contains "正确")
    "不正确", "不正確", "错误", "錯誤", "错", "假的", "間違", "誤り", "正しくない", "틀렸",
    "틀립니다", "아닙니다",
];

/// Words that negate a truth word up to three words before it in the same clause ("not true",
/// "not at all true", "n'est pas vrai", "non è vero", "не верно").
#[rustfmt::skip]
pub const NEGATORS: &[&str] = &[
    // English
    "not", "isn't", "wasn't", "aren't", "weren't", "never", "nor", "neither", "hardly", "no",
    // French, German, Italian, Portuguese, Russian, Polish, Dutch
    "pas", "nicht", "kein", "keine", "non", "não", "не", "nie", "niet",
];

/// Words that negate a truth word right AFTER it (German and Turkish put the negation last:
/// "das stimmt nicht", "doğru değil").
pub const POST_NEGATORS: &[&str] = &["nicht", "değil", "not"];

/// Adverbs that make a truth word something less than a verdict ("partially true").
pub const QUALIFIERS: &[&str] = &[
    "partially",
    "partly",
    "mostly",
    "half",
    "somewhat",
    "largely",
    "technically",
    "necessarily",
];

/// Fixed abstention phrases, matched as whole words (CJK ones inside words). The structural
/// rule in `abstention.rs` catches the open-ended English ones ("I'm unable to say whether ...");
/// these are the idioms and the other languages' ways to say "I don't know" / "I'm not sure".
#[rustfmt::skip]
pub const ABSTENTIONS: &[&str] = &[
    // English
    "don't know", "do not know", "dont know", "didn't know", "dunno", "idk", "no idea", "no clue",
    "not sure", "unsure", "not certain", "uncertain", "not confident", "unknown", "unclear",
    "not enough information", "insufficient information", "no information",
    "no reliable information", "not enough data", "not enough context", "beyond my knowledge",
    "knowledge cutoff", "not familiar", "not aware", "hard to say", "difficult to say",
    "can't say", "cannot say", "can't tell", "cannot tell", "unable to", "not able to",
    // Spanish
    "no lo sé", "no lo se", "no sé", "no se sabe", "no estoy seguro", "no estoy segura",
    // French
    "je ne sais pas", "je sais pas", "ne sais pas", "pas sûr", "pas sûre", "pas certain",
    // German
    "weiß es nicht", "weiß ich nicht", "weiss es nicht", "weiss ich nicht", "ich weiß nicht",
    "ich weiss nicht", "nicht sicher",
    // Italian
    "non lo so", "non so", "non sono sicuro", "non sono sicura",
    // Portuguese
    "não sei", "nao sei", "não tenho certeza", "não tenho a certeza",
    // Russian
    "не знаю", "не уверен", "не уверена",
    // Polish, Dutch, Turkish
    "nie wiem", "nie jestem pewien", "weet het niet", "weet ik niet", "niet zeker", "bilmiyorum",
    "emin değilim",
    // Chinese, Japanese, Korean
    "不知道", "不确定", "不清楚", "不確定", "わかりません", "分かりません", "知りません",
    "わからない", "分からない", "모르겠", "모릅니다", "모르",
];

/// Negative modals of the model's own inability ("I can't", "there is no way", "impossible") ...
pub const INABILITY: &[&str] = &[
    "cannot",
    "can't",
    "can not",
    "couldn't",
    "could not",
    "no way",
    "impossible",
    "not possible",
    "don't have",
    "do not have",
    "lack",
    "not in a position",
];

/// Words of certainty that "not" negates through an intensifier: "not 100% sure", "not entirely
/// certain", "not fully confident".
pub const CERTAINTY: &[&str] = &["sure", "certain", "confident", "positive"];

/// ... which make an abstention when they govern a verb of knowing or saying, or what that needs.
pub const KNOWING: &[&str] = &[
    "know",
    "knowing",
    "known",
    "say",
    "said",
    "tell",
    "told",
    "determine",
    "determined",
    "verify",
    "verified",
    "confirm",
    "confirmed",
    "answer",
    "answered",
    "judge",
    "decide",
    "decided",
    "assess",
    "evaluate",
    "predict",
    "check",
    "guess",
    "comment",
    "sure",
    "certain",
    "find",
    "found",
    "provide",
    "access",
    "information",
    "enough",
    "capability",
    "ability",
    "knowledge",
    "data",
];

/// Words after an abstention that show it is about a side detail, not the question ("I don't know
/// the exact year, but yes ..."): such an abstention does not override a verdict.
pub const SIDE_DETAIL: &[&str] = &[
    "why",
    "how",
    "exact",
    "exactly",
    "precise",
    "its",
    "his",
    "her",
    "their",
    "where that",
    "where this", // data the model cannot have, unlike the fact asked about
    "real time",
    "current",
    "up to date",
    "live",
];

/// Sentences that carry no answer and are skipped (normalised: lowercase words, one space).
pub const FILLER: &[&str] = &[
    "okay",
    "ok",
    "alright",
    "well",
    "hmm",
    "hm",
    "let me think",
    "let's see",
    "great question",
    "good question",
    "my answer",
    "here is my answer",
    "here's my answer",
    "here is the answer",
    "here's the answer",
    "sure here is my answer",
    "sure here's my answer",
    "the answer is",
    "answer",
    "thanks",
    "thank you",
];

/// Whether a word belongs to a script written without spaces, so list entries are found inside
/// a word rather than equal to it.
pub fn is_unspaced(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c as u32,
            0x3040..=0x30ff   // Hiragana, Katakana
            | 0x3400..=0x9fff // CJK ideographs
            | 0xac00..=0xd7af // Hangul syllables
            | 0xf900..=0xfaff)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_lowercase_and_unique_per_list() {
        for list in [
            YES,
            NO,
            WEAK_YES,
            TRUE_WORDS,
            FALSE_WORDS,
            NEGATORS,
            ABSTENTIONS,
            FILLER,
        ] {
            for (i, w) in list.iter().enumerate() {
                assert_eq!(w.to_lowercase(), *w, "{w:?} is not lowercase");
                assert!(!list[..i].contains(w), "{w:?} twice");
            }
        }
    }

    #[test]
    fn unspaced_scripts() {
        assert!(is_unspaced("我不知道"));
        assert!(is_unspaced("わかりません"));
        assert!(is_unspaced("모르겠습니다"));
        assert!(!is_unspaced("Я не знаю"));
        assert!(!is_unspaced("no lo sé"));
    }
}

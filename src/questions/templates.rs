//! Relation templates: the project's own TOML files, plus importers for the GraphEval TSV
//! layout and the LAMA JSONL layout, and a fallback built from the relation's label.

pub mod articles;
mod facts;
pub mod phrase;
pub mod slots;

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use crate::kg::vocab;
pub use facts::{render_fact, template_for, Form};
pub use slots::{fill, Article, Slot};

/// How one relation is put into words. Placeholders: `{head}` (subject) and `{tail}` (object).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Template {
    /// A declarative sentence with `{head}` and `{tail}`.
    pub statement: String,
    /// A wh-question with `{head}`.
    pub question: String,
    /// A yes/no question with `{head}` and `{tail}`.
    #[serde(default)]
    pub yesno: Option<String>,
    /// How the subject and the object are written into the sentences (article, unit, code).
    #[serde(default)]
    pub head: Slot,
    #[serde(default)]
    pub tail: Slot,
}

impl Template {
    /// The fallback for a relation no template file knows, built from its label
    /// (`birthPlace` → "birth place") in the frame its grammar takes ([`phrase`]).
    pub fn from_label(label: &str) -> Self {
        // A label in words ("ISO 3166-1 alpha-2 code", "GDP") is kept as written; only a
        // local name (`birthPlace`, `date_of_birth`) is split and lower-cased.
        let words = if label.trim().contains(char::is_whitespace) {
            label.split_whitespace().collect::<Vec<_>>().join(" ")
        } else {
            split_camel(label)
        };
        let (statement, question, yesno) = phrase::frames(&words);
        Self {
            statement,
            question,
            yesno: Some(yesno),
            head: Slot::default(),
            tail: Slot::default(),
        }
    }

    /// The yes/no form; imported layouts have none, so derive it from the statement.
    pub fn yesno(&self) -> String {
        self.yesno.clone().unwrap_or_else(|| {
            let s = self.statement.trim().trim_end_matches(['.', ' ']);
            format!("Is it true that {}?", lower_first(s))
        })
    }

    fn check(&self, what: &str) -> Result<(), String> {
        let need = |t: &str, ph: &[&str], field: &str| -> Result<(), String> {
            for p in ph {
                if !t.contains(p) {
                    return Err(format!("{what}: {field} template '{t}' lacks {p}"));
                }
            }
            Ok(())
        };
        need(&self.statement, &["{head}", "{tail}"], "statement")?;
        need(&self.question, &["{head}"], "question")?;
        if let Some(y) = &self.yesno {
            need(y, &["{head}", "{tail}"], "yesno")?;
        }
        Ok(())
    }
}

/// Lower-cases a leading article so the statement reads well after "Is it true that";
/// anything else (a name, an acronym, a placeholder) is kept as it is.
fn lower_first(s: &str) -> String {
    for article in ["The ", "A ", "An "] {
        if let Some(rest) = s.strip_prefix(article) {
            return format!("{}{rest}", article.to_lowercase());
        }
    }
    s.to_string()
}

/// `birthPlace` → `birth place`; `date_of_birth` → `date of birth`.
pub fn split_camel(label: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in label.chars() {
        if c == '_' || c == '-' {
            out.push(' ');
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        out.extend(c.to_lowercase());
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlFile {
    /// `false`: the file's templates apply by IRI only, never to another KG's relation that
    /// happens to share a local name or label (Wikidata's and DBpedia's templates, which must
    /// not reword a generic KG's `capital`).
    #[serde(default = "yes")]
    by_name: bool,
    #[serde(default)]
    relation: Vec<TomlRelation>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct TomlRelation {
    iri: Option<String>,
    /// Matches a relation by label or local name when no IRI is given (or it differs).
    label: Option<String>,
    /// Makes this a template for the subjects of this type only (type IRI, label or local
    /// name), tried before the relation's general template.
    head_type: Option<String>,
    /// Makes this a template for the objects of this type only ("in the province of {tail}"
    /// for a province); with `head_type`, both must fit.
    tail_type: Option<String>,
    #[serde(flatten)]
    template: Template,
}

/// A template for one relation and one subject type.
#[derive(Debug, Clone)]
struct Typed {
    /// The relation's IRI, and its lower-cased local name or label.
    iri: Option<String>,
    names: Vec<String>,
    head_type: Option<String>,
    tail_type: Option<String>,
    template: Template,
}

/// Templates keyed by relation IRI and by lower-cased local name / label.
#[derive(Debug, Clone, Default)]
pub struct TemplateSet {
    by_iri: HashMap<String, Template>,
    by_name: HashMap<String, Template>,
    /// Subject-type-specific templates, in file order (the first that fits wins).
    typed: Vec<Typed>,
}

static BUILTIN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtin_templates.rs"));

impl TemplateSet {
    /// The templates shipped in `assets/templates/`.
    pub fn builtin() -> Self {
        let mut set = Self::default();
        for (name, text) in BUILTIN {
            set.add_toml(text, name)
                .expect("built-in templates are valid");
        }
        set
    }

    pub fn len(&self) -> usize {
        self.by_iri.len().max(self.by_name.len())
    }

    pub fn is_empty(&self) -> bool {
        self.by_iri.is_empty() && self.by_name.is_empty()
    }

    /// Adds a template file: `.toml` (kgscope), `.tsv` (GraphEval) or `.jsonl` (LAMA).
    pub fn add_file(&mut self, path: &Path) -> Result<usize, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let what = path.display().to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("toml") => self.add_toml(&text, &what),
            Some("tsv") => self.add_grapheval_tsv(&text, &what),
            Some("jsonl") => self.add_lama_jsonl(&text, &what),
            _ => Err(format!(
                "{what}: templates must be .toml, .tsv (GraphEval) or .jsonl (LAMA)"
            )),
        }
    }

    pub fn add_toml(&mut self, text: &str, what: &str) -> Result<usize, String> {
        let file: TomlFile = toml::from_str(text).map_err(|e| {
            let loc = e
                .span()
                .map(|s| {
                    let line = text[..s.start].matches('\n').count() + 1;
                    format!(":{line}")
                })
                .unwrap_or_default();
            format!("{what}{loc}: {}", e.message())
        })?;
        let n = file.relation.len();
        for (i, r) in file.relation.into_iter().enumerate() {
            r.template.check(&format!("{what}: relation #{}", i + 1))?;
            if r.iri.is_none() && r.label.is_none() {
                return Err(format!(
                    "{what}: relation #{} has neither iri nor label",
                    i + 1
                ));
            }
            if r.head_type.is_some() || r.tail_type.is_some() {
                let names = if file.by_name {
                    r.iri
                        .iter()
                        .map(|iri| vocab::local_name(iri).to_lowercase())
                        .chain(r.label.iter().map(|l| l.to_lowercase()))
                        .collect()
                } else {
                    Vec::new()
                };
                self.typed.push(Typed {
                    iri: r.iri,
                    names,
                    head_type: r.head_type,
                    tail_type: r.tail_type,
                    template: r.template,
                });
                continue;
            }
            if let Some(iri) = &r.iri {
                if file.by_name {
                    self.by_name
                        .insert(vocab::local_name(iri).to_lowercase(), r.template.clone());
                }
                self.by_iri.insert(iri.clone(), r.template.clone());
            }
            if !file.by_name {
                continue;
            }
            if let Some(label) = &r.label {
                self.by_name
                    .entry(label.to_lowercase())
                    .or_insert(r.template);
            }
        }
        Ok(n)
    }

    /// GraphEval layout: `relation<TAB>question_template<TAB>statement_template`, with a header.
    pub fn add_grapheval_tsv(&mut self, text: &str, what: &str) -> Result<usize, String> {
        let mut n = 0;
        for (i, line) in text.lines().enumerate() {
            if i == 0 && line.starts_with("relation\t") || line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 3 {
                return Err(format!(
                    "{what}:{}: expected 3 tab-separated columns, found {}",
                    i + 1,
                    cols.len()
                ));
            }
            let t = Template {
                statement: cols[2].trim().to_string(),
                question: cols[1].trim().to_string(),
                yesno: None,
                head: Slot::default(),
                tail: Slot::default(),
            };
            t.check(&format!("{what}:{}", i + 1))?;
            self.by_name.insert(cols[0].trim().to_lowercase(), t);
            n += 1;
        }
        Ok(n)
    }

    /// LAMA layout: one JSON object per line with `relation` (e.g. `P101`), a cloze `template`
    /// with `[X]` and `[Y]`, and a `label`.
    pub fn add_lama_jsonl(&mut self, text: &str, what: &str) -> Result<usize, String> {
        #[derive(Deserialize)]
        struct Lama {
            relation: String,
            template: String,
            label: Option<String>,
        }
        let mut n = 0;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let l: Lama =
                serde_json::from_str(line).map_err(|e| format!("{what}:{}: {e}", i + 1))?;
            let statement = l
                .template
                .replace("[X]", "{head}")
                .replace("[Y]", "{tail}")
                .replace(" .", ".")
                .trim()
                .to_string();
            let label = l.label.clone().unwrap_or_else(|| l.relation.clone());
            let t = Template {
                statement,
                question: Template::from_label(&label).question,
                yesno: None,
                head: Slot::default(),
                tail: Slot::default(),
            };
            t.check(&format!("{what}:{}", i + 1))?;
            self.by_name.insert(l.relation.to_lowercase(), t.clone());
            if let Some(label) = l.label {
                self.by_name.entry(label.to_lowercase()).or_insert(t);
            }
            n += 1;
        }
        Ok(n)
    }

    /// The template for a relation: by IRI, then by local name, then by label, else built
    /// from the label.
    pub fn get(&self, iri: &str, label: &str) -> Template {
        self.find(iri, label)
            .cloned()
            .unwrap_or_else(|| Template::from_label(label))
    }

    pub fn find(&self, iri: &str, label: &str) -> Option<&Template> {
        self.by_iri
            .get(iri)
            .or_else(|| self.by_name.get(&vocab::local_name(iri).to_lowercase()))
            .or_else(|| self.by_name.get(&label.to_lowercase()))
    }

    /// The template for a relation whose subject has the given types, each as (IRI, label):
    /// the first subject-type template (in file order) that names the relation and one of the
    /// types, else [`TemplateSet::get`]. File order and exact matches keep the choice
    /// deterministic.
    pub fn get_for(&self, iri: &str, label: &str, types: &[(String, String)]) -> Template {
        self.get_for_ends(iri, label, types, &[])
    }

    /// [`TemplateSet::get_for`] with the object's types too: the first typed template (in file
    /// order) whose subject type and object type, where it declares them, are among `head_types`
    /// and `tail_types`.
    pub fn get_for_ends(
        &self,
        iri: &str,
        label: &str,
        head_types: &[(String, String)],
        tail_types: &[(String, String)],
    ) -> Template {
        let name = vocab::local_name(iri).to_lowercase();
        let lower = label.to_lowercase();
        let fits = |want: &Option<String>, types: &[(String, String)]| {
            want.as_ref().is_none_or(|want| {
                types.iter().any(|(ti, tl)| {
                    want == ti
                        || want.eq_ignore_ascii_case(tl)
                        || want.eq_ignore_ascii_case(&vocab::local_name(ti))
                })
            })
        };
        let typed = self.typed.iter().find(|t| {
            let relation =
                t.iri.as_deref() == Some(iri) || t.names.iter().any(|n| *n == name || *n == lower);
            relation && fits(&t.head_type, head_types) && fits(&t.tail_type, tail_types)
        });
        match typed {
            Some(t) => t.template.clone(),
            None => self.get(iri, label),
        }
    }

    /// The subject-type-specific templates, in file order.
    pub fn typed(&self) -> impl Iterator<Item = &Template> {
        self.typed.iter().map(|t| &t.template)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_and_keeps_values_verbatim() {
        assert_eq!(
            fill("The capital of {head} is {tail}.", "France", "{tail}"),
            "The capital of France is {tail}."
        );
        assert_eq!(fill("a {b} {head}", "x", "y"), "A {b} x");
    }

    #[test]
    fn fallback_from_label() {
        let t = Template::from_label("birthPlace");
        assert_eq!(
            fill(&t.statement, "Ada", "London"),
            "The birth place of Ada is London."
        );
        assert_eq!(
            fill(&t.yesno(), "Ada", "London"),
            "Is London the birth place of Ada?"
        );
        assert_eq!(split_camel("date_of_birth"), "date of birth");
    }

    #[test]
    fn derived_yesno() {
        let t = Template {
            statement: "The capital of {head} is {tail}.".into(),
            question: "What is the capital of {head}?".into(),
            yesno: None,
            head: Slot::default(),
            tail: Slot::default(),
        };
        assert_eq!(
            fill(&t.yesno(), "France", "Paris"),
            "Is it true that the capital of France is Paris?"
        );
    }

    #[test]
    fn subject_type_templates_come_first_and_fall_back() {
        let mut set = TemplateSet::default();
        let toml = r#"
[[relation]]
iri = "http://x/league"
statement = "{head} belongs to {tail}."
question = "Which league does {head} belong to?"

[[relation]]
iri = "http://x/league"
head_type = "http://x/Team"
head = { article = "the" }
statement = "{head} play in {tail}."
question = "In which league do {head} play?"

[[relation]]
iri = "http://x/league"
head_type = "player"
statement = "{head} has played in {tail}."
question = "In which league has {head} played?"
"#;
        assert_eq!(set.add_toml(toml, "t.toml").unwrap(), 3);
        assert_eq!(set.typed().count(), 2);
        let ty = |iri: &str, label: &str| vec![(iri.to_string(), label.to_string())];
        let team = set.get_for("http://x/league", "league", &ty("http://x/Team", "team"));
        assert_eq!(team.head.article, Some(Article::The));
        assert_eq!(
            fill(&team.statement, "the Suns", "the NBA"),
            "The Suns play in the NBA."
        );
        // By the type's label, case-insensitively.
        let player = set.get_for("http://x/league", "league", &ty("http://x/P", "Player"));
        assert_eq!(player.statement, "{head} has played in {tail}.");
        // Any other subject gets the relation's own template.
        let other = set.get_for("http://x/league", "league", &ty("http://x/Cup", "cup"));
        assert_eq!(other.statement, "{head} belongs to {tail}.");
        assert_eq!(set.get_for("http://x/league", "league", &[]), other);
    }

    #[test]
    fn object_type_templates_name_the_kind_where_english_does() {
        let mut set = TemplateSet::default();
        let toml = r#"
[[relation]]
iri = "http://x/state"
statement = "{head} is in {tail}."
question = "In which state or province is {head}?"

[[relation]]
iri = "http://x/state"
tail_type = "province"
statement = "{head} is in the province of {tail}."
question = "In which state or province is {head}?"
"#;
        set.add_toml(toml, "t.toml").unwrap();
        let ty = |iri: &str, label: &str| vec![(iri.to_string(), label.to_string())];
        let city = ty("http://x/City", "city");
        let province = set.get_for_ends(
            "http://x/state",
            "state",
            &city,
            &ty("http://x/P", "Province"),
        );
        assert_eq!(province.statement, "{head} is in the province of {tail}.");
        let other = set.get_for_ends(
            "http://x/state",
            "state",
            &city,
            &ty("http://x/D", "district"),
        );
        assert_eq!(other.statement, "{head} is in {tail}.");
        // A tail-type template never applies to a fact whose object's type is unknown.
        assert_eq!(set.get_for("http://x/state", "state", &city), other);
    }

    #[test]
    fn toml_errors_name_the_line() {
        let mut set = TemplateSet::default();
        let err = set
            .add_toml("[[relation]]\niri = \"x\"\nstatement = 3\n", "t.toml")
            .unwrap_err();
        assert!(err.starts_with("t.toml:"), "{err}");
        let err = set
            .add_toml("[[relation]]\niri = \"x\"\nstatement = \"no tail {head}\"\nquestion = \"{head}?\"\n", "t.toml")
            .unwrap_err();
        assert!(err.contains("lacks {tail}"), "{err}");
        // A misspelt slot field is an error, not silently ignored.
        let err = set
            .add_toml("[[relation]]\niri = \"x\"\nstatement = \"{head} {tail}\"\nquestion = \"{head}?\"\ntail = { units = \"K\" }\n", "t.toml")
            .unwrap_err();
        assert!(err.contains("units"), "{err}");
    }
}

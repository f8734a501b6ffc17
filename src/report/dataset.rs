//! A run's results as a flat dataset: one row per question, the same columns on every row and
//! each column always of one JSON type (or null), so that Hugging Face `datasets` (through
//! pyarrow, which refuses a column that is a string in one row and an object in another)
//! loads `kgscope export` output as it is. README.md ("Datasets") documents the columns; a test
//! keeps the two in step.

use serde::Serialize;

use crate::questions::{Corruption, Task};
use crate::run::{Manifest, ResultRecord};
use crate::verify::{Answer, OutcomeKind, Stage, Verdict};

/// One method facet of a question (KG-FPQ: edit, hop, format, relation).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Facet {
    pub name: String,
    pub value: String,
}

/// One line of the dataset. Field order is column order; an `Option` is written as null, never
/// left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub run_id: String,
    pub model: String,
    pub kg: String,
    pub kg_fingerprint: String,
    pub method: Task,
    pub question_id: String,
    pub positive_id: String,
    pub prompt: String,
    pub context: Option<String>,
    pub relation: String,
    pub subject: String,
    pub predicate: String,
    pub object: String,
    pub subject_label: String,
    pub object_label: String,
    pub head_type: Option<String>,
    pub tail_type: Option<String>,
    pub year: Option<i32>,
    pub replaced: Option<Corruption>,
    pub gold: String,
    pub options: Option<Vec<String>>,
    pub accepted: Option<Vec<String>>,
    pub response: String,
    pub answer: String,
    pub verdict: Verdict,
    pub outcome: OutcomeKind,
    pub stage: Stage,
    pub attempts: usize,
    pub completion_tokens: u64,
    pub temperature: f32,
    pub facets: Vec<Facet>,
}

/// The row of one record of the run `m`.
pub fn row(m: &Manifest, r: &ResultRecord) -> Row {
    let q = &r.question;
    let method = crate::method::of(q.task);
    let options = q.gold.choice().map(|(options, _)| options.to_vec());
    let names = q.gold.open_names();
    let accepted = (!names.is_empty()).then(|| names.into_iter().map(String::from).collect());
    // In the gold answer's words, so `answer == gold` reads as it should: "no", "B) Lima".
    let answer = match r.answer() {
        Answer::Bool { value } => {
            let (t, f) = method.truth_words();
            if value { t } else { f }.to_string()
        }
        Answer::Choice { index } => match options.as_ref().and_then(|o| o.get(index)) {
            Some(text) => format!("{}) {text}", crate::questions::gold::choice_letter(index)),
            None => crate::questions::gold::choice_letter(index).to_string(),
        },
        other => other.describe(),
    };
    Row {
        run_id: m.run_id.clone(),
        model: m.model_id.clone(),
        kg: m.kg_source.clone(),
        kg_fingerprint: m.kg_fingerprint.clone(),
        method: q.task,
        question_id: q.id.clone(),
        positive_id: q.positive_id.clone(),
        prompt: q.prompt.clone(),
        context: q.context.clone(),
        relation: q.relation.clone(),
        subject: q.subject.clone(),
        predicate: q.predicate.clone(),
        object: q.object.clone(),
        subject_label: q.subject_label.clone(),
        object_label: q.object_label.clone(),
        head_type: q.head_type.clone(),
        tail_type: q.tail_type.clone(),
        year: q.year,
        replaced: q.negative,
        gold: method.gold_text(q),
        options,
        accepted,
        response: r.response().to_string(),
        answer,
        verdict: r.verdict,
        outcome: r.outcome,
        stage: r.stage(),
        attempts: r.attempts.len(),
        completion_tokens: r.completion_tokens(),
        temperature: m.config.params.temperature,
        facets: method
            .facets(q)
            .into_iter()
            .map(|(name, value)| Facet { name, value })
            .collect(),
    }
}

/// [`Row`] as Parquet: its columns in order, typed whatever the values (a column null on every
/// row still has its type), lists in the standard three-level layout pyarrow reads as lists.
const PARQUET_SCHEMA: &str = "message row {
    required binary run_id (STRING);
    required binary model (STRING);
    required binary kg (STRING);
    required binary kg_fingerprint (STRING);
    required binary method (STRING);
    required binary question_id (STRING);
    required binary positive_id (STRING);
    required binary prompt (STRING);
    optional binary context (STRING);
    required binary relation (STRING);
    required binary subject (STRING);
    required binary predicate (STRING);
    required binary object (STRING);
    required binary subject_label (STRING);
    required binary object_label (STRING);
    optional binary head_type (STRING);
    optional binary tail_type (STRING);
    optional int64 year;
    optional binary replaced (STRING);
    required binary gold (STRING);
    optional group options (LIST) { repeated group list { required binary element (STRING); } }
    optional group accepted (LIST) { repeated group list { required binary element (STRING); } }
    required binary response (STRING);
    required binary answer (STRING);
    required binary verdict (STRING);
    required binary outcome (STRING);
    required binary stage (STRING);
    required int64 attempts;
    required int64 completion_tokens;
    required float temperature;
    required group facets (LIST) { repeated group list { required group element {
        required binary name (STRING); required binary value (STRING); } } }
}";

/// Writes `rows` as one Parquet file (one row group, uncompressed) of [`PARQUET_SCHEMA`].
pub fn write_parquet<W: std::io::Write + Send>(
    rows: &[Row],
    out: W,
) -> parquet::errors::Result<()> {
    let mut w = ParquetWriter::new(out)?;
    w.write_group(rows)?;
    w.finish()
}

/// Rows written as they come, a row group at a time (uncompressed, [`PARQUET_SCHEMA`]): an
/// export holds one group's rows, never the whole dataset.
pub struct ParquetWriter<W: std::io::Write + Send> {
    file: parquet::file::writer::SerializedFileWriter<W>,
    leaves: parquet::schema::types::SchemaDescriptor,
}

/// Rows in a row group of a streamed export.
pub const PARQUET_GROUP_ROWS: usize = 65_536;

impl<W: std::io::Write + Send> ParquetWriter<W> {
    pub fn new(out: W) -> parquet::errors::Result<Self> {
        let schema =
            std::sync::Arc::new(parquet::schema::parser::parse_message_type(PARQUET_SCHEMA)?);
        let file = parquet::file::writer::SerializedFileWriter::new(
            out,
            schema.clone(),
            Default::default(),
        )?;
        Ok(ParquetWriter {
            file,
            leaves: parquet::schema::types::SchemaDescriptor::new(schema),
        })
    }

    pub fn finish(self) -> parquet::errors::Result<()> {
        self.file.close()?;
        Ok(())
    }

    /// Writes `rows` as one row group.
    pub fn write_group(&mut self, rows: &[Row]) -> parquet::errors::Result<()> {
        use parquet::basic::Type as Physical;
        use parquet::data_type::{ByteArray, ByteArrayType, FloatType, Int64Type};
        use serde_json::Value;
        let values: Vec<Value> = rows
            .iter()
            .map(|r| serde_json::to_value(r).expect("a row is JSON"))
            .collect();
        let leaves = &self.leaves;
        let mut group = self.file.next_row_group()?;
        for leaf in leaves.columns() {
            let path = leaf.path().parts();
            let (max_def, list) = (leaf.max_def_level(), leaf.max_rep_level() > 0);
            // A list's items, or a struct field of each (`facets.list.element.name`).
            let field = |item: &Value| match path.get(3) {
                Some(name) => item[name.as_str()].clone(),
                None => item.clone(),
            };
            // This leaf's values, definition and repetition levels, row by row.
            let (mut items, mut def, mut rep) = (vec![], vec![], vec![]);
            for row in &values {
                match &row[path[0].as_str()] {
                    Value::Array(a) if list && !a.is_empty() => {
                        for (i, item) in a.iter().enumerate() {
                            items.push(field(item));
                            def.push(max_def);
                            rep.push(i16::from(i > 0));
                        }
                    }
                    // An empty list is defined down to the list, a null one not at all.
                    Value::Array(_) | Value::Null => {
                        def.push(if row[path[0].as_str()].is_null() {
                            0
                        } else {
                            max_def - 1
                        });
                        rep.push(0);
                    }
                    v => {
                        items.push(v.clone());
                        def.push(max_def);
                        rep.push(0);
                    }
                }
            }
            let def = (max_def > 0).then_some(&def[..]);
            let rep = list.then_some(&rep[..]);
            let mut column = group.next_column()?.expect("a writer per leaf column");
            match leaf.physical_type() {
                Physical::INT64 => {
                    let ints: Vec<i64> = items.iter().filter_map(Value::as_i64).collect();
                    column.typed::<Int64Type>().write_batch(&ints, def, rep)?
                }
                Physical::FLOAT => {
                    let floats: Vec<f32> = items
                        .iter()
                        .filter_map(|v| Some(v.as_f64()? as f32))
                        .collect();
                    column.typed::<FloatType>().write_batch(&floats, def, rep)?
                }
                _ => {
                    let texts: Vec<ByteArray> = items
                        .iter()
                        .map(|v| ByteArray::from(v.as_str().unwrap_or_default()))
                        .collect();
                    column
                        .typed::<ByteArrayType>()
                        .write_batch(&texts, def, rep)?
                }
            };
            column.close()?;
        }
        group.close()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::{tests_support, Accepted, Gold};
    use crate::run::{Attempt, ModelSpec, RunConfig};
    use serde_json::Value;

    fn manifest(task: Task) -> Manifest {
        Manifest {
            schema_version: 2,
            run_id: "r1".into(),
            tool_version: "0".into(),
            created_at: "2026-01-01T00:00:00Z".into(),
            config: RunConfig::new(
                "sample:countries",
                ModelSpec::parse("default", None, "K").unwrap(),
                task,
                10,
            ),
            kg_source: "sample:countries".into(),
            kg_fingerprint: "f".into(),
            kg_profile: None,
            model_id: "m".into(),
            prompt: None,
            questions: 3,
            selection: None,
            not_asked: vec![],
            finished_at: None,
            extra: Default::default(),
        }
    }

    fn record(gold: Gold, task: Task, answer: Answer) -> ResultRecord {
        let mut q = tests_support::question();
        q.task = task;
        q.gold = gold;
        ResultRecord {
            question: q,
            attempts: vec![Attempt {
                response: "B".into(),
                verdict: Verdict::True,
                answer: Some(answer),
                rule: "r".into(),
                stage: Stage::Rules,
                judge: None,
                compound: None,
                trained: None,
                likelihood: None,
                prompt_tokens: 5,
                completion_tokens: 2,
                first_token_ms: 1,
                total_ms: 2,
                finish_reason: "stop".into(),
            }],
            verdict: Verdict::True,
            outcome: OutcomeKind::Correct,
            trace: String::new(),
            finished_at: String::new(),
        }
    }

    /// A row of each kind of gold answer, as JSON objects.
    fn rows() -> Vec<serde_json::Map<String, Value>> {
        let cases = [
            record(Gold::yes(), Task::Yesno, Answer::Bool { value: false }),
            record(
                Gold::Choice {
                    options: vec!["Quito".into(), "Lima".into()],
                    correct: 1,
                },
                Task::McqWh,
                Answer::Choice { index: 1 },
            ),
            record(
                Gold::Texts {
                    accepted: vec![Accepted {
                        label: "Lima".into(),
                        aliases: vec!["Ciudad de los Reyes".into()],
                        ..Default::default()
                    }],
                },
                Task::Saq,
                Answer::Abstained,
            ),
        ];
        cases
            .iter()
            .map(
                |r| match serde_json::to_value(row(&manifest(r.question.task), r)).unwrap() {
                    Value::Object(o) => o,
                    v => panic!("a row is an object, not {v}"),
                },
            )
            .collect()
    }

    #[test]
    fn answers_read_in_the_words_of_the_gold_answer() {
        let rows = rows();
        assert_eq!(
            (&rows[0]["gold"], &rows[0]["answer"]),
            (&"yes".into(), &"no".into())
        );
        assert_eq!(rows[1]["gold"], rows[1]["answer"]);
        assert_eq!(rows[1]["answer"], "B) Lima");
        assert_eq!(rows[1]["options"], serde_json::json!(["Quito", "Lima"]));
        assert_eq!(rows[2]["answer"], "idk");
        assert_eq!(
            rows[2]["accepted"],
            serde_json::json!(["Lima", "Ciudad de los Reyes"])
        );
        assert_eq!(rows[0]["options"], Value::Null);
        assert_eq!(rows[0]["method"], "yesno");
        assert_eq!(rows[0]["temperature"].as_f64(), Some(0.0));
    }

    /// The columns and types README.md's "Datasets" table documents: `(column, type)`.
    fn documented() -> Vec<(String, String)> {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
        let section = readme
            .split("\n### Datasets\n")
            .nth(1)
            .expect("README.md has a \"### Datasets\" section");
        let section = section.split("\n#").next().unwrap();
        section
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l.trim().strip_prefix('|')?.split('|').collect();
                let column = cells.first()?.trim().strip_prefix('`')?.strip_suffix('`')?;
                Some((column.to_string(), cells.get(1)?.trim().to_string()))
            })
            .collect()
    }

    /// Whether `v` is of the documented `ty` ("string", "int or null", "list of strings", ...).
    fn of_type(v: &Value, ty: &str) -> bool {
        let (ty, nullable) = match ty.strip_suffix(" or null") {
            Some(t) => (t, true),
            None => (ty, false),
        };
        match (v, ty) {
            (Value::Null, _) => nullable,
            (Value::String(_), "string") => true,
            (Value::Number(n), "int") => n.is_u64() || n.is_i64(),
            (Value::Number(n), "float") => n.is_f64(),
            (Value::Array(a), "list of strings") => a.iter().all(Value::is_string),
            (Value::Array(a), "list of {name, value}") => a.iter().all(|f| {
                f.as_object().is_some_and(|o| {
                    o.len() == 2 && o["name"].is_string() && o["value"].is_string()
                })
            }),
            _ => false,
        }
    }

    /// The Parquet file holds the rows the JSON Lines hold, with the README's columns in order.
    #[test]
    fn parquet_reads_back_as_the_json_rows() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let records: Vec<ResultRecord> = [Task::Yesno, Task::McqWh]
            .into_iter()
            .map(|t| {
                let mut r = record(Gold::yes(), t, Answer::Bool { value: true });
                r.question.year = Some(1990);
                r
            })
            .collect();
        let mut rows: Vec<Row> = records
            .iter()
            .map(|r| row(&manifest(Task::Yesno), r))
            .collect();
        rows[1].options = Some(vec![]);
        rows[1].facets = vec![Facet {
            name: "edit".into(),
            value: "NSC".into(),
        }];
        rows[1].context = Some("c".into());
        let mut file = tempfile::tempfile().unwrap();
        write_parquet(&rows, &mut file).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        let names: Vec<String> = reader
            .metadata()
            .file_metadata()
            .schema()
            .get_fields()
            .iter()
            .map(|f| f.name().to_string())
            .collect();
        let documented: Vec<String> = documented().into_iter().map(|(c, _)| c).collect();
        assert_eq!(names, documented);
        let back: Vec<Value> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_json_value())
            .collect();
        // The record API reads a list's three levels back as a list, a struct as an object.
        let json: Vec<Value> = rows
            .iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect();
        assert_eq!(back, json);
    }

    #[test]
    fn the_readme_documents_every_column_with_its_type() {
        let documented = documented();
        for row in rows() {
            let mut keys: Vec<&str> = row.keys().map(String::as_str).collect();
            let mut names: Vec<&str> = documented.iter().map(|(c, _)| c.as_str()).collect();
            keys.sort_unstable();
            names.sort_unstable();
            assert_eq!(
                keys, names,
                "README.md's Datasets table and the rows differ"
            );
            for (column, ty) in &documented {
                assert!(
                    of_type(&row[column], ty),
                    "column {column}: {} is not a {ty}",
                    row[column]
                );
            }
        }
    }
}

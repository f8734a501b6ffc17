//! The sample KGs' questions, every method, as snapshots: the KGs written for kgscope are read
//! under the generic profile, and profiles (issue 37) or new wording for other KGs must not
//! change a word of them. The snapshots were checked equal to the questions of the release
//! before profiles (150 a method and sample, over 1,500 a sample).

use kgscope::core::question::FpqOptions;
use kgscope::kg::{self, KgIndex};
use kgscope::questions::{GenerateOptions, Task, TemplateSet};

#[test]
fn the_sample_kgs_questions_are_unchanged_under_the_generic_profile() {
    let templates = TemplateSet::builtin();
    for sample in ["countries", "elements", "nba"] {
        let kg = kg::open(&format!("sample:{sample}")).unwrap();
        let index = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
        assert_eq!(index.profile().name, "generic", "{sample}");
        let mut text = String::new();
        for task in Task::ALL {
            let opts = GenerateOptions {
                task,
                limit: 30,
                fpq: (task == Task::KgFpq).then(FpqOptions::default),
                ..GenerateOptions::default()
            };
            let (qs, _) = kgscope::method::generate(&index, &templates, &opts).unwrap();
            text.push_str(&format!("## {} ({} questions)\n", task.as_str(), qs.len()));
            for q in qs {
                text.push_str(&q.prompt);
                text.push('\n');
            }
        }
        insta::assert_snapshot!(format!("sample-questions-{sample}"), text);
    }
}

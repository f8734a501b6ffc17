//! A local store's index kept on disk between opens, next to the store, so that reopening a
//! big store reads a file instead of scanning every quad again.
//!
//! The file is valid for one state of the store: its key is a digest of the store's files
//! (names, sizes, modification times; RocksDB writes new files whenever data changes, and
//! `kgscope kg load` into the store changes them) and of this build's index format. Any
//! mismatch, or a file that cannot be read, means the index is built again from the store and
//! the file replaced; nothing is ever read from a file written for another state.
//!
//! The file is sealed ([`crate::durable`]): a first line `kgscope index FORMAT bytes=N
//! sha256=HEX`, then the index in postcard. A file whose length or digest does not match
//! (a flipped bit, a cut, bytes appended) is damaged: never decoded, reported with its path,
//! and built again from the store, like a file for another state. It is written durably
//! (synced before and after its rename), so a power loss leaves the old file or the new one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use oxigraph::model::{BlankNode, Literal, NamedNode, Term};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::index::{Fact, Id, KgIndex, Parts, RelationStat};

/// What the seal's tag starts with, then [`FORMAT`]: a file of another kind or layout is
/// never parsed.
const KIND: &str = "kgscope index";
/// The first line of the files of formats 1 and 2 (unsealed): built again without a word.
const UNSEALED: &[u8] = b"kgscope index\n";
/// Bumped whenever [`Saved`], its layout on disk or what goes into an index changes.
/// 3: sealed by its length and sha256. 4: built under a profile, with page counters.
const FORMAT: u32 = 4;

fn tag() -> String {
    format!("{KIND} {FORMAT}")
}

/// Where a store's index is kept and the state of the store it must match.
pub struct Slot {
    pub path: PathBuf,
    key: String,
}

#[derive(Serialize, Deserialize)]
enum SavedTerm {
    Iri(String),
    Blank(String),
    Lang(String, String),
    Typed(String, String),
}

#[derive(Serialize, Deserialize)]
struct Saved {
    key: String,
    terms: Vec<SavedTerm>,
    facts: Vec<Fact>,
    labels: Vec<(Id, String)>,
    other_labels: Vec<(Id, Vec<String>)>,
    aliases: Vec<(Id, Vec<String>)>,
    types: Vec<(Id, Vec<Id>)>,
    qualifier_years: Vec<(Fact, i32)>,
    fingerprint: String,
    /// (predicate, facts, head type, tail type), in the index's order.
    relations: Vec<(Id, u64, Option<Id>, Option<Id>)>,
    /// Popularity counters ([`super::profile::shape::Counters`]).
    counters: Vec<(Id, super::profile::shape::Counters)>,
}

fn saved_term(t: &Term) -> SavedTerm {
    match t {
        Term::NamedNode(n) => SavedTerm::Iri(n.as_str().into()),
        Term::BlankNode(b) => SavedTerm::Blank(b.as_str().into()),
        Term::Literal(l) => match l.language() {
            Some(lang) => SavedTerm::Lang(l.value().into(), lang.into()),
            None => SavedTerm::Typed(l.value().into(), l.datatype().as_str().into()),
        },
        #[allow(unreachable_patterns)]
        _ => SavedTerm::Iri(String::new()),
    }
}

/// The term back. The strings were valid when saved, and the file is the one this build
/// wrote for this store (seal, key and format checked), so they are taken without validation.
fn term(t: SavedTerm) -> Term {
    match t {
        SavedTerm::Iri(i) => NamedNode::new_unchecked(i).into(),
        SavedTerm::Blank(b) => BlankNode::new_unchecked(b).into(),
        SavedTerm::Lang(v, lang) => Literal::new_language_tagged_literal_unchecked(v, lang).into(),
        SavedTerm::Typed(v, dt) => {
            Literal::new_typed_literal(v, NamedNode::new_unchecked(dt)).into()
        }
    }
}

fn sorted<V>(map: &HashMap<Id, V>) -> Vec<(Id, V)>
where
    V: Clone,
{
    let mut v: Vec<(Id, V)> = map.iter().map(|(k, v)| (*k, v.clone())).collect();
    v.sort_unstable_by_key(|(k, _)| *k);
    v
}

/// A digest of the store directory's files: changes whenever the store's data does. Its
/// logs and lock, which a read-only open may touch, are left out.
fn store_state(dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !meta.is_file() || name.starts_with("LOG") || name == "LOCK" {
            continue;
        }
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        files.push((name, meta.len(), modified));
    }
    files.sort();
    let mut h = Sha256::new();
    h.update(FORMAT.to_le_bytes());
    for (name, len, modified) in files {
        h.update(format!("{name}\t{len}\t{modified}\n").as_bytes());
    }
    Ok(hex::encode(h.finalize()))
}

impl Slot {
    /// The slot of the oxigraph store in `dir`: the file `<dir>.kgscope-index` beside it.
    /// `None` when the store's state cannot be read.
    pub fn for_store(dir: &Path) -> Option<Slot> {
        let dir = dir.canonicalize().ok()?;
        let name = dir.file_name()?.to_string_lossy().into_owned();
        let path = dir.with_file_name(format!("{name}.kgscope-index"));
        Some(Slot {
            key: store_state(&dir).ok()?,
            path,
        })
    }

    /// The slot of the same store for an index built under another profile: the key takes
    /// the profile's ([`super::profile::Profile::key`]).
    pub fn keyed(mut self, profile_key: &str) -> Slot {
        self.key = format!("{} profile {profile_key}", self.key);
        self
    }

    /// The saved index, when there is one for this state of the store. `Ok(None)`: none, or
    /// saved for another state or by another format; `Err`: the file is there but unreadable
    /// or damaged (the error names the file and what is wrong with it); never an index read
    /// from a file that is not exactly as this build wrote it.
    pub fn load(&self) -> Result<Option<KgIndex>, String> {
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", self.path.display())),
        };
        let damaged = |what: &dyn std::fmt::Display| {
            format!(
                "{}: damaged: it {what}; it is not used (built again from the store and \
                 written anew)",
                self.path.display()
            )
        };
        if bytes.starts_with(UNSEALED) {
            // Written by a kgscope before the seal: another format, replaced without a word.
            return Ok(None);
        }
        let (tag, payload) = crate::durable::unseal(&bytes).map_err(|e| damaged(&e))?;
        if tag != self::tag() {
            // A good seal over another tag: a format of another kgscope, or not an index.
            return match tag.strip_prefix(KIND) {
                Some(_) => Ok(None),
                None => Err(damaged(&format_args!(
                    "is sealed as {:?}, not as a kgscope index",
                    crate::sanitize::line(tag)
                ))),
            };
        }
        // Sealed by this build: a decoding error is a bug, not damage, but is refused the same.
        let saved: Saved = postcard::from_bytes(payload)
            .map_err(|e| damaged(&format_args!("cannot be decoded ({e})")))?;
        if saved.key != self.key {
            return Ok(None);
        }
        let terms: Vec<Term> = saved.terms.into_iter().map(term).collect();
        let ids: HashMap<Term, Id> = terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as Id))
            .collect();
        // Every id names a term: a file damaged in a way its decoding missed is refused
        // here, not met as a panic later.
        let n = terms.len() as Id;
        let ids_ok = saved.facts.iter().flatten().all(|&i| i < n)
            && saved.labels.iter().all(|(i, _)| *i < n)
            && saved.other_labels.iter().all(|(i, _)| *i < n)
            && saved.aliases.iter().all(|(i, _)| *i < n)
            && saved
                .types
                .iter()
                .all(|(i, ts)| *i < n && ts.iter().all(|t| *t < n))
            && saved
                .qualifier_years
                .iter()
                .all(|(f, _)| f.iter().all(|&i| i < n))
            && saved
                .relations
                .iter()
                .all(|(p, _, h, t)| *p < n && h.is_none_or(|h| h < n) && t.is_none_or(|t| t < n));
        if ids.len() != terms.len() || !ids_ok {
            return Err(damaged(&"names terms it does not hold"));
        }
        Ok(Some(KgIndex::from_parts(Parts {
            terms,
            ids,
            facts: saved.facts,
            labels: saved.labels.into_iter().collect(),
            other_labels: saved.other_labels.into_iter().collect(),
            aliases: saved.aliases.into_iter().collect(),
            types: saved.types.into_iter().collect(),
            qualifier_years: saved.qualifier_years.into_iter().collect(),
            fingerprint: saved.fingerprint,
            relations: Some(
                saved
                    .relations
                    .into_iter()
                    .map(|(predicate, count, head_type, tail_type)| RelationStat {
                        predicate,
                        count: count as usize,
                        head_type,
                        tail_type,
                    })
                    .collect(),
            ),
            counters: saved.counters.into_iter().filter(|(i, _)| *i < n).collect(),
        })))
    }

    /// Saves `index` for this state of the store, sealed, whole or not at all, and durably
    /// ([`crate::durable::write_atomic`]).
    pub fn save(&self, index: &KgIndex) -> Result<(), String> {
        let mut qualifier_years: Vec<(Fact, i32)> = index
            .qualifier_years
            .iter()
            .map(|(f, y)| (*f, *y))
            .collect();
        qualifier_years.sort_unstable();
        let saved = Saved {
            key: self.key.clone(),
            terms: index.terms.iter().map(saved_term).collect(),
            facts: index.facts.clone(),
            labels: sorted(&index.labels),
            other_labels: sorted(&index.other_labels),
            aliases: sorted(&index.aliases),
            types: sorted(&index.types),
            qualifier_years,
            fingerprint: index.fingerprint.clone(),
            relations: index
                .relations
                .iter()
                .map(|r| (r.predicate, r.count as u64, r.head_type, r.tail_type))
                .collect(),
            counters: sorted(&index.counters),
        };
        let failed = |e: &dyn std::fmt::Display| format!("{}: {e}", self.path.display());
        // Whole in memory first: the seal's line, before it, holds its length and digest.
        let payload = postcard::to_stdvec(&saved).map_err(|e| failed(&e))?;
        crate::durable::write_atomic(&self.path, |w| {
            crate::durable::write_sealed(w, &tag(), &payload)
        })
        .map_err(|e| failed(&e))
    }
}

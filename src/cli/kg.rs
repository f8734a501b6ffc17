//! `kgscope kg load|stats|show|samples|profile`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use kgscope::kg::load::{self, LoadOptions};
use kgscope::kg::{self, info, KgIndex, KnowledgeGraph};
use kgscope::sanitize::line as clean;

use super::progress;
use super::KgArg;

#[derive(Args)]
pub struct LoadArgs {
    /// RDF files: .ttl .nt .nq .trig .rdf/.xml/.owl .n3, each optionally .gz.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The store directory (created if missing; loading adds to what it holds).
    #[arg(long)]
    pub store: PathBuf,
    /// Skip bad statements and report how many, instead of stopping at the first.
    #[arg(long)]
    pub lenient: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn load(a: LoadArgs) -> anyhow::Result<ExitCode> {
    for f in &a.files {
        load::detect_format(f)?;
        if !f.is_file() {
            bail!("{}: no such file", f.display());
        }
    }
    let store = oxigraph::store::Store::open(&a.store).with_context(|| {
        format!(
            "opening store {} (is another kgscope using it?)",
            a.store.display()
        )
    })?;
    // A load killed before its commit leaves its sorted runs behind; the store is ours now
    // (RocksDB's lock is held), so no other loader can be writing them.
    match load::remove_stale_bulk_files(&a.store) {
        Ok((0, _)) => {}
        Ok((n, bytes)) => eprintln!(
            "removed {n} file(s) ({:.1} MB) left in {} by an interrupted load",
            bytes as f64 / 1e6,
            a.store.display()
        ),
        Err(e) => eprintln!(
            "warning: could not remove the files an interrupted load left in {}: {e}",
            a.store.display()
        ),
    }
    let before = store.len().unwrap_or(0);
    let started = Instant::now();
    let bar = progress::counter(None, "triples");
    bar.set_message("loading");
    let report = load::load_files(
        &store,
        &a.files,
        &LoadOptions { lenient: a.lenient },
        &|p| bar.set_position(p.done),
    );
    bar.finish_and_clear();
    let report = report.with_context(|| {
        format!(
            "nothing was loaded; store {} is unchanged",
            a.store.display()
        )
    })?;
    let secs = started.elapsed().as_secs_f64();
    if a.json {
        println!("{}", kgscope::sanitize::json_pretty(&report)?);
    } else {
        println!(
            "loaded {} statements from {} file(s) in {:.1}s ({} triples/s); store {} now holds {} triples (was {})",
            report.statements,
            report.files,
            secs,
            progress::rate(report.statements as f64 / secs.max(1e-9)),
            a.store.display(),
            report.store_triples,
            before
        );
        if report.skipped > 0 {
            println!(
                "skipped {} bad statement(s); first: {}",
                report.skipped,
                clean(report.first_skipped_error.as_deref().unwrap_or("?"))
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Opens a KG and builds its index, with a spinner.
pub fn open_indexed(
    spec: &str,
    draw: Option<&kgscope::kg::bounded::Draw>,
) -> anyhow::Result<kgscope::run::session::OpenKg> {
    let shown = clean(&kgscope::credentials::redact(spec));
    let sp = progress::spinner(&format!("opening {shown}"));
    let opened = kgscope::run::session::open_kg(spec, draw, &|step| {
        sp.set_message(format!("{shown}: {step}"))
    })?;
    sp.finish_and_clear();
    Ok(opened)
}

/// Opens the KG `spec` for a command that takes `--entity`, and resolves those names to IRIs.
/// Read whole, the KG is indexed first (an unknown name then gets near matches); sampled
/// (`sampled`), the names are resolved on the KG itself and `draw` is given the IRIs, since
/// the entities a command names are drawn too.
pub fn open_with_entities(
    spec: &str,
    names: &[String],
    sampled: bool,
    draw: impl FnOnce(&[String]) -> Option<kgscope::kg::bounded::Draw>,
    progress: &dyn Fn(&str),
) -> anyhow::Result<(kgscope::run::session::OpenKg, Vec<String>)> {
    use kgscope::run::session;
    if !sampled {
        let opened = session::open_kg(spec, None, progress)?;
        let iris = entity_iris(opened.kg.as_ref(), spec, names, Some(&opened.index))?;
        return Ok((opened, iris));
    }
    let kg: std::sync::Arc<dyn KnowledgeGraph> = std::sync::Arc::from(kg::open(spec)?);
    let iris = entity_iris(kg.as_ref(), spec, names, None)?;
    let opened = session::index_kg(kg, draw(&iris).as_ref(), progress)?;
    Ok((opened, iris))
}

/// How many near matches an unknown `--entity` lists.
const NEAR_MATCHES: usize = 5;

/// Resolves `--entity` values to IRIs with `kg show`'s lookup (an IRI, or a label or alias,
/// case-insensitive). A name no entity has fails with the nearest names the TUI's search finds
/// in `index`; a name several entities share fails with their IRIs, since asking about all of
/// them is rarely what was meant.
pub fn entity_iris(
    kg: &dyn KnowledgeGraph,
    spec: &str,
    names: &[String],
    index: Option<&KgIndex>,
) -> anyhow::Result<Vec<String>> {
    let mut iris = Vec::with_capacity(names.len());
    for name in names {
        let found = info::find_entities(kg, name)?;
        match found.as_slice() {
            [one] => iris.push(one.clone()),
            [] => {
                bail!(
                    "--entity '{}': no entity in {} has that IRI, label or alias; {}",
                    clean(name),
                    clean(spec),
                    index.map_or_else(
                        || "(on a sample of the KG no near matches are looked for)".into(),
                        |i| near_matches(i, name)
                    )
                );
            }
            many => {
                let labels = info::labels_for(kg, many)?;
                bail!(
                    "--entity '{}' names {} entities in {}: {}; give the IRI of the one you mean",
                    clean(name),
                    many.len(),
                    clean(spec),
                    many.iter()
                        .map(|iri| match labels.get(iri) {
                            Some(l) => format!("{} <{}>", clean(l), clean(iri)),
                            None => format!("<{}>", clean(iri)),
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
    }
    iris.sort();
    iris.dedup();
    Ok(iris)
}

/// The sentence an unknown `--entity` error ends with: the entities the TUI's search ranks
/// first for `name` (for an IRI, for its local name), or what to do when there are none.
fn near_matches(index: &KgIndex, name: &str) -> String {
    use kgscope::tui::kgview::{self, EntryKind};
    let trimmed = name.trim().trim_start_matches('<').trim_end_matches('>');
    let query = if trimmed.contains("://") || trimmed.starts_with("urn:") {
        kg::vocab::local_name(trimmed)
    } else {
        trimmed.to_string()
    };
    let entries = kgview::entries(index);
    let near: Vec<String> = kgview::search(&entries, &query, &mut kgview::new_matcher())
        .entries
        .into_iter()
        .map(|i| &entries[i])
        .filter(|e| e.kind == EntryKind::Entity)
        .take(NEAR_MATCHES)
        .map(|e| format!("{} <{}>", e.label, clean(kg::term_str(index.term(e.id)))))
        .collect();
    if near.is_empty() {
        "nothing is close either: search the KG with `/` in `kgscope tui --kg …`".into()
    } else {
        format!("near matches: {}", near.join(", "))
    }
}

#[derive(Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub kg: KgArg,
    /// Print the statistics as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn stats(a: StatsArgs) -> anyhow::Result<ExitCode> {
    a.kg.apply(&[]);
    let kgscope::run::session::OpenKg { kg, index } = open_indexed(&a.kg.kg, None)?;
    let s = info::stats(kg.as_ref(), &index)?;
    if a.json {
        println!("{}", kgscope::sanitize::json_pretty(&s)?);
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    println!("KG            {}", clean(&s.source));
    println!("fingerprint   {}", s.fingerprint);
    println!("triples       {}", s.triples);
    println!(
        "facts         {}  (triples other than labels, aliases, types, descriptions)",
        s.facts
    );
    println!("entities      {}", s.entities);
    println!(
        "labelled      {} ({})",
        s.labelled_entities,
        pct(s.label_coverage)
    );
    println!("with aliases  {}", s.entities_with_aliases);
    println!("typed         {}", s.typed_entities);
    match s.year_range {
        Some((lo, hi)) => println!(
            "with dates    {} ({}), years {lo}..{hi}",
            s.entities_with_dates,
            pct(s.date_coverage)
        ),
        None => println!("with dates    0"),
    }
    println!("\nrelations ({}):", s.relations.len());
    println!(
        "  {:>7}  {:<28} {:<18} {:<18}",
        "facts", "relation", "head type", "tail type"
    );
    // Padded by display columns, never cut: a relation's label is what `--relation` takes.
    let pad = |s: String, w: usize| {
        let room = w.saturating_sub(kgscope::display_width::width(&s));
        s + &" ".repeat(room)
    };
    for r in &s.relations {
        println!(
            "  {:>7}  {} {} {}",
            r.count,
            pad(clean(&r.label), 28),
            pad(clean(r.head_type.as_deref().unwrap_or("-")), 18),
            pad(clean(r.tail_type.as_deref().unwrap_or("-")), 18)
        );
    }
    println!("\nmost common types:");
    for t in &s.top_types {
        println!("  {:>7}  {}", t.entities, clean(&t.label));
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub kg: KgArg,
    /// An IRI, or a label or alias (case-insensitive).
    pub entity: String,
    /// 1: the entity's own edges; 2: also its neighbours' edges.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub hops: u8,
    /// Print the entity and its edges as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn show(a: ShowArgs) -> anyhow::Result<ExitCode> {
    let kg = kg::open(&a.kg.kg)?;
    let found = info::find_entities(kg.as_ref(), &a.entity)?;
    let iri = match found.as_slice() {
        [] => bail!(
            "no entity with IRI, label or alias '{}' in {}",
            clean(&a.entity),
            clean(&kgscope::credentials::redact(&a.kg.kg))
        ),
        [one] => one.clone(),
        many => {
            eprintln!(
                "'{}' matches {} entities; showing the first. All:",
                clean(&a.entity),
                many.len()
            );
            for m in many {
                eprintln!("  {}", clean(m));
            }
            many[0].clone()
        }
    };
    let e = info::entity_info(kg.as_ref(), &iri, a.hops)?;
    if a.json {
        println!("{}", kgscope::sanitize::json_pretty(&e)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}  <{}>", clean(&e.label), clean(&e.iri));
    if e.labels.len() > 1 {
        println!("labels   {}", clean(&e.labels.join(" | ")));
    }
    println!(
        "aliases  {}",
        if e.aliases.is_empty() {
            "-".into()
        } else {
            clean(&e.aliases.join(" | "))
        }
    );
    println!(
        "types    {}",
        if e.types.is_empty() {
            "-".into()
        } else {
            clean(&e.types.join(", "))
        }
    );
    for (rel, value) in &e.dates {
        println!("date     {}: {}", clean(rel), clean(value));
    }
    println!(
        "degree   {} ({} out, {} in)",
        e.degree,
        e.outgoing.len(),
        e.incoming.len()
    );
    println!("\noutgoing:");
    for ed in &e.outgoing {
        println!(
            "  {} → {}",
            clean(&ed.predicate_label),
            clean(&ed.other_label)
        );
    }
    println!("\nincoming:");
    for ed in &e.incoming {
        println!(
            "  {} ← {}",
            clean(&ed.predicate_label),
            clean(&ed.other_label)
        );
    }
    for (n, edges) in &e.second_hop {
        println!("\nvia {}:", clean(n));
        for ed in edges {
            println!(
                "  {} → {}",
                clean(&ed.predicate_label),
                clean(&ed.other_label)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn samples() -> anyhow::Result<ExitCode> {
    for name in kg::samples::names() {
        let ttl = kg::samples::turtle(name).unwrap_or_default();
        let source = ttl
            .lines()
            .find(|l| l.starts_with('#'))
            .unwrap_or("")
            .trim_start_matches('#')
            .trim();
        println!("sample:{name:<12} {source}");
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct ProfileArgs {
    #[command(flatten)]
    pub kg: KgArg,
    /// Relations shown with their counts, types and a question (the largest first).
    #[arg(long, default_value_t = 40)]
    pub relations: usize,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One relation as `kg profile` shows it.
#[derive(serde::Serialize)]
struct ProfiledRelation {
    #[serde(flatten)]
    info: info::RelationInfo,
    /// Facts of the relation dated by a qualifier on their statement.
    dated_by_qualifier: usize,
    question: Option<String>,
}

#[derive(serde::Serialize)]
struct ProfileReport {
    profile: kg::profile::Profile,
    source: String,
    facts: usize,
    entities: usize,
    labelled_entities: usize,
    typed_entities: usize,
    types: usize,
    entities_with_counters: usize,
    relations: Vec<ProfiledRelation>,
    /// Triples left out of the facts, by reason, then by predicate.
    left_out: kg::profile::LeftOut,
}

/// `kgscope kg profile`: what kgscope will treat as facts, names, types and qualifiers under
/// the profile it reads the KG with, and what it leaves out and why.
pub fn profile(a: ProfileArgs) -> anyhow::Result<ExitCode> {
    a.kg.apply(&[]);
    let kg = kg::open(&a.kg.kg)?;
    let p = kg::profile::chosen(kg.as_ref())?;
    let shown = clean(&kgscope::credentials::redact(&a.kg.kg));
    let sp = progress::spinner(&format!("reading {shown}"));
    let (index, left_out) = if p.is_generic() {
        let index =
            KgIndex::build_fresh_with(kg.as_ref(), &p, &|s: &str| sp.set_message(s.to_string()))?;
        (index, kg::profile::LeftOut::default())
    } else {
        KgIndex::build_profiled(kg.as_ref(), &p, &|s: &str| sp.set_message(s.to_string()))?
    };
    sp.finish_and_clear();
    let templates = kgscope::questions::TemplateSet::builtin();
    let renderer = kgscope::questions::Renderer {
        index: &index,
        templates: &templates,
        seed: 0,
    };
    let relations: Vec<ProfiledRelation> = info::relation_infos(&index)
        .into_iter()
        .zip(index.relations())
        .take(a.relations)
        .map(|(info, r)| {
            let facts = index.facts_of_predicate(r.predicate);
            ProfiledRelation {
                info,
                dated_by_qualifier: facts
                    .iter()
                    .filter(|&&i| index.qualifier_year(&index.facts()[i]).is_some())
                    .count(),
                question: facts
                    .first()
                    .map(|&i| renderer.statement(&index.facts()[i])),
            }
        })
        .collect();
    let entities = index.entities();
    let mut types: Vec<u32> = entities
        .iter()
        .flat_map(|&e| index.types_of(e).iter().copied())
        .collect();
    types.sort_unstable();
    types.dedup();
    let report = ProfileReport {
        source: kgscope::credentials::redact(&a.kg.kg),
        facts: index.facts().len(),
        entities: entities.len(),
        labelled_entities: entities.iter().filter(|&&e| index.has_label(e)).count(),
        typed_entities: entities
            .iter()
            .filter(|&&e| !index.types_of(e).is_empty())
            .count(),
        types: types.len(),
        entities_with_counters: entities
            .iter()
            .filter(|&&e| index.counters(e).is_some())
            .count(),
        relations,
        left_out,
        profile: p,
    };
    if a.json {
        println!("{}", kgscope::sanitize::json_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", profile_text(&report, index.relations().len()));
    Ok(ExitCode::SUCCESS)
}

fn profile_text(r: &ProfileReport, all_relations: usize) -> String {
    use std::fmt::Write;
    let p = &r.profile;
    let mut out = String::new();
    let list = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.iter().map(|x| clean(x)).collect::<Vec<_>>().join(", ")
        }
    };
    let _ = writeln!(out, "KG        {}", clean(&r.source));
    let _ = writeln!(out, "profile   {}", clean(&p.summary()));
    let langs = p.languages();
    let _ = writeln!(
        out,
        "labels    {} (languages: {})",
        list(&p.names.labels),
        if langs.is_empty() {
            "English, untagged, any".into()
        } else {
            langs.join(", ")
        }
    );
    let _ = writeln!(out, "aliases   {}", list(&p.names.aliases));
    let _ = writeln!(out, "described {}", list(&p.names.descriptions));
    let _ = writeln!(
        out,
        "types     {}{}",
        list(&p.types.predicates),
        p.types
            .subclass
            .as_ref()
            .map(|s| format!(" (most specific by {})", clean(s)))
            .unwrap_or_default()
    );
    let quals: Vec<String> = p.qualifiers.all().cloned().collect();
    let _ = writeln!(
        out,
        "qualifiers {}",
        if !quals.is_empty() {
            list(&quals)
        } else if p.is_generic() {
            "any date on a reified statement".into()
        } else {
            "-".into()
        }
    );
    let _ = writeln!(
        out,
        "\n{} facts, {} entities ({} labelled, {} typed), {} types, {} with popularity counters",
        r.facts,
        r.entities,
        r.labelled_entities,
        r.typed_entities,
        r.types,
        r.entities_with_counters
    );
    let _ = writeln!(
        out,
        "\nFacts: {} relations{}",
        all_relations,
        if all_relations > r.relations.len() {
            format!(" (the {} largest shown)", r.relations.len())
        } else {
            String::new()
        }
    );
    for rel in &r.relations {
        let i = &rel.info;
        let _ = writeln!(
            out,
            "  {} <{}>  {} facts, {} → {}{}",
            clean(&i.label),
            clean(&i.iri),
            i.count,
            clean(i.head_type.as_deref().unwrap_or("?")),
            clean(i.tail_type.as_deref().unwrap_or("?")),
            if rel.dated_by_qualifier > 0 {
                format!(", {} dated by qualifiers", rel.dated_by_qualifier)
            } else {
                String::new()
            }
        );
        if let Some(q) = &rel.question {
            let _ = writeln!(out, "      e.g. {}", clean(q));
        }
    }
    if r.left_out.0.is_empty() {
        let _ = writeln!(
            out,
            "\nLeft out: nothing beyond names, types and reification"
        );
    } else {
        let _ = writeln!(out, "\nLeft out (triples), and why:");
        for (why, preds) in &r.left_out.0 {
            let total: usize = preds.values().sum();
            let mut top: Vec<(&String, &usize)> = preds.iter().collect();
            top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let names: Vec<String> = top
                .iter()
                .take(6)
                .map(|(p, n)| format!("{} {n}", clean(&kg::vocab::local_name(p))))
                .collect();
            let _ = writeln!(
                out,
                "  {total:>8}  {}: {}{}",
                clean(why),
                names.join(", "),
                if top.len() > 6 { ", …" } else { "" }
            );
        }
    }
    out
}

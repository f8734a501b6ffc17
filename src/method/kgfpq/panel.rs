//! What KG-FPQ shows beyond the shared views: a question's premise in the drill-down (which
//! edit made it false, the true fact, the path in the KG to the replacement object), and the
//! run dialog's lines for its settings.

use super::plan::FpqConfig;
use crate::core::panel::{plural, Mark, PanelLine};
use crate::kg::KgIndex;
use crate::questions::Question;

/// A question's premise; nothing for a question without one. `index` names the true object
/// and finds the hop path when the KG is loaded.
pub fn premise(q: &Question, index: Option<&KgIndex>) -> Vec<PanelLine> {
    let Some(p) = &q.premise else {
        return vec![];
    };
    let Some(edit) = p.edit else {
        return vec![PanelLine::field(
            "premise",
            format!("true (TPQ, {})", p.format.as_str()),
        )];
    };
    let hops = p.hops.map_or(String::new(), |h| {
        format!(", {h} hop{}", plural(h as usize))
    });
    let true_object = q.true_object.as_deref().unwrap_or(&q.object);
    let true_object = index
        .and_then(|ix| ix.iri_id(true_object).map(|id| ix.label(id)))
        .unwrap_or_else(|| crate::kg::vocab::local_name(true_object));
    let mut out = vec![
        PanelLine::field(
            "premise",
            format!("false: {}{hops} ({})", edit.as_str(), p.format.as_str()),
        )
        .marked(Mark::Accent),
        PanelLine::field(
            "true fact",
            format!("{} · {} · {true_object}", q.subject_label, q.relation),
        ),
    ];
    let path = index.and_then(|ix| {
        let (s, o) = (ix.iri_id(&q.subject)?, ix.iri_id(&q.object)?);
        crate::kg::neighbourhood::path(ix, s, o, p.hops?).map(|facts| (ix, facts))
    });
    if let Some((ix, facts)) = path {
        for (i, f) in facts.iter().enumerate() {
            out.push(PanelLine::field(
                if i == 0 { "hop path" } else { "" },
                format!(
                    "{} · {} · {}",
                    ix.label(f[0]),
                    ix.label(f[1]),
                    ix.label(f[2])
                ),
            ));
        }
    }
    out
}

impl FpqConfig {
    /// The run dialog's line for these settings.
    pub fn settings(&self) -> Vec<PanelLine> {
        let o = &self.options;
        vec![PanelLine::field(
            "kg-fpq",
            format!(
                "{} edits × {} formats · {} · within {} hops",
                o.edits.len(),
                o.formats.len(),
                if self.gate {
                    "gated by the TPQ"
                } else {
                    "no gate"
                },
                o.max_hops
            ),
        )
        .noted("   (limit = facts)")]
    }
}

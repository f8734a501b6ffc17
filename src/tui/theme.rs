//! Colour themes, read from the TOML files in `themes/` (embedded in the binary so a bare
//! install has them).

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

use crate::verify::OutcomeKind;

const DARK: &str = include_str!("../../themes/dark.toml");
const LIGHT: &str = include_str!("../../themes/light.toml");
const HIGH_CONTRAST: &str = include_str!("../../themes/high-contrast.toml");

/// The names `--theme` accepts.
pub const NAMES: [&str; 3] = ["dark", "light", "high-contrast"];

#[derive(Deserialize)]
struct ThemeFile {
    name: String,
    fg: String,
    bg: String,
    accent: String,
    dim: String,
    highlight_bg: String,
    correct: String,
    incorrect: String,
    abstained: String,
    invalid: String,
    scale_low: String,
    scale_mid: String,
    scale_high: String,
    scale_fg: String,
}

#[derive(Debug, Clone)]
pub struct Theme {
    pub name: String,
    pub fg: Color,
    pub bg: Color,
    pub accent: Color,
    pub dim: Color,
    pub highlight_bg: Color,
    pub correct: Color,
    pub incorrect: Color,
    pub abstained: Color,
    pub invalid: Color,
    pub scale: [Color; 3],
    pub scale_fg: Color,
}

impl Theme {
    /// One of the embedded themes by name.
    pub fn named(name: &str) -> Result<Theme, String> {
        let text = match name {
            "dark" => DARK,
            "light" => LIGHT,
            "high-contrast" => HIGH_CONTRAST,
            other => {
                return Err(format!(
                    "unknown theme '{other}': choose one of {}",
                    NAMES.join(", ")
                ))
            }
        };
        Self::parse(text).map_err(|e| format!("themes/{name}.toml: {e}"))
    }

    pub fn parse(text: &str) -> Result<Theme, String> {
        let f: ThemeFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let c = |key: &str, v: &str| {
            Color::from_str(v).map_err(|_| format!("{key} = \"{v}\" is not a colour"))
        };
        Ok(Theme {
            name: f.name,
            fg: c("fg", &f.fg)?,
            bg: c("bg", &f.bg)?,
            accent: c("accent", &f.accent)?,
            dim: c("dim", &f.dim)?,
            highlight_bg: c("highlight_bg", &f.highlight_bg)?,
            correct: c("correct", &f.correct)?,
            incorrect: c("incorrect", &f.incorrect)?,
            abstained: c("abstained", &f.abstained)?,
            invalid: c("invalid", &f.invalid)?,
            scale: [
                c("scale_low", &f.scale_low)?,
                c("scale_mid", &f.scale_mid)?,
                c("scale_high", &f.scale_high)?,
            ],
            scale_fg: c("scale_fg", &f.scale_fg)?,
        })
    }

    pub fn base(&self) -> Style {
        Style::default().fg(self.fg).bg(self.bg)
    }
    pub fn title(&self) -> Style {
        Style::default()
            .fg(self.accent)
            .add_modifier(Modifier::BOLD)
    }
    pub fn dim(&self) -> Style {
        Style::default().fg(self.dim)
    }
    pub fn selected(&self) -> Style {
        Style::default()
            .bg(self.highlight_bg)
            .add_modifier(Modifier::BOLD)
    }
    pub fn outcome(&self, o: OutcomeKind) -> Style {
        Style::default().fg(match o {
            OutcomeKind::Correct => self.correct,
            OutcomeKind::Incorrect => self.incorrect,
            OutcomeKind::Abstained => self.abstained,
            OutcomeKind::Invalid => self.invalid,
        })
    }

    /// Heatmap cell colour for a value in [0, 1], where 1 is good. RGB endpoints are blended;
    /// named colours (high-contrast) are picked by third, since they cannot be mixed.
    pub fn scale_color(&self, v: f64) -> Color {
        let v = v.clamp(0.0, 1.0);
        let (a, b, t) = if v < 0.5 {
            (self.scale[0], self.scale[1], v * 2.0)
        } else {
            (self.scale[1], self.scale[2], (v - 0.5) * 2.0)
        };
        match (a, b) {
            (Color::Rgb(r1, g1, b1), Color::Rgb(r2, g2, b2)) => {
                let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t) as u8;
                Color::Rgb(mix(r1, r2), mix(g1, g2), mix(b1, b2))
            }
            _ => {
                if v < 1.0 / 3.0 {
                    self.scale[0]
                } else if v < 2.0 / 3.0 {
                    self.scale[1]
                } else {
                    self.scale[2]
                }
            }
        }
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::named("dark").expect("the embedded dark theme parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_theme_parses() {
        for n in NAMES {
            let t = Theme::named(n).unwrap();
            assert_eq!(t.name, n);
        }
        assert!(Theme::named("neon").unwrap_err().contains("high-contrast"));
    }

    #[test]
    fn scale_runs_from_low_to_high() {
        let t = Theme::default();
        assert_eq!(t.scale_color(0.0), t.scale[0]);
        assert_eq!(t.scale_color(1.0), t.scale[2]);
    }
}

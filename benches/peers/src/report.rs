//! The comparison table: one row per measured quantity, the ratio circlet ÷
//! rapier2d, the target ratio and whether it is met, then notes.

/// One row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What was measured, with its unit.
    pub scene: String,
    /// circlet's median.
    pub circlet: f64,
    /// rapier2d's median.
    pub rapier: f64,
    /// The largest acceptable ratio circlet ÷ rapier2d, if the row has one.
    pub target: Option<f64>,
    /// The largest acceptable value of circlet's own figure (e.g. an
    /// exponent), if the row has one.
    pub circlet_target: Option<f64>,
    /// A further condition of the row (e.g. the pyramid stands in circlet).
    pub condition: Option<bool>,
}

impl Row {
    /// circlet ÷ rapier2d.
    pub fn ratio(&self) -> f64 {
        self.circlet / self.rapier
    }

    /// Whether the ratio meets the target and the condition holds; `None`
    /// for a row without either.
    pub fn ok(&self) -> Option<bool> {
        if self.target.is_none() && self.circlet_target.is_none() && self.condition.is_none() {
            return None;
        }
        let ratio_ok = self.target.is_none_or(|t| self.ratio() <= t);
        let value_ok = self.circlet_target.is_none_or(|t| self.circlet <= t);
        Some(ratio_ok && value_ok && self.condition.unwrap_or(true))
    }
}

/// Everything a run prints.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Table rows, in scene order.
    pub rows: Vec<Row>,
    /// Rows without a ratio target whose ratio is still shown, e.g. a slope.
    pub notes: Vec<String>,
}

/// Formats a measurement with three significant digits (more for large values).
pub fn fmt_value(x: f64) -> String {
    if !x.is_finite() {
        return "n/a".to_string();
    }
    let a = x.abs();
    if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

impl Report {
    /// The table with its header lines and notes, as markdown (`markdown`)
    /// or as aligned plain text.
    pub fn render(&self, header: &[String], markdown: bool) -> String {
        let titles = ["scene", "circlet", "rapier2d", "ratio", "target", "meets"];
        let cells: Vec<[String; 6]> = self
            .rows
            .iter()
            .map(|r| {
                [
                    r.scene.clone(),
                    fmt_value(r.circlet),
                    fmt_value(r.rapier),
                    format!("{:.2}", r.ratio()),
                    match (r.target, r.circlet_target) {
                        (Some(t), _) => format!("≤ {t}"),
                        (None, Some(t)) => format!("circlet ≤ {t}"),
                        (None, None) => String::new(),
                    },
                    match r.ok() {
                        Some(true) => "yes".to_string(),
                        Some(false) => "NO".to_string(),
                        None => String::new(),
                    },
                ]
            })
            .collect();
        let mut out = String::new();
        for line in header {
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
        if markdown {
            out.push_str(&format!("| {} |\n", titles.join(" | ")));
            out.push_str("|---|---:|---:|---:|---:|:---:|\n");
            for row in &cells {
                out.push_str(&format!("| {} |\n", row.join(" | ")));
            }
        } else {
            let mut widths = titles.map(|t| t.chars().count());
            for row in &cells {
                for (w, c) in widths.iter_mut().zip(row) {
                    *w = (*w).max(c.chars().count());
                }
            }
            let line = |row: &[String]| {
                let mut s = String::new();
                for (i, (c, w)) in row.iter().zip(widths).enumerate() {
                    let pad = " ".repeat(w - c.chars().count());
                    if i == 0 {
                        s.push_str(&format!("{c}{pad}"));
                    } else {
                        s.push_str(&format!("  {pad}{c}"));
                    }
                }
                s.trim_end().to_string() + "\n"
            };
            out.push_str(&line(&titles.map(String::from)));
            out.push_str(&line(&widths.map(|w| "-".repeat(w))));
            for row in &cells {
                out.push_str(&line(row));
            }
        }
        if !self.notes.is_empty() {
            out.push('\n');
            for note in &self.notes {
                out.push_str(&format!("- {note}\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(circlet: f64, rapier: f64, target: Option<f64>, condition: Option<bool>) -> Row {
        Row {
            scene: "s".into(),
            circlet,
            rapier,
            target,
            circlet_target: None,
            condition,
        }
    }

    #[test]
    fn ok_needs_the_ratio_and_the_condition() {
        assert_eq!(row(1.0, 4.0, Some(0.4), None).ok(), Some(true));
        assert_eq!(row(2.0, 4.0, Some(0.4), None).ok(), Some(false));
        assert_eq!(row(1.0, 4.0, Some(0.4), Some(false)).ok(), Some(false));
        assert_eq!(row(1.0, 4.0, None, None).ok(), None);
        let exponent = |c| Row {
            circlet_target: Some(1.1),
            ..row(c, 1.6, None, None)
        };
        assert_eq!(exponent(1.05).ok(), Some(true));
        assert_eq!(exponent(1.2).ok(), Some(false));
    }

    #[test]
    fn markdown_has_one_line_per_row() {
        let report = Report {
            rows: vec![row(1.0, 2.0, Some(1.0), None), row(3.0, 2.0, None, None)],
            notes: vec!["note".into()],
        };
        let text = report.render(&["head".into()], true);
        assert_eq!(text.lines().filter(|l| l.starts_with('|')).count(), 4);
        assert!(text.contains("| s | 1.00 | 2.00 | 0.50 | ≤ 1 | yes |"));
        assert!(text.contains("- note"));
        let plain = report.render(&[], false);
        assert!(plain.lines().any(|l| l.starts_with("scene")));
    }
}

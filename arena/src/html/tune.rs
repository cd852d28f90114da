//! The section of a tuning (`arena tune`, docs/tuning.md) in `report.html`
//! and on the live page: each parameter's course (the panels of `tune.svg`
//! inline, and a table of `θ` at about every tenth of the budget), the
//! current or final values with the `[[bot]] options = {...}` line, and the
//! verification's verdict. The tuning's own `report.html` is this section,
//! then the verification match's section as a match's report shows it,
//! with the report's style.

use maud::{html, Markup, PreEscaped, DOCTYPE};

use super::{match_section, page_head, CSS, REPORT_FILE};
use crate::matchup::Matchup;
use crate::output::write_bytes_atomic;
use crate::tunechart::{tune_svg, Course};

/// How many columns the table of `θ` over the iterations has at most,
/// besides the start.
const COURSE_COLUMNS: u64 = 10;

/// What the tuning's section shows; owned, so the live view can hold it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TuneSummary {
    /// The tuned `[[bot]]`'s name.
    pub bot: String,
    /// The budget: iterations in all.
    pub pairs: u64,
    /// Each parameter's course so far, the start (at 0) first.
    pub courses: Vec<Course>,
    /// Each parameter's start value.
    pub start: Vec<f64>,
    /// The line to paste, once the tuning is over.
    pub options_line: Option<String>,
    /// The verification's verdict line, once played.
    pub verdict: Option<String>,
    /// Whether the tuning was interrupted (`--resume` goes on).
    pub interrupted: bool,
}

impl TuneSummary {
    /// Iterations whose `θ` is known: the last point of the courses.
    #[must_use]
    pub fn played(&self) -> u64 {
        self.courses
            .first()
            .and_then(|c| c.points.last())
            .map_or(0, |p| p.0)
    }
}

/// The points of `course` shown in the table: the start, then the first
/// point at or past each tenth of `pairs`, and the last.
fn table_points(course: &Course, pairs: u64) -> Vec<(u64, f64)> {
    let mut shown: Vec<(u64, f64)> = Vec::new();
    let mut next = 0;
    for &(k, v) in &course.points {
        if k >= next {
            shown.push((k, v));
            next = (k * COURSE_COLUMNS / pairs.max(1) + 1) * pairs.max(1) / COURSE_COLUMNS;
        }
    }
    if let (Some(&last), Some(&(k, _))) = (course.points.last(), shown.last()) {
        if k != last.0 {
            shown.push(last);
        }
    }
    shown
}

/// `v` with 4 significant decimals at most.
fn value(v: f64) -> String {
    let text = format!("{v:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

/// `section#tuning`: the parameters' values and ranges, the line to paste,
/// the verdict, the course chart and the table of `θ` over the iterations.
#[must_use]
pub fn tune_section(t: &TuneSummary) -> Markup {
    let columns = t
        .courses
        .first()
        .map(|c| table_points(c, t.pairs))
        .unwrap_or_default();
    html! {
        section #tuning {
            h2 { "Tuning" }
            p.meta {
                "Bot " code { (t.bot) } ": " (t.played()) " of "
                (crate::output::counted(t.pairs, "iteration", "iterations")) " played"
                @if t.interrupted { " (interrupted; arena tune CONFIG --resume DIR goes on)" }
                @else if t.options_line.is_none() { " so far" }
            }
            table.tune-values {
                thead { tr { th { "parameter" } th { "range" } th { "start" }
                    th { @if t.options_line.is_some() { "tuned" } @else { "θ now" } } } }
                tbody {
                    @for (i, c) in t.courses.iter().enumerate() {
                        tr {
                            td { code { (c.name) } }
                            td.num { (value(c.range.0)) " to " (value(c.range.1)) }
                            td.num { (t.start.get(i).map(|&v| value(v)).unwrap_or_default()) }
                            td.num { (c.points.last().map(|p| value(p.1)).unwrap_or_default()) }
                        }
                    }
                }
            }
            @if let Some(line) = &t.options_line { pre.options-line { code { (line) } } }
            @if let Some(verdict) = &t.verdict { p.verdict { (verdict) } }
            h3 { "θ over the iterations" }
            table.tune-course {
                thead { tr { th { "iterations" } @for (k, _) in &columns { th.num { (k) } } } }
                tbody {
                    @for c in &t.courses {
                        tr {
                            td { code { (c.name) } }
                            @for (k, v) in table_points(c, t.pairs) {
                                @if columns.iter().any(|p| p.0 == k) { td.num { (value(v)) } }
                            }
                        }
                    }
                }
            }
            div.chart { (PreEscaped(tune_svg(&t.courses))) }
        }
    }
}

/// The tuning's `report.html`: its section, and the verification match's
/// (`verify`) as a match's report has it.
#[must_use]
pub fn tune_page(t: &TuneSummary, verify: Option<&Matchup>) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            (page_head(&format!("En Dodoi tuning report: {}", t.bot), &[CSS]))
            body {
                header {
                    h1 { "En Dodoi tuning report: " (t.bot) }
                    @if t.interrupted {
                        p.warning { "This tuning did not finish: the figures cover only the iterations played so far." }
                    }
                    nav {
                        a href="#tuning" { "Tuning" }
                        @if verify.is_some() { " · " a href="#match" { "Verification" } }
                    }
                }
                (tune_section(t))
                @if let Some(m) = verify { (match_section(m)) }
            }
        }
    }
    .into_string()
}

/// Writes the tuning's `report.html` into `dir` (whole, atomically).
///
/// # Errors
/// An I/O error writing it; the file is then left as it was.
pub fn write_tune_report(
    dir: &std::path::Path,
    t: &TuneSummary,
    verify: Option<&Matchup>,
) -> std::io::Result<()> {
    write_bytes_atomic(&dir.join(REPORT_FILE), tune_page(t, verify).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(points: Vec<(u64, f64)>) -> TuneSummary {
        TuneSummary {
            bot: "m<b>".into(),
            pairs: 100,
            courses: vec![Course {
                name: "exploration".into(),
                range: (0.05, 3.0),
                points,
            }],
            start: vec![2.0],
            options_line: None,
            verdict: None,
            interrupted: false,
        }
    }

    #[test]
    fn the_table_takes_about_every_tenth_and_the_last() {
        let points: Vec<(u64, f64)> = (0..=50).map(|k| (2 * k, k as f64)).collect();
        let s = summary(points);
        let shown: Vec<u64> = table_points(&s.courses[0], 100)
            .iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(shown, [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
        let few = table_points(&s.courses[0], 1000);
        assert_eq!(few.iter().map(|p| p.0).collect::<Vec<_>>(), [0, 100]);
    }

    #[test]
    fn the_section_shows_values_line_verdict_and_escapes_names() {
        let mut s = summary(vec![(0, 2.0), (50, 1.0), (100, 0.5671)]);
        s.options_line = Some("[[bot]] options = { exploration = 0.5671 }".into());
        s.verdict = Some("verify: the tuning helped".into());
        let page = tune_page(&s, None);
        assert!(page.contains("m&lt;b&gt;") && !page.contains("m<b>"));
        assert!(page.contains("[[bot]] options = { exploration = 0.5671 }"));
        assert!(page.contains("verify: the tuning helped"));
        assert!(page.contains("<svg") && page.contains("<td class=\"num\">0.5671</td>"));
        assert!(page.contains("100 of 100 iterations played"));
        assert!(!page.contains("did not finish"));
        s.interrupted = true;
        assert!(tune_page(&s, None).contains("did not finish"));
    }
}

//! The standings chart: each bot's Elo with its 95% interval as a horizontal
//! error bar, best bot on top, drawn with `plotters` into SVG.
//!
//! `plotters` was chosen over hand-written SVG for its axis layout (round tick
//! values, grid, labels) and its `ErrorBar` element. It is built with only its
//! SVG backend and error bars (`default-features = false`): no font files, no
//! bitmap code. Without a font backend it estimates text widths and leaves
//! the drawing to the viewer's `sans-serif` font; it escapes the text it
//! writes (`&`, `<`, `>`, quotes).

use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::{SegmentValue, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::output::num;
use crate::standings::Standing;

/// Width of the chart, SVG user units (pixels at 100%).
pub const CHART_WIDTH: u32 = 760;

/// Height of one bot's row in the chart, SVG user units.
const ROW_HEIGHT: u32 = 30;

/// The colour of group `g` (from 1): bots in different groups never met, so
/// their ratings are not comparable, and the chart says so by colour.
fn group_colour(g: usize) -> RGBColor {
    const COLOURS: [RGBColor; 4] = [
        RGBColor(0x1f, 0x5f, 0xa8),
        RGBColor(0xc0, 0x5a, 0x10),
        RGBColor(0x2e, 0x8b, 0x3e),
        RGBColor(0x8e, 0x3a, 0x9e),
    ];
    COLOURS[(g.max(1) - 1) % COLOURS.len()]
}

/// The x range of the chart: every interval with some room on both sides,
/// and at least 100 Elo points wide; `-50..50` when there is nothing to show.
fn elo_range(table: &[Standing]) -> (f64, f64) {
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let shown = || table.iter().filter(|s| s.interval.has_interval());
    let lo = shown()
        .map(|s| finite(s.elo_lower.min(s.elo)))
        .fold(f64::INFINITY, f64::min);
    let hi = shown()
        .map(|s| finite(s.elo_upper.max(s.elo)))
        .fold(f64::NEG_INFINITY, f64::max);
    if !(lo.is_finite() && hi.is_finite()) {
        return (-50.0, 50.0);
    }
    let pad = ((hi - lo) * 0.08).max(10.0);
    let (mut lo, mut hi) = (lo - pad, hi + pad);
    if hi - lo < 100.0 {
        let mid = (lo + hi) / 2.0;
        (lo, hi) = (mid - 50.0, mid + 50.0);
    }
    (lo, hi)
}

/// The chart of `table` (bot `i` is `names[i]`) as a standalone SVG document:
/// `CHART_WIDTH` wide, one row per bot in standings order, the Elo as a dot
/// and the 95% interval as an error bar, each labelled with the Elo.
/// Non-finite numbers are drawn as 0. An empty table gives an empty chart
/// with its axis.
///
/// Past [`CHART_MAX_BOTS`] bots the chart shows the top ones only, and says
/// so in its caption: the standings table has every bot.
#[must_use]
pub fn standings_svg(names: &[String], table: &[Standing]) -> String {
    let all = table.len();
    let table = &table[..all.min(CHART_MAX_BOTS)];
    let rows = table.len().max(1);
    let height = 70 + ROW_HEIGHT * rows as u32;
    let mut svg = String::new();
    // Drawing into a String cannot fail for I/O reasons; plotters' errors
    // here would be layout bugs, and the chart is then left as far as it got.
    let caption = (all > table.len()).then(|| format!("The top {} of {all} bots", table.len()));
    let height = height + if caption.is_some() { 40 } else { 0 };
    let _ = draw(
        &mut svg,
        (CHART_WIDTH, height),
        names,
        table,
        caption.as_deref(),
    );
    svg
}

fn draw(
    svg: &mut String,
    size: (u32, u32),
    names: &[String],
    table: &[Standing],
    caption: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(svg, size).into_drawing_area();
    root.fill(&WHITE)?;
    let (lo, hi) = elo_range(table);
    let n = table.len().max(1) as i32;
    let label_width = names
        .iter()
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 40) as u32
        * 8
        + 30;
    let mut builder = ChartBuilder::on(&root);
    if let Some(c) = caption {
        builder.caption(c, ("sans-serif", 18));
    }
    let mut chart = builder
        .margin(12)
        .margin_right(24)
        .x_label_area_size(40)
        .y_label_area_size(label_width)
        // 0..n - 1 is n segments (the range is inclusive), one a bot, with no
        // empty one (and its stray tick) on top; plotters draws no segment
        // for 0..0, so one bot keeps the empty one.
        .build_cartesian_2d(lo..hi, (0..(n - 1).max(1)).into_segmented())?;
    // Row r (from 0 at the top) is segment n - 1 - r, so rank 1 is on top.
    let row_of = |r: usize| SegmentValue::CenterOf(n - 1 - r as i32);
    let label = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) if (0..n).contains(i) => table
            .get((n - 1 - i) as usize)
            .and_then(|s| names.get(s.bot))
            .cloned()
            .unwrap_or_default(),
        _ => String::new(),
    };
    draw_mesh(
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(table.len().max(1))
            .y_label_formatter(&label)
            .x_desc("Elo (logistic scale), 95% interval")
            .x_labels(8)
            .x_label_formatter(&|x| num(*x, 0)),
    )?;
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    for (r, s) in table.iter().enumerate() {
        // A bot without an estimate (no games, or at the limit) keeps its
        // row and label but gets no bar.
        if !s.interval.has_interval() {
            continue;
        }
        let colour = group_colour(s.group);
        let (lower, elo, upper) = (finite(s.elo_lower), finite(s.elo), finite(s.elo_upper));
        chart.draw_series(std::iter::once(ErrorBar::new_horizontal(
            row_of(r),
            lower,
            elo,
            upper,
            colour.stroke_width(2),
            12,
        )))?;
        // The dot, with the Elo written just above it.
        let dot = EmptyElement::at((elo, row_of(r)))
            + Circle::new((0, 0), 5, colour.filled())
            + Text::new(
                num(elo, 0),
                (0, -7),
                ("sans-serif", 14)
                    .into_font()
                    .color(&RGBColor(0x33, 0x33, 0x33))
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            );
        chart.draw_series(std::iter::once(dot))?;
    }
    root.present()?;
    Ok(())
}

/// Draws the mesh `mesh` (its labels and descriptions set) in the style
/// both charts share: the fonts, and one light grid line between labelled
/// ones.
fn draw_mesh<X, Y, DB>(
    mesh: &mut MeshStyle<'_, '_, X, Y, DB>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
    DB: DrawingBackend,
{
    mesh.axis_desc_style(("sans-serif", 17))
        .label_style(("sans-serif", 16))
        .max_light_lines(1)
        .light_line_style(RGBColor(0xf2, 0xf2, 0xf2))
        .bold_line_style(RGBColor(0xcc, 0xcc, 0xcc))
        .draw()
}

/// The most bots the standings chart draws: the top of the standings.
pub const CHART_MAX_BOTS: usize = 50;

/// Height of the LLR chart, SVG user units.
const LLR_HEIGHT: u32 = 300;

/// The course of an SPRT as a standalone SVG document, `CHART_WIDTH` wide:
/// the log-likelihood ratio after each game pair (`points`: games played,
/// LLR), starting from 0 before the first game, as a line, against its
/// stopping bounds `(lower, upper)` as horizontal lines (H0 is accepted at
/// or below the lower one, H1 at or above the upper one). Non-finite
/// numbers are drawn as 0. The `svg` element's `data-pairs` attribute is
/// the number of pairs drawn.
#[must_use]
pub fn llr_svg(points: &[(u32, f64)], bounds: (f64, f64)) -> String {
    let mut svg = String::new();
    // As for the standings chart: a layout error leaves the chart as far as
    // it got.
    let _ = draw_llr(&mut svg, points, bounds);
    // The number of pairs drawn, for a page that follows the chart grow.
    svg.replacen(
        "<svg ",
        &format!("<svg data-pairs=\"{}\" ", points.len()),
        1,
    )
}

fn draw_llr(
    svg: &mut String,
    points: &[(u32, f64)],
    bounds: (f64, f64),
) -> Result<(), Box<dyn std::error::Error>> {
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let (lower, upper) = (finite(bounds.0), finite(bounds.1));
    let line: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(points.iter().map(|&(g, llr)| (f64::from(g), finite(llr))))
        .collect();
    let last_game = line.last().map_or(0.0, |p| p.0).max(2.0);
    let low = line.iter().map(|p| p.1).fold(lower, f64::min);
    let high = line.iter().map(|p| p.1).fold(upper, f64::max);
    let pad = ((high - low) * 0.08).max(0.1);
    let root = SVGBackend::with_string(svg, (CHART_WIDTH, LLR_HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..last_game, (low - pad)..(high + pad))?;
    draw_mesh(
        chart
            .configure_mesh()
            .x_desc("games played")
            .y_desc("LLR")
            .x_labels(8)
            .x_label_formatter(&|x| num(*x, 0))
            .y_labels(8)
            .y_label_formatter(&|y| num(*y, 1)),
    )?;
    let h0 = RGBColor(0xc0, 0x3a, 0x2b);
    let h1 = RGBColor(0x2e, 0x8b, 0x3e);
    for (y, colour, label) in [
        (upper, h1, format!("H1 accepted at {}", num(upper, 2))),
        (lower, h0, format!("H0 accepted at {}", num(lower, 2))),
    ] {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, y), (last_game, y)],
            colour.stroke_width(2),
        )))?;
        let anchor = if y >= 0.0 { VPos::Bottom } else { VPos::Top };
        chart.draw_series(std::iter::once(Text::new(
            label,
            (0.0, y),
            ("sans-serif", 14)
                .into_font()
                .color(&colour)
                .pos(Pos::new(HPos::Left, anchor)),
        )))?;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        line,
        RGBColor(0x1f, 0x5f, 0xa8).stroke_width(2),
    )))?;
    root.present()?;
    Ok(())
}

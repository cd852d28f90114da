//! `tune.svg`: the course of each parameter of an `arena tune` run, `θ`
//! after each batch of iterations against the iterations played, one panel
//! per parameter, drawn with `plotters` into SVG as the standings chart is
//! (docs/tuning.md).

use plotters::prelude::*;

/// Width of the chart, SVG user units.
const WIDTH: u32 = 760;
/// Height of one parameter's panel, SVG user units.
const PANEL_HEIGHT: u32 = 220;

/// One parameter's course: its name, its range `(min, max)`, and `θ` at
/// each point `(iterations played, value)`, the start at 0 included.
#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    /// The option's name.
    pub name: String,
    /// The range the tuning keeps it in.
    pub range: (f64, f64),
    /// `(iterations played, θ)`, in order.
    pub points: Vec<(u64, f64)>,
}

/// The chart of `courses` as a standalone SVG document, one panel per
/// parameter (the y axis its range, the x axis the iterations). Non-finite
/// values are drawn at the range's lower end; a layout error leaves the
/// chart as far as it got.
#[must_use]
pub fn tune_svg(courses: &[Course]) -> String {
    let mut svg = String::new();
    let height = PANEL_HEIGHT * courses.len().max(1) as u32;
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let panels = root.split_evenly((courses.len().max(1), 1));
        for (panel, course) in panels.iter().zip(courses) {
            let _ = draw(panel, course);
        }
        let _ = root.present();
    }
    svg
}

/// One parameter's panel.
fn draw(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    course: &Course,
) -> Result<(), Box<dyn std::error::Error>> {
    let (lo, hi) = course.range;
    let last = course.points.last().map_or(1, |p| p.0).max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(&course.name, ("sans-serif", 18))
        .margin(10)
        .margin_right(24)
        .x_label_area_size(36)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..last, lo..hi)?;
    chart
        .configure_mesh()
        .x_desc("iterations")
        .y_desc(course.name.as_str())
        .x_labels(8)
        .y_labels(6)
        .label_style(("sans-serif", 14))
        .max_light_lines(1)
        .light_line_style(RGBColor(0xf2, 0xf2, 0xf2))
        .bold_line_style(RGBColor(0xcc, 0xcc, 0xcc))
        .draw()?;
    let line = course.points.iter().map(|&(k, v)| {
        let v = if v.is_finite() { v } else { lo };
        (k as f64, v)
    });
    chart.draw_series(std::iter::once(PathElement::new(
        line.collect::<Vec<_>>(),
        RGBColor(0x1f, 0x5f, 0xa8).stroke_width(2),
    )))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_parameter_gets_a_panel_with_its_name() {
        let courses = vec![
            Course {
                name: "exploration".into(),
                range: (0.05, 3.0),
                points: vec![(0, 2.0), (10, 1.5), (20, 0.7)],
            },
            Course {
                name: "depth".into(),
                range: (1.0, 9.0),
                points: vec![(0, 3.0), (20, 5.0)],
            },
        ];
        let svg = tune_svg(&courses);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("exploration") && svg.contains("depth"));
        assert!(svg.contains(&format!("height=\"{}\"", 2 * PANEL_HEIGHT)));
    }
}

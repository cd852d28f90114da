//! The console's tables (the final standings, `arena slurm status`, the
//! live view's standings), laid out by comfy-table to a width: the
//! terminal's when stdout is one, else [`PIPE_WIDTH`] columns, so that a
//! pipe or a CI log gets the same text on every machine. No borders and no
//! colours: columns are separated by two spaces, names left-aligned and
//! numbers right-aligned. A column too wide for the width is wrapped inside
//! its cell (at a space, else inside the word), never past the width.

use comfy_table::{presets, CellAlignment, ColumnConstraint, ContentArrangement, Width};

/// The width a table is laid out for off a terminal, in columns.
pub const PIPE_WIDTH: u16 = 80;

/// The spaces between two columns.
const GAP: u16 = 2;

/// The width, in columns, to lay the tables printed on stdout out for:
/// the terminal's when stdout is a terminal, else [`PIPE_WIDTH`].
#[must_use]
pub fn stdout_width() -> u16 {
    console::Term::stdout()
        .size_checked()
        .map_or(PIPE_WIDTH, |(_, columns)| columns.max(20))
}

/// How a column's cells sit in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text: left-aligned, and wrapped first when the table is too wide.
    Left,
    /// Numbers: right-aligned, and kept whole while the text can wrap.
    Right,
}

/// Lays `rows` out under `header` in at most `width` columns (see the
/// module's doc), one [`Align`] per column, and returns the lines without
/// trailing spaces, joined by newlines (no newline at the end).
#[must_use]
pub fn render(header: &[&str], align: &[Align], rows: &[Vec<String>], width: u16) -> String {
    let mut table = comfy_table::Table::new();
    table
        .load_preset(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width)
        .set_header(header.to_vec());
    for row in rows {
        table.add_row(row.clone());
    }
    let last = header.len().saturating_sub(1);
    let pad = |i: usize| if i == last { 0 } else { GAP };
    let natural: usize = table
        .column_max_content_widths()
        .iter()
        .enumerate()
        .map(|(i, w)| usize::from(*w + pad(i)))
        .sum();
    let fits = natural <= usize::from(width);
    for (i, column) in table.column_iter_mut().enumerate() {
        column.set_padding((0, pad(i)));
        if align.get(i) != Some(&Align::Right) {
            continue;
        }
        column.set_cell_alignment(CellAlignment::Right);
        // Too wide, a number column keeps its widest number (a number cut
        // in two misleads) and its header's longest word; the header and
        // the text columns are wrapped.
        if !fits {
            let word = header
                .get(i)
                .map_or(0, |h| h.split(' ').map(width_of).max().unwrap_or(0));
            let keep = rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|c| width_of(c))
                .max()
                .unwrap_or(0)
                .max(word);
            let keep = u16::try_from(keep)
                .unwrap_or(u16::MAX)
                .saturating_add(pad(i));
            column.set_constraint(ColumnConstraint::Absolute(Width::Fixed(keep)));
        }
    }
    let lines: Vec<String> = table
        .lines()
        .map(|line| line.trim_end().to_string())
        .collect();
    lines.join("\n")
}

/// Lays `rows` out in columns of the fixed `widths` (characters, gaps not
/// counted), one [`Align`] per column, for a table printed a row at a time
/// as its figures come (`arena bench`): every call lines up with the
/// others. A cell wider than its column wraps inside it.
#[must_use]
pub fn render_fixed(rows: &[Vec<String>], align: &[Align], widths: &[u16]) -> String {
    let mut table = comfy_table::Table::new();
    table
        .load_preset(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic);
    for row in rows {
        table.add_row(row.clone());
    }
    let last = widths.len().saturating_sub(1);
    for (i, column) in table.column_iter_mut().enumerate() {
        let pad = if i == last { 0 } else { GAP };
        column.set_padding((0, pad));
        if align.get(i) == Some(&Align::Right) {
            column.set_cell_alignment(CellAlignment::Right);
        }
        let width = widths.get(i).copied().unwrap_or(1).max(1);
        column.set_constraint(ColumnConstraint::Absolute(Width::Fixed(width + pad)));
    }
    let lines: Vec<String> = table
        .lines()
        .map(|line| line.trim_end().to_string())
        .collect();
    lines.join("\n")
}

/// The columns `text` takes on a terminal.
fn width_of(text: &str) -> usize {
    console::measure_text_width(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(names: &[&str]) -> Vec<Vec<String>> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| vec![(i + 1).to_string(), n.to_string(), "-123.4".to_string()])
            .collect()
    }

    #[test]
    fn a_table_that_fits_is_one_line_a_row_aligned_by_kind() {
        let text = render(
            &["#", "bot", "Elo"],
            &[Align::Right, Align::Left, Align::Right],
            &rows(&["a", "longer"]),
            80,
        );
        assert_eq!(
            text,
            "#  bot        Elo\n1  a       -123.4\n2  longer  -123.4"
        );
    }

    #[test]
    fn fixed_columns_line_up_row_by_row_and_wrap_a_long_cell() {
        let align = [Align::Left, Align::Right];
        let a = render_fixed(&[vec!["x".into(), "1.5".into()]], &align, &[6, 5]);
        let b = render_fixed(&[vec!["yy".into(), "10.25".into()]], &align, &[6, 5]);
        assert_eq!(a, "x         1.5");
        assert_eq!(b, "yy      10.25");
        let long = render_fixed(&[vec!["a long name".into(), "2".into()]], &align, &[6, 5]);
        assert!(long.lines().count() > 1, "{long}");
        assert!(long.lines().all(|l| l.chars().count() <= 13), "{long}");
    }

    #[test]
    fn a_table_too_wide_wraps_its_text_and_keeps_its_numbers() {
        let name = "a-rather-long-bot-name with words";
        let text = render(
            &["#", "bot", "Elo"],
            &[Align::Right, Align::Left, Align::Right],
            &rows(&[name]),
            24,
        );
        assert!(text.lines().all(|l| l.chars().count() <= 24), "{text}");
        assert!(text.contains("-123.4"), "{text}");
    }
}

//! The console's tables (the final standings, `arena slurm status`, the
//! live view's standings), laid out by comfy-table to a width: the
//! terminal's when stdout is one, else [`PIPE_WIDTH`] columns, so that a
//! pipe or a CI log gets the same text on every machine. No borders and no
//! colours: columns are separated by two spaces, names left-aligned and
//! numbers right-aligned. A column too wide for the width is wrapped inside
//! its cell (at a space, else inside the word), never past the width.
//! The final standings use [`render_fitted`] instead: whole on a pipe, and
//! on a terminal columns left out before a row is broken.

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

/// The width, in columns, of stdout when it is a terminal; `None` when it
/// is a pipe or a file (a table is then laid out at its natural width, see
/// [`render_fitted`]).
#[must_use]
pub fn stdout_terminal_width() -> Option<u16> {
    console::Term::stdout()
        .size_checked()
        .map(|(_, columns)| columns.max(20))
}

/// The width, in columns, of stderr when it is a terminal (where the
/// arena's notes go); `None` when it is a pipe or a file.
#[must_use]
pub fn stderr_terminal_width() -> Option<u16> {
    console::Term::stderr()
        .size_checked()
        .map(|(_, columns)| columns.max(20))
}

/// `text` with each line wrapped at spaces to `width` columns, its
/// continuation lines indented two spaces more than the line itself; with
/// `None` (a pipe or a file) every line is kept whole, as a table is laid
/// out at its natural width there, so a log or `grep` sees one line per
/// figure. A word longer than the width (a path, say) is kept whole.
#[must_use]
pub fn wrap_lines(text: &str, width: Option<u16>) -> String {
    let Some(width) = width else {
        return text.to_string();
    };
    let mut out = Vec::new();
    for line in text.split('\n') {
        let indent = &line[..line.len() - line.trim_start().len()];
        let more = format!("{indent}  ");
        let options = textwrap::Options::new(usize::from(width))
            .initial_indent(indent)
            .subsequent_indent(&more)
            .break_words(false)
            .word_splitter(textwrap::WordSplitter::NoHyphenation);
        let wrapped = textwrap::fill(line.trim_start(), options);
        out.push(if line.trim().is_empty() {
            line.to_string()
        } else {
            wrapped
        });
    }
    out.join("\n")
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

/// A table laid out by [`render_fitted`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fitted {
    /// The lines of the table, as [`render`] gives them.
    pub text: String,
    /// The headers of the columns left out to fit the width, in the order
    /// they were left out (empty when every column is there).
    pub dropped: Vec<String>,
}

/// Lays `rows` out under `header` so that no row is broken across lines:
/// with `width` `None` (stdout is a pipe or a file) at the table's natural
/// width, every column whole; with `Some(width)` (a terminal) the columns
/// of `drop_order` (indices into `header`) are left out one by one, in that
/// order, until the rest fits. Only if the table is still too wide are the
/// text ([`Align::Left`]) cells broken, at a space, `-`, `_` or `.` (a name
/// is cut inside a run of letters only when that run alone is wider than
/// its column); numbers are kept whole.
#[must_use]
pub fn render_fitted(
    header: &[&str],
    align: &[Align],
    rows: &[Vec<String>],
    width: Option<u16>,
    drop_order: &[usize],
) -> Fitted {
    let Some(width) = width else {
        return Fitted {
            text: render(header, align, rows, u16::MAX),
            dropped: Vec::new(),
        };
    };
    let column_width = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .map(|c| width_of(c))
            .chain(header.get(i).map(|h| width_of(h)))
            .max()
            .unwrap_or(0)
    };
    let natural = |kept: &[usize]| {
        kept.iter().map(|&i| column_width(i)).sum::<usize>()
            + usize::from(GAP) * kept.len().saturating_sub(1)
    };
    let mut kept: Vec<usize> = (0..header.len()).collect();
    let mut dropped = Vec::new();
    for &i in drop_order {
        if natural(&kept) <= usize::from(width) {
            break;
        }
        if let Some(at) = kept.iter().position(|&k| k == i) {
            kept.remove(at);
            dropped.push(header[i].to_string());
        }
    }
    let header_kept: Vec<&str> = kept.iter().map(|&i| header[i]).collect();
    let align_kept: Vec<Align> = kept
        .iter()
        .map(|&i| align.get(i).copied().unwrap_or(Align::Left))
        .collect();
    let mut rows_kept: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            kept.iter()
                .map(|&i| r.get(i).cloned().unwrap_or_default())
                .collect()
        })
        .collect();
    if natural(&kept) > usize::from(width) {
        let texts: Vec<usize> = (0..kept.len())
            .filter(|&k| align_kept[k] == Align::Left)
            .collect();
        let fixed: usize = (0..kept.len())
            .filter(|k| !texts.contains(k))
            .map(|k| column_width(kept[k]))
            .sum::<usize>()
            + usize::from(GAP) * kept.len().saturating_sub(1);
        let share = (usize::from(width).saturating_sub(fixed) / texts.len().max(1)).max(1);
        for row in &mut rows_kept {
            for &k in &texts {
                if let Some(cell) = row.get_mut(k) {
                    *cell = break_at_words(cell, share);
                }
            }
        }
    }
    Fitted {
        text: render(&header_kept, &align_kept, &rows_kept, width),
        dropped,
    }
}

/// `text` broken into lines of at most `width` columns, each break after a
/// space, `-`, `_` or `.` where one is near enough, else inside the word.
fn break_at_words(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut piece = String::new();
    let flush = |line: &mut String, piece: &mut String, lines: &mut Vec<String>| {
        if width_of(line) + width_of(piece) > width && !line.is_empty() {
            lines.push(std::mem::take(line).trim_end().to_string());
        }
        while width_of(piece) > width {
            let head: String = piece.chars().take(width).collect();
            let tail: String = piece.chars().skip(width).collect();
            lines.push(head);
            *piece = tail;
        }
        line.push_str(piece);
        piece.clear();
    };
    for c in text.chars() {
        piece.push(c);
        if matches!(c, ' ' | '-' | '_' | '.') {
            flush(&mut line, &mut piece, &mut lines);
        }
    }
    flush(&mut line, &mut piece, &mut lines);
    if !line.is_empty() {
        lines.push(line);
    }
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

    /// Issue 17's tester: the run's start line (124 characters) ran past
    /// an 80-column terminal. Wrapped, every line fits, continuation lines
    /// indented; off a terminal it stays one line.
    #[test]
    fn long_lines_wrap_at_the_width_indented() {
        let start = "arena: 2 bots, 1 series, an SPRT of [0, 10] logistic Elo to a verdict or 400 games, 2 at once; writing results/a-long-folder-name";
        assert!(start.chars().count() > 120);
        let wrapped = wrap_lines(start, Some(80));
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.len() >= 2, "{wrapped}");
        assert!(lines.iter().all(|l| l.chars().count() <= 80), "{wrapped}");
        assert!(lines[1..].iter().all(|l| l.starts_with("  ")), "{wrapped}");
        assert_eq!(
            lines.join(" ").split_whitespace().collect::<Vec<_>>(),
            start.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(wrap_lines(start, None), start);
        // An indented line's continuation goes two further in.
        let summary = format!("a vs b\n  LLR {}", "word ".repeat(30).trim_end());
        let wrapped = wrap_lines(&summary, Some(40));
        let lines: Vec<&str> = wrapped.lines().collect();
        assert_eq!(lines[0], "a vs b");
        assert!(lines[1].starts_with("  LLR "), "{wrapped}");
        assert!(
            lines[2..].iter().all(|l| l.starts_with("    w")),
            "{wrapped}"
        );
    }

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
    fn a_fitted_table_drops_columns_before_it_breaks_a_row() {
        let header = ["#", "bot", "Elo", "extra"];
        let align = [Align::Right, Align::Left, Align::Right, Align::Right];
        let name = "a-rather-long-bot-name";
        let rows = vec![vec![
            "1".to_string(),
            name.to_string(),
            "-123.4".to_string(),
            "12345678".to_string(),
        ]];
        let off = render_fitted(&header, &align, &rows, None, &[3]);
        assert!(off.dropped.is_empty());
        assert_eq!(off.text.lines().count(), 2, "{}", off.text);
        assert!(off.text.contains("12345678"), "{}", off.text);
        let fit = render_fitted(&header, &align, &rows, Some(35), &[3]);
        assert_eq!(fit.dropped, ["extra"]);
        assert_eq!(fit.text.lines().count(), 2, "{}", fit.text);
        assert!(fit.text.contains(name), "{}", fit.text);
        // Still too wide: the name breaks after a '-', never inside a word.
        let narrow = render_fitted(&header, &align, &rows, Some(24), &[3]);
        assert_eq!(
            narrow.text,
            "#  bot               Elo\n1  a-rather-      -123.4\n   long-bot-name"
        );
    }

    #[test]
    fn words_break_after_separators() {
        assert_eq!(break_at_words("alpha-beta_gamma", 11), "alpha-beta_\ngamma");
        assert_eq!(break_at_words("abcdefgh", 3), "abc\ndef\ngh");
        assert_eq!(break_at_words("ab", 3), "ab");
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

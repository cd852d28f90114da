//! What a finished command printed, as text, and assertions on a text
//! that show the whole text when they fail.

use std::process::Output;

/// What `output`'s command printed on stdout, as text (bytes that are not
/// UTF-8 replaced).
pub fn stdout_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What `output`'s command printed on stderr, as text (bytes that are not
/// UTF-8 replaced).
pub fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that `text` contains `needle`, showing the text if not.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "no {needle:?} in:\n{text}");
}

/// Asserts that `text` ends with `tail`, showing the text if not.
#[track_caller]
pub fn assert_ends_with(text: &str, tail: &str) {
    assert!(text.ends_with(tail), "not ending in {tail:?}:\n{text}");
}

//! The browser game's playable page: one self-contained HTML file (no network) that plays a
//! given sequence with the browser game's rules, keeps the best score, races the player against
//! a solver's record (its board replayed beside the player's, piece for piece) and hands out
//! the player's record in the text `check --game browser` reads.
//!
//! The rules, the drawing and the record writer are all in the page's script (`play.html`);
//! this module only embeds the data: the sequence's letters and, optionally, a record's text,
//! which the page parses itself so that a record it cannot read is shown as an error on a page
//! that still plays.

use crate::kit::piece::Kind;
use serde::Serialize;

/// The page around the data; `{{DATA}}` is filled in by [`page`].
const TEMPLATE: &str = include_str!("play.html");

/// What the page's script reads from its `DATA` constant.
#[derive(Serialize)]
struct PageData<'a> {
    /// The pieces in order, one letter each (`IJLOSTZ`).
    sequence: String,
    /// The sequence's name (its file name), for the title and the start screen.
    sequence_name: &'a str,
    /// A record to compare the player with, as text (the page parses it).
    compare: Option<&'a str>,
    /// The compared record's name (its file name), shown under the solver's board.
    compare_name: Option<&'a str>,
}

/// A record whose board races beside the player's.
pub(crate) struct Compare<'a> {
    /// The record's text, as `check --game browser` reads it.
    pub(crate) text: &'a str,
    /// How the panel names it (e.g. the file name).
    pub(crate) name: &'a str,
}

/// The page that plays `sequence` (called `name`), racing `compare` when given.
pub(crate) fn page(sequence: &[Kind], name: &str, compare: Option<Compare>) -> String {
    let data = PageData {
        sequence: sequence.iter().map(|k| k.letter()).collect(),
        sequence_name: name,
        compare: compare.as_ref().map(|c| c.text),
        compare_name: compare.as_ref().map(|c| c.name),
    };
    let json = serde_json::to_string(&data).expect("the page data serializes");
    // '<' only occurs inside JSON strings, where \u003c means the same; without it a record's
    // text could close the script element ("</script>").
    let json = json.replace('<', "\\u003c");
    let (head, tail) = TEMPLATE
        .split_once("{{DATA}}")
        .expect("the template has a data slot");
    let mut out = String::with_capacity(TEMPLATE.len() + json.len());
    out.push_str(head);
    out.push_str(&json);
    out.push_str(tail);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_cannot_close_the_script() {
        let html = page(
            &[Kind::I, Kind::O],
            "b</script>.txt",
            Some(Compare {
                text: "game browser\n</script><b>\n",
                name: "a</script>.txt",
            }),
        );
        assert!(!html.contains("</script><b>"));
        assert!(!html.contains("a</script>.txt"));
        assert!(!html.contains("b</script>.txt"));
        assert!(html.contains(r#""sequence":"IO""#));
        assert_eq!(html.matches("</script>").count(), 1);
    }

    #[test]
    fn the_page_needs_no_network() {
        let html = page(&[Kind::T], "t.txt", None);
        for external in ["http:", "https:", "src=", "@import", "url("] {
            assert!(!html.contains(external), "the page refers to {external}");
        }
        assert!(html.contains(r#""compare":null"#));
    }
}

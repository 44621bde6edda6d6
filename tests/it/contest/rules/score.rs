//! The contest's score held to `docs/RULES.md`: cells counted after writing and before the
//! clear, and the multipliers of one to four cleared rows.

use tetris_opt::games::contest::rules::Rules;
use tetris_opt::games::contest::rules::{self, Field, Kind, Piece};

#[test]
fn the_score_counts_cells_after_writing_and_before_the_clear() {
    let mut board = Field::from_picture(
        "
        #.........
        ##......##
        ####.#####",
    );
    // An upright I dropped into the well at x = 4 completes row 19.
    let i = Piece {
        kind: Kind::I,
        state: 0,
        x: 4,
        y: 18,
    };
    assert!(rules::is_resting(&board, &i));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    // 14 cells before, 18 after writing, 8 after the clear: the score uses 18, k(1) = 1.
    assert_eq!((turn.filled, turn.score, turn.lines), (18, 18, 1));
    assert_eq!(
        board,
        Field::from_picture(
            "
            ....#.....
            #...#.....
            ##..#...##"
        )
    );
}

/// Locks an upright I at x = 0 on `before` (whose column 0 is empty on rows 16..19) and checks
/// the turn and the board after it.
fn upright_i_clear(before: &str, filled: u32, lines: u32, after: &str) {
    let mut board = Field::from_picture(before);
    let i = Piece {
        kind: Kind::I,
        state: 0,
        x: 0,
        y: 18,
    };
    assert!(board.is_valid(&i) && rules::is_resting(&board, &i));
    let turn = rules::lock(&mut board, &i, 0, Rules::default());
    let k = [0, 1, 3, 6, 10][lines as usize];
    assert_eq!(
        (turn.filled, turn.lines, turn.score, turn.game_over),
        (filled, lines, filled as u64 * k, None)
    );
    assert_eq!(board, Field::from_picture(after));
}

#[test]
fn two_line_clear_of_rows_17_and_19_scores_3_per_cell() {
    // Rows 17 and 19 fill, row 18 keeps its hole at x = 3, and row 15 (above the I) stays one
    // cell short. 37 cells + 4 = 41, k(2) = 3. Rows 15..16 drop by two; the cell at x = 3 of
    // row 16 stays above the hole (no cascade).
    upright_i_clear(
        "
        .#########
        .#.#......
        .#########
        .##.######
        .#########",
        41,
        2,
        "
        .#########
        ##.#......
        ###.######",
    );
}

#[test]
fn three_line_clear_of_rows_16_17_and_19_scores_6_per_cell() {
    // Rows 16, 17 and 19 fill, row 18 keeps its hole at x = 5. 37 cells + 4 = 41, k(3) = 6.
    // Rows 14..15 drop by three, row 18 by one; the column at x = 5 hangs over the hole.
    upright_i_clear(
        "
        .....#....
        .....#....
        .#########
        .#########
        .####.####
        .#########",
        41,
        3,
        "
        .....#....
        .....#....
        #####.####",
    );
}

#[test]
fn four_line_clear_scores_10_per_cell_and_drops_the_rest_by_four() {
    // Only an upright I clears four rows, and they are adjacent. 36 + 2 cells + 4 = 42, k(4) = 10.
    // The cell at x = 3 drops by four and hangs over the empty (3, 19) (no cascade).
    upright_i_clear(
        "
        ..........
        ...#......
        ..#.......
        .#########
        .#########
        .#########
        .#########",
        42,
        4,
        "
        ...#......
        ..#.......",
    );
}

#[test]
fn clear_multipliers_are_the_rules_k() {
    assert_eq!(rules::CLEAR_MULTIPLIER, [0, 1, 3, 6, 10]);
}

//! The board measures behind a cause, on boards drawn by hand, and the order of the causes.

use super::*;

/// Column heights 4 3 2 6 0 3 3 4 4 2: the well is column 4, 3 rows below the lower of its
/// neighbours (column 5), with its two lowest rows ready for an I; column 7 has a hole in
/// row 17 under its cell in row 16.
const STACK: &str = "
    ...#......
    ...#......
    #..#...##.
    ##.#.##.#.
    ####.#####
    ####.#####
";

#[test]
fn a_hand_drawn_stack_measures_as_counted() {
    let shape = Shape::of(&Field::from_picture(STACK));
    assert_eq!(
        shape,
        Shape {
            holes: 1,
            headroom: 14,
            // Six rows of nine, less the 30 cells in them.
            gaps: 6 * 9 - 30,
            top_cells: [1, 1, 4, 6],
            // Beside the well: 4 3 2 6 3 3 4 4 2, steps 1 1 4 3 0 1 0 2.
            bumpiness: 12,
            // Column 9 is 2 below column 8 (the wall counts as high), column 2 is 1 below
            // column 1: only the well is 3 below both neighbours.
            i_only_columns: 1,
            well_depth: 3,
            well_clears: 2,
        }
    );
    assert_eq!(Cause::of(&shape), Cause::Holes);
}

#[test]
fn an_empty_board_has_no_well() {
    let shape = Shape::of(&Field::new());
    assert_eq!(
        shape,
        Shape {
            headroom: 20,
            ..Shape::default()
        }
    );
}

/// Of equally deep wells the leftmost is the well; a well at the wall counts the wall as a
/// neighbour as high as the board.
#[test]
fn the_well_is_the_deepest_column_and_the_wall_is_high() {
    let shape = Shape::of(&Field::from_picture(
        "
        .####.####
        .####.####
        .####.####
        .#########
        ",
    ));
    // Column 0: 4 below column 1 (the wall is higher); column 5: 3 below both neighbours.
    assert_eq!(shape.well_depth, 4);
    assert_eq!(shape.i_only_columns, 2);
    assert_eq!(shape.well_clears, 1);
    // Beside column 0's well: 4 4 4 4 1 4 4 4 4.
    assert_eq!(shape.bumpiness, 6);
}

/// The first cause a board shows: holes, then a low top, then a bumpy surface.
#[test]
fn causes_are_read_in_order() {
    let tall = Shape {
        headroom: LOW_ABOVE,
        ..Shape::default()
    };
    let with = |change: fn(&mut Shape)| {
        let mut shape = tall;
        change(&mut shape);
        Cause::of(&shape)
    };
    assert_eq!(Cause::of(&tall), Cause::Surface);
    assert_eq!(with(|s| s.bumpiness = BUMPY_ABOVE), Cause::Surface);
    assert_eq!(with(|s| s.bumpiness = BUMPY_ABOVE + 1), Cause::Bumpy);
    assert_eq!(
        with(|s| {
            s.bumpiness = BUMPY_ABOVE + 1;
            s.headroom = LOW_ABOVE + 1;
        }),
        Cause::Low
    );
    assert_eq!(
        with(|s| {
            s.headroom = LOW_ABOVE + 1;
            s.holes = 1;
        }),
        Cause::Holes
    );
}

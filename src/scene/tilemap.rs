//! Tile maps: a grid of characters made into the shapes of one static body.
//!
//! Characters (documented in `docs/scenes.md`): `#` a solid square; `L`, `J`,
//! `F`, `7` the four right-triangle tiles of seed 001, each named by where
//! its solid right-angle corner sits (`L` lower-left, `J` lower-right, `F`
//! upper-left, `7` upper-right), so the missing corner is the opposite one;
//! `.` and space are empty.
//!
//! Solid squares are merged into as few boxes as the greedy rule finds: runs
//! along a row, then runs of equal extent stacked over rows. Fewer boxes
//! means fewer internal edges for a rolling ball to catch on.
//!
//! Frame: shapes are in the tile map body's frame, whose origin is the
//! lower-left corner of the bottom-left tile; `rows[0]` is the top row.

use super::check::Checker;
use super::error::ProblemKind;
use crate::math::{Real, vec2};
use crate::shape::{Aabb, Corner, Shape, TileTriangle};
use std::collections::BTreeMap;

/// Most tiles (non-empty cells) one map may hold.
pub const MAX_TILES: usize = 100_000;

/// What one cell of the grid holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// Nothing.
    Empty,
    /// A solid square.
    Solid,
    /// A right triangle without this corner.
    Triangle(Corner),
}

/// The cell a character stands for, or `None` if it is not a tile character.
pub(crate) fn cell(c: char) -> Option<Cell> {
    Some(match c {
        '.' | ' ' => Cell::Empty,
        '#' => Cell::Solid,
        'L' => Cell::Triangle(Corner::UpperRight),
        'J' => Cell::Triangle(Corner::UpperLeft),
        'F' => Cell::Triangle(Corner::LowerRight),
        '7' => Cell::Triangle(Corner::LowerLeft),
        _ => return None,
    })
}

/// The shapes of a grid with square tiles of side `size` (local frame), or
/// `None` with a problem recorded for every bad character.
pub(crate) fn tile_shapes(
    checker: &mut Checker,
    path: &super::locate::FieldPath,
    rows: &[String],
    size: Real,
) -> Option<Vec<Shape>> {
    let mut grid: Vec<Vec<Cell>> = Vec::with_capacity(rows.len());
    let mut ok = true;
    let mut count = 0usize;
    for (r, row) in rows.iter().enumerate() {
        let mut cells = Vec::with_capacity(row.len());
        for (i, c) in row.chars().enumerate() {
            match cell(c) {
                Some(found) => {
                    count += usize::from(found != Cell::Empty);
                    cells.push(found);
                }
                None => {
                    ok = false;
                    checker.problems.push(super::check::RawProblem {
                        path: path.field("rows").index(r),
                        char_index: Some(i),
                        kind: ProblemKind::BadTile,
                        message: format!(
                            "expected a tile character ('#', 'L', 'J', 'F', '7', '.' or space), \
                             found {c:?} at column {i} of the row"
                        ),
                    });
                }
            }
        }
        grid.push(cells);
    }
    if count > MAX_TILES {
        checker.report(
            path.field("rows"),
            ProblemKind::OutOfRange,
            format!("expected at most {MAX_TILES} tiles, found {count}"),
        );
        return None;
    }
    if !ok {
        return None;
    }
    let height = grid.len();
    let mut shapes = Vec::new();
    // Boxes still growing downwards, by (first column, end column) → top row.
    let mut open: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let close = |(c0, c1): (usize, usize), top: usize, bottom: usize, out: &mut Vec<Shape>| {
        // Row r spans y in [(height-1-r)·size, (height-r)·size].
        let min = vec2(c0 as Real * size, (height - 1 - bottom) as Real * size);
        let max = vec2(c1 as Real * size, (height - top) as Real * size);
        if let Ok(aabb) = Aabb::new(min, max) {
            out.push(Shape::from(aabb));
        }
    };
    for (r, cells) in grid.iter().enumerate() {
        let mut runs = Vec::new();
        let mut c = 0;
        while c < cells.len() {
            if cells[c] == Cell::Solid {
                let start = c;
                while c < cells.len() && cells[c] == Cell::Solid {
                    c += 1;
                }
                runs.push((start, c));
            } else {
                c += 1;
            }
        }
        let ended: Vec<((usize, usize), usize)> = open
            .iter()
            .filter(|(run, _)| !runs.contains(run))
            .map(|(run, top)| (*run, *top))
            .collect();
        for (run, top) in ended {
            open.remove(&run);
            close(run, top, r - 1, &mut shapes);
        }
        for run in runs {
            open.entry(run).or_insert(r);
        }
        for (c, found) in cells.iter().enumerate() {
            if let Cell::Triangle(missing) = *found {
                let min = vec2(c as Real * size, (height - 1 - r) as Real * size);
                let max = min + vec2(size, size);
                if let Ok(tile) = TileTriangle::new(min, max, missing) {
                    shapes.push(Shape::from(tile));
                }
            }
        }
    }
    for (run, top) in open {
        close(run, top, height - 1, &mut shapes);
    }
    Some(shapes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::locate::FieldPath;
    use crate::shape::MassProperties;

    fn shapes(rows: &[&str]) -> Vec<Shape> {
        let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        let mut checker = Checker::default();
        let out = tile_shapes(&mut checker, &FieldPath::default(), &rows, 0.5).unwrap();
        assert!(checker.problems.is_empty());
        out
    }

    fn area(shapes: &[Shape]) -> f32 {
        let parts: Vec<MassProperties> = shapes.iter().map(|s| s.mass_properties()).collect();
        MassProperties::combine(&parts).area
    }

    #[test]
    fn solid_squares_merge_into_boxes_keeping_their_area() {
        let out = shapes(&["####", "####", "#..#"]);
        // A 4×2 block on top of the row, and two single columns below: 3 boxes.
        assert_eq!(out.len(), 3);
        assert!((area(&out) - 10.0 * 0.25).abs() < 1e-5);
    }

    #[test]
    fn triangle_characters_keep_their_solid_corner() {
        // One row: each triangle's right-angle corner is where the letter says.
        let out = shapes(&["LJF7"]);
        let corners: Vec<Corner> = out
            .iter()
            .map(|s| match s {
                Shape::TileTriangle(t) => t.missing(),
                other => panic!("not a tile: {other:?}"),
            })
            .collect();
        assert_eq!(
            corners,
            [
                Corner::UpperRight,
                Corner::UpperLeft,
                Corner::LowerRight,
                Corner::LowerLeft
            ]
        );
        assert!((area(&out) - 4.0 * 0.125).abs() < 1e-5);
    }

    #[test]
    fn the_top_row_is_highest() {
        let out = shapes(&["#.", ".."]);
        let Shape::Aabb(aabb) = &out[0] else {
            panic!("not a box")
        };
        assert_eq!((aabb.min, aabb.max), (vec2(0.0, 0.5), vec2(0.5, 1.0)));
    }

    #[test]
    fn every_bad_character_is_reported_with_its_column() {
        let rows = vec!["#x#".to_string(), "??".to_string()];
        let mut checker = Checker::default();
        assert!(tile_shapes(&mut checker, &FieldPath::default(), &rows, 1.0).is_none());
        let found: Vec<Option<usize>> = checker.problems.iter().map(|p| p.char_index).collect();
        assert_eq!(found, [Some(1), Some(0), Some(1)]);
    }
}

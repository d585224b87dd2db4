//! Bad scene files: every problem is one clear message with
//! `file:line:column`, the field, and what was expected.
//!
//! Locks:
//! - one test per kind of bad input: a syntax error, an unknown field, a
//!   wrong type, a NaN, a self-intersecting polygon, a negative radius, a
//!   bad tile character, an unknown gun target or mount, a duplicate name, a
//!   file that cannot be read, a missing mask image, a mask image that is
//!   not a PNG (and one that is corrupt, too large, all transparent at its
//!   threshold, or a `Mask` used as a shape of its own);
//! - `Scene::check` lists every problem of a scene that parses, each at its
//!   own line, in file order;
//! - every float of a real scene, replaced by `NaN` (or `inf`), is reported
//!   at exactly that line and column.

use circlet::scene::{ImageSource, Problem, ProblemKind, Scene, SceneError};
use std::path::PathBuf;

/// The one problem of `text`, which must have exactly one.
fn only_problem(text: &str) -> Problem {
    let problems = Scene::check(text, "bad.ron");
    assert_eq!(problems.len(), 1, "{problems:#?}");
    problems.into_iter().next().unwrap()
}

fn assert_problem(
    problem: &Problem,
    (line, column): (usize, usize),
    field: &str,
    kind: ProblemKind,
    words: &[&str],
) {
    let text = problem.to_string();
    assert!(
        text.starts_with(&format!("bad.ron:{line}:{column}: ")),
        "wrong place: {text}"
    );
    assert_eq!(problem.field, field, "{text}");
    assert_eq!(problem.kind, kind, "{text}");
    for word in words {
        assert!(text.contains(word), "{word:?} missing from: {text}");
    }
}

const GOOD_BODY: &str = "(shape: Circle(radius: 1))";

#[test]
fn syntax_error() {
    let text =
        "(\n  bodies: [\n    (shape: Circle(radius: 1))\n    (shape: Circle(radius: 2)),\n  ],\n)";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (4, 5),
        "bodies",
        ProblemKind::Syntax,
        &["expected comma"],
    );
}

#[test]
fn unknown_field() {
    let text = "(\n  bodies: [\n    (shape: Circle(radios: 1)),\n  ],\n)";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 20),
        "bodies[0].shape.radios",
        ProblemKind::UnknownField,
        &[
            "unknown field `radios`",
            "expected one of `radius`, `center`",
        ],
    );
}

#[test]
fn unknown_field_at_the_top() {
    let problem = only_problem("(bodies: [], gravity: (0, -10))");
    assert_problem(
        &problem,
        (1, 14),
        "gravity",
        ProblemKind::UnknownField,
        &["`settings`"],
    );
}

#[test]
fn wrong_type() {
    let text = "(\n  bodies: [\n    (position: (0, 1), shape: Circle(radius: \"big\")),\n  ],\n)";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 46),
        "bodies[0].shape.radius",
        ProblemKind::WrongType,
        &["expected a number", "found `\"big\"`"],
    );
    let problem = only_problem("(bodies: [(kind: Floating, shape: Circle(radius: 1))])");
    assert_problem(
        &problem,
        (1, 18),
        "bodies[0].kind",
        ProblemKind::WrongType,
        &["`Floating`", "`Static`, `Kinematic`, `Dynamic`"],
    );
}

#[test]
fn missing_field() {
    let problem = only_problem("(bodies: [(shape: Capsule(a: (0, 0), radius: 1))])");
    assert_problem(
        &problem,
        (1, 47),
        "bodies[0].shape",
        ProblemKind::MissingField,
        &["missing field `b`"],
    );
}

#[test]
fn nan() {
    let text = "(\n  bodies: [\n    (position: (0, NaN), shape: Circle(radius: 1)),\n  ],\n)";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 20),
        "bodies[0].position.y",
        ProblemKind::NotFinite,
        &["expected a finite number, found NaN"],
    );
}

#[test]
fn self_intersecting_polygon() {
    let text =
        "(bodies: [\n  (shape: SimplePolygon(points: [(0, 0), (1, 1), (1, 0), (0, 1)])),\n])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (2, 34),
        "bodies[0].shape.points[0]",
        ProblemKind::BadShape,
        &["self-intersecting", "edge 0 crossing edge 2"],
    );
}

#[test]
fn non_convex_polygon_suggests_a_simple_polygon() {
    let text = "(bodies: [(shape: Polygon(points: [(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)]))])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (1, 52),
        "bodies[0].shape.points[2]",
        ProblemKind::BadShape,
        &["convex", "SimplePolygon"],
    );
}

#[test]
fn negative_radius() {
    let text = "(\n  bodies: [\n    (shape: Circle(radius: -0.5)),\n  ],\n)";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 28),
        "bodies[0].shape.radius",
        ProblemKind::OutOfRange,
        &["expected a number > 0, found -0.5"],
    );
}

#[test]
fn bad_tile_character_points_at_the_character() {
    let text = "(tile_maps: [(rows: [\n  \"####\",\n  \"#.x#\",\n])])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 6),
        "tile_maps[0].rows[1]",
        ProblemKind::BadTile,
        &["found 'x'"],
    );
}

#[test]
fn unknown_gun_target_lists_the_names() {
    let text = "(bodies: [(name: \"ship\", shape: Circle(radius: 1))],\n guns: [(position: (0, 0), aim: Target(\"shp\"), rate: 1, speed: 9)])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (2, 33),
        "guns[0].aim",
        ProblemKind::BadName,
        &["\"shp\"", "named bodies: ship"],
    );
}

#[test]
fn unknown_gun_mount_lists_the_names() {
    let text = "(bodies: [(name: \"ship\", shape: Circle(radius: 1))],\n guns: [(position: (0, 0), aim: Angle(0), mount: Some(\"shp\"), rate: 1, speed: 9)])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (2, 50),
        "guns[0].mount",
        ProblemKind::BadName,
        &["\"shp\"", "named bodies: ship"],
    );
}

#[test]
fn duplicate_names() {
    let text = "(bodies: [\n (name: \"a\", shape: Circle(radius: 1)),\n (name: \"a\", shape: Circle(radius: 1)),\n])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 9),
        "bodies[1].name",
        ProblemKind::BadName,
        &["already used by bodies[0].name"],
    );
}

#[test]
fn part_names_are_unique_in_their_body() {
    let text = "(bodies: [(colliders: [\n  (name: \"wing\", shape: Circle(radius: 1)),\n  (name: \"wing\", shape: Circle(radius: 1), offset: (2, 0)),\n])])";
    let problem = only_problem(text);
    assert_problem(
        &problem,
        (3, 10),
        "bodies[0].colliders[1].name",
        ProblemKind::BadName,
        &["\"wing\" twice"],
    );
}

#[test]
fn a_body_without_colliders() {
    let problem = only_problem("(bodies: [(position: (1, 2))])");
    assert_problem(
        &problem,
        (1, 11),
        "bodies[0]",
        ProblemKind::MissingField,
        &["`shape` or `colliders`"],
    );
}

#[test]
fn unreadable_file() {
    let missing = std::env::temp_dir().join("circlet-no-such-scene.ron");
    let error = Scene::load(&missing).unwrap_err();
    assert!(matches!(error, SceneError::Io { .. }));
    assert!(error.to_string().contains("circlet-no-such-scene.ron"));
    assert!(error.problems().is_empty());
}

/// A fresh directory for one test's images.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("circlet-mask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A PNG of `width × height` pixels, opaque where `solid(x, y)`, clear elsewhere.
fn png(width: u32, height: u32, solid: impl Fn(u32, u32) -> bool) -> Vec<u8> {
    let mut pixmap = tiny_skia::Pixmap::new(width, height).unwrap();
    for (i, pixel) in pixmap.pixels_mut().iter_mut().enumerate() {
        let (x, y) = (i as u32 % width, i as u32 / width);
        if solid(x, y) {
            *pixel = tiny_skia::PremultipliedColorU8::from_rgba(255, 255, 255, 255).unwrap();
        }
    }
    pixmap.encode_png().unwrap()
}

/// A one-body scene fitting a tree to the mask image `path`; the
/// path value is at line 3, column 25.
fn mask_scene(path: &str, threshold: &str) -> String {
    format!(
        "(bodies: [\n  (shape: FittedTree(\n    outline: Mask(path: \"{path}\", threshold: {threshold}, pixel_size: 0.1),\n    epsilon: 0.05)),\n])"
    )
}

/// The one problem of `text` with mask images read from `dir`.
fn only_mask_problem(text: &str, dir: &std::path::Path) -> Problem {
    let error = Scene::from_str_with(text, "bad.ron", &ImageSource::Dir(dir.into())).unwrap_err();
    let problems = error.problems();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    problems[0].clone()
}

#[test]
fn missing_mask_image() {
    let dir = scratch("missing");
    let problem = only_mask_problem(&mask_scene("ships/x.png", "0.5"), &dir);
    assert_problem(
        &problem,
        (3, 25),
        "bodies[0].shape.outline.path",
        ProblemKind::BadImage,
        &["mask image `ships/x.png` not found (looked for `"],
    );
    // Where it looked: the images' directory joined with the written path.
    let looked = dir.join("ships/x.png").display().to_string();
    assert!(
        problem.message.ends_with(&format!("`{looked}`)")),
        "{problem}"
    );
    // Text without a file looks from the current directory, and says so.
    let problems = Scene::check(&mask_scene("ships/x.png", "0.5"), "bad.ron");
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].to_string().starts_with(
            "bad.ron:3:25: bodies[0].shape.outline.path: mask image `ships/x.png` not found \
             (looked for `ships/x.png` from the current directory)"
        ),
        "{}",
        problems[0]
    );
}

#[test]
fn mask_image_that_is_not_a_png() {
    let dir = scratch("not-png");
    std::fs::write(dir.join("ship.png"), "(a scene, perhaps)").unwrap();
    let problem = only_mask_problem(&mask_scene("ship.png", "0.5"), &dir);
    assert_problem(
        &problem,
        (3, 25),
        "bodies[0].shape.outline.path",
        ProblemKind::BadImage,
        &["mask image `ship.png` is not a PNG image"],
    );
    // A PNG whose data is cut short after its header.
    let mut cut = png(16, 8, |x, _| x < 8);
    cut.truncate(40);
    std::fs::write(dir.join("cut.png"), cut).unwrap();
    let problem = only_mask_problem(&mask_scene("cut.png", "0.5"), &dir);
    assert_problem(
        &problem,
        (3, 25),
        "bodies[0].shape.outline.path",
        ProblemKind::BadImage,
        &["mask image `cut.png` is not a readable PNG image"],
    );
    // A directory where the image should be.
    std::fs::create_dir_all(dir.join("folder.png")).unwrap();
    let problem = only_mask_problem(&mask_scene("folder.png", "0.5"), &dir);
    assert!(problem.message.contains("is a directory"), "{problem}");
}

#[test]
fn mask_images_too_large_or_all_transparent() {
    let dir = scratch("limits");
    let side = circlet::scene::MAX_MASK_SIDE + 1;
    std::fs::write(dir.join("wide.png"), png(side, 2, |_, _| true)).unwrap();
    let problem = only_mask_problem(&mask_scene("wide.png", "0.5"), &dir);
    assert_problem(
        &problem,
        (3, 25),
        "bodies[0].shape.outline.path",
        ProblemKind::BadImage,
        &[&format!("{side} x 2 pixels, expected at most")],
    );
    // Opaque nowhere: every threshold finds nothing, reported at the threshold.
    std::fs::write(dir.join("clear.png"), png(8, 8, |_, _| false)).unwrap();
    let problem = only_mask_problem(&mask_scene("clear.png", "0.25"), &dir);
    assert_problem(
        &problem,
        (3, 49),
        "bodies[0].shape.outline.threshold",
        ProblemKind::BadImage,
        &["alpha >= 0.25", "all transparent"],
    );
    // A threshold outside (0, 1] is reported with the image's own problems.
    let error = Scene::from_str_with(
        &mask_scene("nothing.png", "0"),
        "bad.ron",
        &ImageSource::Dir(dir.clone()),
    )
    .unwrap_err();
    let fields: Vec<&str> = error.problems().iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "bodies[0].shape.outline.path",
            "bodies[0].shape.outline.threshold"
        ]
    );
}

#[test]
fn a_mask_is_only_an_outline() {
    let problem = only_problem("(bodies: [(shape: Mask(path: \"ship.png\", pixel_size: 0.1))])");
    assert_problem(
        &problem,
        (1, 19),
        "bodies[0].shape",
        ProblemKind::BadShape,
        &["found a `Mask`", "FittedTree(outline: Mask(..)"],
    );
}

#[test]
fn check_lists_every_problem_in_file_order() {
    let text = "(\n\
        settings: (dt: -1, substeps: 0),\n\
        bodies: [\n\
            (position: (inf, 0), shape: Circle(radius: 0)),\n\
            (scale: -2, shape: Box(half_extents: (1, -1))),\n\
            (colliders: [(shape: Regular(sides: 2, radius: 1), material: (density: 0, restitution: 2))]),\n\
            (shape: Aabb(min: (1, 1), max: (0, 2))),\n\
            {GOOD},\n\
        ],\n\
        guns: [(position: (0, 0), aim: Direction((0, 0)), rate: 0, speed: 1, spread: 3)],\n\
    )"
    .replace("{GOOD}", GOOD_BODY);
    let problems = Scene::check(&text, "bad.ron");
    let found: Vec<(usize, &str)> = problems
        .iter()
        .map(|p| (p.location.line, p.field.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (2, "settings.dt"),
            (2, "settings.substeps"),
            (4, "bodies[0].position.x"),
            (4, "bodies[0].shape.radius"),
            (5, "bodies[1].scale"),
            (5, "bodies[1].shape.half_extents.y"),
            (6, "bodies[2].colliders[0].shape.sides"),
            (6, "bodies[2].colliders[0].material.density"),
            (6, "bodies[2].colliders[0].material.restitution"),
            (7, "bodies[3].shape"),
            (10, "guns[0].aim"),
            (10, "guns[0].rate"),
            (10, "guns[0].spread"),
        ],
        "{problems:#?}"
    );
    // Columns increase along a line.
    for pair in problems.windows(2) {
        if pair[0].location.line == pair[1].location.line {
            assert!(
                pair[0].location.column < pair[1].location.column,
                "{pair:#?}"
            );
        }
    }
    // The error lists them all, one per line.
    let error = Scene::from_str(&text, "bad.ron").unwrap_err();
    assert_eq!(error.to_string().lines().count(), problems.len());
}

/// Start and end (byte offsets) of every number literal in `text` outside
/// comments and strings.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += 1;
                }
                i += 1;
            }
            c if c.is_ascii_digit() || c == b'-' => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'.' | b'-' | b'_'))
                {
                    i += 1;
                }
                let previous = text[..start].chars().next_back();
                if !previous.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    spans.push((start, i));
                }
            }
            _ => i += 1,
        }
    }
    spans
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.chars().rev().take_while(|&c| c != '\n').count() + 1;
    (line, column)
}

#[test]
fn every_float_of_a_scene_is_checked_for_nan_at_its_place() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/showcase.ron");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(Scene::check(&text, "bad.ron").is_empty());
    let spans = number_spans(&text);
    assert!(spans.len() > 150, "found only {} numbers", spans.len());
    let mut checked = 0;
    for (k, &(start, end)) in spans.iter().enumerate() {
        let literal = &text[start..end];
        // Integer fields (sides, substeps) cannot hold NaN: RON refuses it
        // there as a wrong type, checked below at the same line.
        let bad = if k % 2 == 0 { "NaN" } else { "-inf" };
        let mutated = format!("{}{bad}{}", &text[..start], &text[end..]);
        let problems = Scene::check(&mutated, "bad.ron");
        assert_eq!(problems.len(), 1, "{literal} at {start}: {problems:#?}");
        let problem = &problems[0];
        let (line, column) = line_column(&text, start);
        if problem.kind == ProblemKind::WrongType {
            // An integer field: refused by the parser, at the same place.
            assert_eq!(problem.location.line, line, "{problem}");
            continue;
        }
        assert_eq!(problem.kind, ProblemKind::NotFinite, "{problem}");
        assert_eq!(
            (problem.location.line, problem.location.column),
            (line, column),
            "{literal} replaced by {bad}: {problem}"
        );
        checked += 1;
    }
    assert!(checked > 150, "only {checked} floats checked");
}

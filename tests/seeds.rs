//! Every worked example of the source articles (seeds 000, 001, 002, 004, and
//! the two mistakes of 003), as named tests with the articles' numbers.
//!
//! Locks: points, lines, segments, oriented rectangles, circle against
//! point / line / segment / rectangle (000); circle against rectangle in all
//! nine positions, circle against triangle tiles in all four orientations and
//! the seven cases of the LowerLeft walk-through (001); polygon SAT, edge
//! intersection and non-convex overlap (002); the thick-line test (004).
//!
//! Where an article is wrong the test asserts the correct answer and says why
//! in one line. Touching counts everywhere (the articles mix `<` and `<=`).
//! Seed 002's collision prediction ("the axis with the smallest time") is a
//! time-of-impact question and is locked by the time-of-impact tests.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::geometry::segment_segment_closest_points;
use circlet::query::{distance, intersects, point_inside};
use circlet::shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Corner, Line, OrientedRect, Point, Segment, Shape,
    SimplePolygon, TileTriangle,
};

const ID: Pose = Pose::IDENTITY;

fn hit(a: &Shape, b: &Shape) -> bool {
    let forward = intersects(a, &ID, b, &ID);
    assert_eq!(
        forward,
        intersects(b, &ID, a, &ID),
        "intersects must be symmetric"
    );
    assert_eq!(
        forward,
        distance(a, &ID, b, &ID) == 0.0,
        "distance must be 0 exactly on a hit"
    );
    forward
}

fn point(x: Real, y: Real) -> Shape {
    Shape::from(Point::new(vec2(x, y)).unwrap())
}

fn line(base: Vec2, direction: Vec2) -> Shape {
    Shape::from(Line::new(base, direction).unwrap())
}

fn segment(a: Vec2, b: Vec2) -> Shape {
    Shape::from(Segment::new(a, b).unwrap())
}

fn circle(x: Real, y: Real, radius: Real) -> Shape {
    Shape::from(Circle::new(vec2(x, y), radius).unwrap())
}

fn aabb(min: Vec2, max: Vec2) -> Shape {
    Shape::from(Aabb::new(min, max).unwrap())
}

fn polygon(points: &[Vec2]) -> Shape {
    Shape::from(ConvexPolygon::new(points).unwrap())
}

// ---------------------------------------------------------------- seed 000

#[test]
fn seed_000_points_collide() {
    // The article compares with equal_floats; ours is exact equality, so that
    // intersects and distance == 0 are the same predicate.
    let (a, b, c) = (point(2.0, 3.0), point(2.0, 3.0), point(3.0, 4.0));
    assert!(hit(&a, &b));
    assert!(!hit(&a, &c));
    assert!(!hit(&b, &c));
}

#[test]
fn seed_000_lines_collide() {
    let (a, b, c) = (vec2(3.0, 5.0), vec2(3.0, 2.0), vec2(8.0, 4.0));
    let (down, up) = (vec2(5.0, -1.0), vec2(5.0, 2.0));
    let (l1, l2, l3, l4) = (line(a, down), line(a, up), line(b, up), line(c, down));
    assert!(hit(&l1, &l2));
    assert!(hit(&l1, &l3));
    assert!(!hit(&l2, &l3)); // parallel, not equivalent
    assert!(hit(&l1, &l4)); // equivalent: c = a + down
    assert!((distance(&l2, &ID, &l3, &ID) - 15.0 / 29f32.sqrt()).abs() < 1e-5); // |cross(up, b - a)| / |up|
}

#[test]
fn seed_000_segments_collide() {
    let s1 = segment(vec2(3.0, 4.0), vec2(11.0, 1.0));
    let s2 = segment(vec2(8.0, 4.0), vec2(11.0, 7.0));
    assert!(!hit(&s1, &s2));
}

#[test]
fn seed_000_oriented_rectangles_collide() {
    // The article's rotations are in degrees.
    let a =
        Shape::from(OrientedRect::new(vec2(3.0, 5.0), vec2(1.0, 3.0), 15f32.to_radians()).unwrap());
    let b = Shape::from(
        OrientedRect::new(vec2(10.0, 5.0), vec2(2.0, 2.0), (-15f32).to_radians()).unwrap(),
    );
    assert!(!hit(&a, &b));
    // Along a's x axis the projections are 7 cos 15° - 1 - (2 cos 30° + 2 sin 30°)
    // = 3.03 m apart, a lower bound of the distance; sliding a 3 m along x
    // closes 3 cos 15° = 2.90 m of it, sliding 4 m closes it.
    assert!(!intersects(
        &a,
        &Pose::from_translation(vec2(3.0, 0.0)),
        &b,
        &ID
    ));
    assert!(intersects(
        &a,
        &Pose::from_translation(vec2(4.0, 0.0)),
        &b,
        &ID
    ));
    let gap = 7.0 * 15f32.to_radians().cos() - 1.0 - (2.0 * 30f32.to_radians().cos() + 1.0);
    assert!(gap > 0.0 && distance(&a, &ID, &b, &ID) >= gap - 1e-5);
}

#[test]
fn seed_000_circle_point_collide() {
    let c = circle(6.0, 4.0, 3.0);
    assert!(hit(&c, &point(8.0, 3.0)));
    assert!(!hit(&c, &point(11.0, 7.0)));
    assert!(point_inside(&c, &ID, vec2(8.0, 3.0)));
}

#[test]
fn seed_000_circle_line_collide() {
    let c = circle(6.0, 3.0, 2.0);
    let l = line(vec2(4.0, 7.0), vec2(5.0, -1.0));
    assert!(!hit(&c, &l));
}

#[test]
fn seed_000_circle_segment_collide() {
    // We clamp the projection parameter to [0, 1] instead of comparing
    // projected lengths; the answer for the article's example is the same.
    let c = circle(4.0, 4.0, 3.0);
    assert!(!hit(&c, &segment(vec2(8.0, 6.0), vec2(13.0, 6.0))));
    // Both ends outside, the segment cuts through: the case the projection handles.
    assert!(hit(&c, &segment(vec2(0.0, 6.0), vec2(9.0, 6.0))));
}

#[test]
fn seed_000_circle_rectangle_collide() {
    // The article's example stops after the rectangle {{3, 2}, {6, 4}}
    // (origin + size, so x in [3, 9], y in [2, 6]); the circles are ours.
    let r = aabb(vec2(3.0, 2.0), vec2(9.0, 6.0));
    assert!(hit(&circle(6.0, 4.0, 1.0), &r)); // inside
    assert!(hit(&circle(10.5, 4.0, 1.5), &r)); // touching the right side
    assert!(!hit(&circle(10.6, 4.0, 1.5), &r));
    assert!(hit(&circle(10.0, 7.0, 1.42), &r)); // corner (9, 6) at sqrt(2)
    assert!(!hit(&circle(10.0, 7.0, 1.41), &r));
}

// ---------------------------------------------------------------- seed 001

/// The nine positions of a circle around the rectangle [0, 4] x [0, 2]
/// (1 2 3 above, 4 5 6 level, 7 8 9 below), each with the radius that
/// reaches the rectangle exactly.
#[test]
fn seed_001_circle_rect_nine_cases() {
    let r = aabb(vec2(0.0, 0.0), vec2(4.0, 2.0));
    let diagonal = 2f32.sqrt(); // corner cases sit 1 m out on both axes
    let cases = [
        (1, vec2(-1.0, 3.0), diagonal),
        (2, vec2(2.0, 3.0), 1.0),
        (3, vec2(5.0, 3.0), diagonal),
        (4, vec2(-1.0, 1.0), 1.0),
        (5, vec2(2.0, 1.0), 0.0),
        (6, vec2(5.0, 1.0), 1.0),
        (7, vec2(-1.0, -1.0), diagonal),
        (8, vec2(2.0, -1.0), 1.0),
        (9, vec2(5.0, -1.0), diagonal),
    ];
    for (case, center, reach) in cases {
        // Touching counts (the article's `<` would miss the exact contact).
        let touching = if case == 5 { 0.5 } else { reach + 1e-5 };
        assert!(
            hit(&circle(center.x, center.y, touching), &r),
            "case {case}"
        );
        if case != 5 {
            assert!(
                !hit(&circle(center.x, center.y, reach - 1e-3), &r),
                "case {case}"
            );
        }
    }
    assert!(hit(&circle(5.0, 1.0, 1.0), &r)); // exactly touching the right face
}

#[test]
fn seed_001_tiles_in_all_four_orientations() {
    // 2 x 2 tiles: the missing corner is sqrt(2) from the hypotenuse; the
    // opposite (right-angle) corner is part of the tile.
    let cut = 2f32.sqrt();
    for (missing, gone, kept) in [
        (Corner::UpperLeft, vec2(0.0, 2.0), vec2(2.0, 0.0)),
        (Corner::UpperRight, vec2(2.0, 2.0), vec2(0.0, 0.0)),
        (Corner::LowerLeft, vec2(0.0, 0.0), vec2(2.0, 2.0)),
        (Corner::LowerRight, vec2(2.0, 0.0), vec2(0.0, 2.0)),
    ] {
        let tile = Shape::from(TileTriangle::new(vec2(0.0, 0.0), vec2(2.0, 2.0), missing).unwrap());
        assert!(
            !hit(&circle(gone.x, gone.y, cut - 1e-3), &tile),
            "{missing:?}: missing corner"
        );
        assert!(
            hit(&circle(gone.x, gone.y, cut + 1e-5), &tile),
            "{missing:?}: reaching the slope"
        );
        assert!(
            hit(&circle(kept.x, kept.y, 0.01), &tile),
            "{missing:?}: kept corner"
        );
        assert!(!point_inside(&tile, &ID, gone), "{missing:?}");
        assert!(
            point_inside(&tile, &ID, vec2(1.0, 1.0)),
            "{missing:?}: the slope's midpoint"
        );
    }
}

/// The LowerLeft tile [0, 4] x [0, 4] (slope from (0, 4) to (4, 0)) and the
/// article's seven cases: corners #1, #3, #7, faces #2 (top) and #6 (right),
/// the angled face #4 and inside #5. Each circle is `gap` from the tile.
fn seven_cases() -> [(u32, &'static str, Vec2, Real); 7] {
    let diagonal = 2f32.sqrt();
    [
        (1, "upper-left corner", vec2(-1.0, 5.0), diagonal),
        (2, "top face", vec2(2.0, 5.0), 1.0),
        (3, "upper-right corner", vec2(5.0, 5.0), diagonal),
        (4, "angled face", vec2(1.0, 1.0), diagonal), // |1 + 1 - 4| / sqrt(2)
        (5, "inside", vec2(3.0, 3.0), 0.0),
        (6, "right face", vec2(5.0, 2.0), 1.0),
        (7, "lower-right corner", vec2(5.0, -1.0), diagonal),
    ]
}

#[test]
fn seed_001_lower_left_seven_cases() {
    let tile =
        Shape::from(TileTriangle::new(vec2(0.0, 0.0), vec2(4.0, 4.0), Corner::LowerLeft).unwrap());
    for (case, name, center, gap) in seven_cases() {
        assert!(
            hit(&circle(center.x, center.y, gap + 1e-5), &tile),
            "#{case} {name}"
        );
        if gap > 0.0 {
            assert!(
                !hit(&circle(center.x, center.y, gap - 1e-3), &tile),
                "#{case} {name}"
            );
            let d = distance(&circle(center.x, center.y, 0.5), &ID, &tile, &ID);
            assert!((d - (gap - 0.5)).abs() < 1e-5, "#{case} {name}: {d}");
        }
    }
}

#[test]
fn seed_001_lower_left_seven_cases_agree_with_the_polygon_path() {
    let tile = TileTriangle::new(vec2(0.0, 0.0), vec2(4.0, 4.0), Corner::LowerLeft).unwrap();
    let as_polygon = polygon(&tile.vertices());
    let tile = Shape::from(tile);
    for (case, name, center, gap) in seven_cases() {
        for radius in [gap * 0.9 + 0.01, gap * 1.1 + 0.01] {
            let c = circle(center.x, center.y, radius);
            assert_eq!(
                hit(&c, &tile),
                hit(&c, &as_polygon),
                "#{case} {name} radius {radius}"
            );
        }
    }
}

/// Seed 001's case #4 loop: steps of one unit along the slope from its nearer
/// end, rounded to whole pixels, stopping when the distance starts to grow.
fn seed_001_pixel_walk(center: Vec2, radius: Real, start: Vec2, end: Vec2) -> bool {
    let (start, end) = if (center - start).norm() < (center - end).norm() {
        (start, end)
    } else {
        (end, start)
    };
    let length = (end - start).norm();
    let step = (end - start) / length;
    let mut last = -1.0;
    for j in 1..=(length as i32) {
        let pixel = (start + step * j as Real).map(Real::round);
        let current = (pixel - center).norm();
        if current < radius {
            return true;
        }
        if last > 0.0 && current > last {
            return false;
        }
        last = current;
    }
    false
}

#[test]
fn seed_001_pixel_walk_steps_over_a_touching_circle() {
    // A 0.3 m ball touching the slope of a 10 m LowerLeft tile at (5.5, 4.5),
    // between the pixels (5, 5) and (6, 4): the walk misses it, the exact
    // closest point on the hypotenuse finds it.
    let tile = TileTriangle::new(vec2(0.0, 0.0), vec2(10.0, 10.0), Corner::LowerLeft).unwrap();
    let (start, end) = tile.hypotenuse();
    let outward = vec2(-1.0, -1.0) / 2f32.sqrt();
    let center = vec2(5.5, 4.5) + outward * 0.3;
    assert!(
        !seed_001_pixel_walk(center, 0.3 + 1e-4, start, end),
        "the article's walk misses"
    );
    assert!(hit(
        &circle(center.x, center.y, 0.3 + 1e-4),
        &Shape::from(tile)
    ));
    assert!(!hit(
        &circle(center.x, center.y, 0.3 - 1e-3),
        &Shape::from(tile)
    ));
}

// ---------------------------------------------------------------- seed 002

#[test]
fn seed_002_sat_finds_the_separating_edge() {
    let square = polygon(&[
        vec2(0.0, 0.0),
        vec2(1.0, 0.0),
        vec2(1.0, 1.0),
        vec2(0.0, 1.0),
    ]);
    // The square's own axes see overlap on x and on y; only the triangle's
    // slanted edge (x + y = 2.5) separates the two.
    let triangle = polygon(&[vec2(2.0, 0.5), vec2(2.0, 2.0), vec2(0.5, 2.0)]);
    assert!(!hit(&square, &triangle));
    assert!((distance(&square, &ID, &triangle, &ID) - 0.5 / 2f32.sqrt()).abs() < 1e-6);
    // Slid onto the corner (1, 1): touching.
    let touching = polygon(&[vec2(1.5, 0.5), vec2(1.5, 1.5), vec2(0.5, 1.5)]);
    assert!(hit(&square, &touching));
    let overlapping = polygon(&[vec2(0.5, 0.5), vec2(3.0, 0.5), vec2(0.5, 3.0)]);
    assert!(hit(&square, &overlapping));
}

#[test]
fn seed_002_edge_intersection() {
    // One edge a-b, the other c-d; they cross at a * (1 - t) + t * b with t = 1/2.
    let (a, b, c, d) = (
        vec2(0.0, 0.0),
        vec2(2.0, 2.0),
        vec2(0.0, 2.0),
        vec2(2.0, 0.0),
    );
    assert!(hit(&segment(a, b), &segment(c, d)));
    let (on_ab, on_cd) = segment_segment_closest_points(a, b, c, d);
    assert_eq!(on_ab, on_cd);
    assert!((on_ab - vec2(1.0, 1.0)).norm() < 1e-6);
    // t beyond 1: no intersection.
    assert!(!hit(&segment(a, vec2(0.9, 0.9)), &segment(c, d)));
}

#[test]
fn seed_002_nonconvex_overlap_without_a_vertex_inside() {
    // The article tests every vertex of each polygon for being inside the
    // other; two crossing bars have no such vertex and still overlap.
    let bar = [
        vec2(-3.0, -0.5),
        vec2(3.0, -0.5),
        vec2(3.0, 0.5),
        vec2(-3.0, 0.5),
    ];
    let across: Vec<Vec2> = bar.iter().map(|v| vec2(-v.y, v.x)).collect();
    let (first, second) = (
        Shape::from(SimplePolygon::new(&bar).unwrap()),
        Shape::from(SimplePolygon::new(&across).unwrap()),
    );
    let vertex_inside = bar.iter().any(|v| point_inside(&second, &ID, *v))
        || across.iter().any(|v| point_inside(&first, &ID, *v));
    assert!(!vertex_inside, "the article's vertex test finds nothing");
    assert!(hit(&first, &second));
}

// ---------------------------------------------------------------- seed 003

#[test]
fn seed_003_circle_test_is_not_inverted() {
    // The article returns true when the distance exceeds the sum of radii.
    assert!(!hit(&circle(0.0, 0.0, 1.0), &circle(3.0, 0.0, 1.0)));
    assert!(hit(&circle(0.0, 0.0, 1.0), &circle(1.5, 0.0, 1.0)));
}

#[test]
fn seed_003_box_test_keeps_x_and_y_apart() {
    // The article's Bottom2 = Box2.X + Box2.Height: with Box2 far to the right
    // and low, its "bottom" would be computed from its x position.
    let box1 = aabb(vec2(0.0, 10.0), vec2(2.0, 12.0));
    let box2 = aabb(vec2(20.0, 0.0), vec2(22.0, 1.0));
    assert!(!hit(&box1, &box2));
    assert!(hit(&box1, &aabb(vec2(2.0, 11.0), vec2(3.0, 13.0)))); // touching edge
}

// ---------------------------------------------------------------- seed 004

/// Seed 004's thick line against a circle, as written (strict `<`, and the
/// offset `f + t * d` where the offset from the closest point is `f - t * d`).
fn seed_004_intersect(center: Vec2, radius: Real, p1: Vec2, p2: Vec2, thickness: Real) -> bool {
    let virtual_radius = radius + thickness / 2.0;
    let squared_virtual_radius = virtual_radius * virtual_radius;
    let f = center - p1;
    if f.norm_squared() < squared_virtual_radius
        || (p2 - center).norm_squared() < squared_virtual_radius
    {
        return true;
    }
    let d = p2 - p1;
    let t = f.dot(&d) / d.norm_squared();
    (0.0..=1.0).contains(&t) && (f + d * t).norm_squared() < squared_virtual_radius
}

fn thick_line(p1: Vec2, p2: Vec2, thickness: Real) -> Shape {
    Shape::from(Capsule::from_thickness(p1, p2, thickness).unwrap())
}

#[test]
fn seed_004_thick_line_against_a_circle() {
    let (p1, p2) = (vec2(0.0, 0.0), vec2(10.0, 0.0));
    // Ball 1 m above the middle of a shot 1 m thick (reach 1.5 m): a hit.
    // The article's `f + t * d` measures from the wrong point and misses it.
    assert!(
        !seed_004_intersect(vec2(5.0, 1.0), 1.0, p1, p2, 1.0),
        "the article's sign error"
    );
    assert!(hit(&circle(5.0, 1.0, 1.0), &thick_line(p1, p2, 1.0)));
    // Near an end point both agree.
    assert!(seed_004_intersect(vec2(-1.0, 0.5), 1.0, p1, p2, 1.0));
    assert!(hit(&circle(-1.0, 0.5, 1.0), &thick_line(p1, p2, 1.0)));
    // Exactly touching counts (the article's `<` does not).
    assert!(!seed_004_intersect(vec2(5.0, 2.5), 2.0, p1, p2, 1.0));
    assert!(hit(&circle(5.0, 2.5, 2.0), &thick_line(p1, p2, 1.0)));
    assert!(!hit(&circle(5.0, 2.51, 2.0), &thick_line(p1, p2, 1.0)));
}

#[test]
fn seed_004_rectangles_circles_and_points_touching_count() {
    // The article's rectangle, circle and point tests all use strict `<`.
    assert!(hit(
        &aabb(vec2(0.0, 0.0), vec2(1.0, 1.0)),
        &aabb(vec2(1.0, 0.0), vec2(2.0, 1.0))
    ));
    assert!(hit(&circle(0.0, 0.0, 1.0), &circle(2.0, 0.0, 1.0)));
    assert!(point_inside(
        &aabb(vec2(0.0, 0.0), vec2(1.0, 1.0)),
        &ID,
        vec2(1.0, 0.5)
    ));
    assert!(point_inside(&circle(0.0, 0.0, 5.0), &ID, vec2(3.0, 4.0)));
}

#[test]
fn seed_004_thick_line_against_every_solid_kind() {
    // A shot 0.5 m thick along y = 2 grazes each shape whose top is at y = 1.75.
    let shot = thick_line(vec2(-10.0, 2.0), vec2(10.0, 2.0), 0.5);
    let missed = thick_line(vec2(-10.0, 2.01), vec2(10.0, 2.01), 0.5);
    let targets = [
        aabb(vec2(-1.0, 0.0), vec2(1.0, 1.75)),
        Shape::from(OrientedRect::new(vec2(0.0, 0.75), vec2(1.0, 1.0), 0.0).unwrap()),
        polygon(&[vec2(-1.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.75)]),
        Shape::from(
            TileTriangle::new(vec2(-1.0, 0.0), vec2(1.0, 1.75), Corner::UpperRight).unwrap(),
        ),
        Shape::from(
            SimplePolygon::new(&[
                vec2(-2.0, 0.0),
                vec2(2.0, 0.0),
                vec2(2.0, 1.75),
                vec2(0.0, 0.5),
                vec2(-2.0, 1.75),
            ])
            .unwrap(),
        ),
        circle(3.0, 0.75, 1.0),
        thick_line(vec2(-1.0, 1.0), vec2(1.0, 1.5), 0.5),
        segment(vec2(-5.0, 1.75), vec2(5.0, 0.0)),
        point(7.0, 1.75),
    ];
    for target in &targets {
        assert!(hit(&shot, target), "{:?}", target.kind());
        assert!(!hit(&missed, target), "{:?}", target.kind());
        assert!(
            (distance(&missed, &ID, target, &ID) - 0.01).abs() < 1e-5,
            "{:?}",
            target.kind()
        );
    }
}

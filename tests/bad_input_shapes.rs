//! Bad input to every shape constructor is a typed error that names the
//! problem and, for outlines, the index of the offending input point.
//!
//! Locks: NaN/inf coordinates, zero or negative radius/extent/thickness,
//! fewer than 3 points, repeated points, collinear points, clockwise input
//! (accepted and reoriented), non-convex input to ConvexPolygon,
//! self-intersecting input to SimplePolygon, and that no constructor panics.

use circlet::math::{Pose, Vec2, vec2};
use circlet::shape::{
    Aabb, Capsule, Circle, ConvexPolygon, Corner, Line, OrientedRect, Point, Segment, ShapeError,
    SimplePolygon, TileTriangle,
};

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

#[test]
fn nan_and_infinite_coordinates_name_the_field() {
    assert_eq!(
        Point::new(vec2(NAN, 0.0)),
        Err(ShapeError::NonFinite {
            field: "position",
            index: None
        })
    );
    assert!(matches!(
        Line::new(vec2(0.0, INF), vec2(1.0, 0.0)),
        Err(ShapeError::NonFinite { field: "point", .. })
    ));
    assert!(matches!(
        Segment::new(vec2(0.0, 0.0), vec2(NAN, 1.0)),
        Err(ShapeError::NonFinite { field: "b", .. })
    ));
    assert!(matches!(
        Circle::new(vec2(-INF, 0.0), 1.0),
        Err(ShapeError::NonFinite {
            field: "center",
            ..
        })
    ));
    assert!(matches!(
        Circle::new(vec2(0.0, 0.0), NAN),
        Err(ShapeError::NonFinite {
            field: "radius",
            ..
        })
    ));
    assert!(matches!(
        Aabb::new(vec2(0.0, 0.0), vec2(INF, 1.0)),
        Err(ShapeError::NonFinite { field: "max", .. })
    ));
    assert!(matches!(
        OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 1.0), INF),
        Err(ShapeError::NonFinite { field: "angle", .. })
    ));
    let outline = [
        vec2(0.0, 0.0),
        vec2(1.0, 0.0),
        vec2(1.0, 1.0),
        vec2(0.0, INF),
    ];
    assert_eq!(
        ConvexPolygon::new(&outline),
        Err(ShapeError::NonFinite {
            field: "vertex",
            index: Some(3)
        })
    );
    assert_eq!(
        SimplePolygon::new(&outline),
        Err(ShapeError::NonFinite {
            field: "vertex",
            index: Some(3)
        })
    );
}

#[test]
fn zero_or_negative_sizes_are_rejected() {
    assert_eq!(
        Circle::new(vec2(0.0, 0.0), 0.0),
        Err(ShapeError::NonPositive {
            field: "radius",
            value: 0.0
        })
    );
    assert_eq!(
        Circle::new(vec2(0.0, 0.0), -2.0),
        Err(ShapeError::NonPositive {
            field: "radius",
            value: -2.0
        })
    );
    assert_eq!(
        Capsule::from_thickness(vec2(0.0, 0.0), vec2(1.0, 0.0), -0.1),
        Err(ShapeError::NonPositive {
            field: "thickness",
            value: -0.1
        })
    );
    assert_eq!(
        OrientedRect::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.0),
        Err(ShapeError::NonPositive {
            field: "half_extents.y",
            value: 0.0
        })
    );
    assert_eq!(
        Aabb::new(vec2(0.0, 0.0), vec2(0.0, 1.0)),
        Err(ShapeError::InvertedBounds { field: "aabb" })
    );
    assert_eq!(
        TileTriangle::new(vec2(1.0, 0.0), vec2(0.0, 1.0), Corner::LowerLeft),
        Err(ShapeError::InvertedBounds { field: "aabb" })
    );
    assert_eq!(
        ConvexPolygon::regular(6, 0.0, 0.0),
        Err(ShapeError::NonPositive {
            field: "radius",
            value: 0.0
        })
    );
}

#[test]
fn too_few_points() {
    for count in 0..3 {
        let points: Vec<Vec2> = (0..count).map(|i| vec2(i as f32, (i * i) as f32)).collect();
        assert_eq!(
            ConvexPolygon::new(&points),
            Err(ShapeError::TooFewPoints { count })
        );
        assert_eq!(
            SimplePolygon::new(&points),
            Err(ShapeError::TooFewPoints { count })
        );
    }
}

#[test]
fn repeated_points_name_both_indices() {
    let outline = [
        vec2(0.0, 0.0),
        vec2(2.0, 0.0),
        vec2(2.0, 2.0),
        vec2(2.0, 2.0),
        vec2(0.0, 2.0),
    ];
    let expected = Err(ShapeError::RepeatedPoint {
        index: 3,
        previous: 2,
    });
    assert_eq!(ConvexPolygon::new(&outline), expected);
    assert_eq!(
        SimplePolygon::new(&outline).map(|_| ()),
        expected.map(|_: ConvexPolygon| ())
    );
    // The closing edge counts too: last point equal to the first.
    let closed = [
        vec2(0.0, 0.0),
        vec2(2.0, 0.0),
        vec2(2.0, 2.0),
        vec2(0.0, 0.0),
    ];
    assert_eq!(
        ConvexPolygon::new(&closed),
        Err(ShapeError::RepeatedPoint {
            index: 0,
            previous: 3
        })
    );
}

#[test]
fn collinear_points_are_named() {
    let outline = [
        vec2(0.0, 0.0),
        vec2(1.0, 0.0),
        vec2(2.0, 2.0),
        vec2(1.0, 2.0),
        vec2(0.0, 2.0),
    ];
    assert_eq!(
        ConvexPolygon::new(&outline),
        Err(ShapeError::CollinearPoint { index: 3 })
    );
    assert_eq!(
        SimplePolygon::new(&outline).err(),
        Some(ShapeError::CollinearPoint { index: 3 })
    );
    let flat = [
        vec2(0.0, 0.0),
        vec2(1.0, 1.0),
        vec2(3.0, 3.0),
        vec2(2.0, 2.0),
    ];
    assert_eq!(ConvexPolygon::new(&flat), Err(ShapeError::Degenerate));
}

#[test]
fn clockwise_input_is_accepted_and_reoriented() {
    let clockwise = [
        vec2(0.0, 0.0),
        vec2(0.0, 1.0),
        vec2(1.0, 1.0),
        vec2(1.0, 0.0),
    ];
    let polygon = ConvexPolygon::new(&clockwise).unwrap();
    let v = polygon.vertices();
    let area2: f32 = (0..v.len())
        .map(|i| circlet::math::cross(v[i], v[(i + 1) % v.len()]))
        .sum();
    assert!(area2 > 0.0, "stored counter-clockwise");
    let simple = SimplePolygon::new(&clockwise).unwrap();
    assert!(simple.area() > 0.0);
}

#[test]
fn non_convex_input_to_convex_polygon_names_the_reflex_point() {
    let arrow = [
        vec2(0.0, 0.0),
        vec2(4.0, 0.0),
        vec2(4.0, 4.0),
        vec2(2.0, 1.0),
        vec2(0.0, 4.0),
    ];
    assert_eq!(
        ConvexPolygon::new(&arrow),
        Err(ShapeError::NotConvex { index: 3 })
    );
    // The same outline is a valid simple polygon; without Steiner points its
    // reflex vertex needs three convex pieces.
    assert_eq!(SimplePolygon::new(&arrow).unwrap().pieces().len(), 3);
}

#[test]
fn self_intersecting_simple_polygon_names_the_edges() {
    let bow_tie = [
        vec2(0.0, 0.0),
        vec2(2.0, 2.0),
        vec2(2.0, 0.0),
        vec2(0.0, 2.0),
    ];
    assert_eq!(
        SimplePolygon::new(&bow_tie),
        Err(ShapeError::SelfIntersecting {
            edge_a: 0,
            edge_b: 2
        })
    );
    // An outline whose vertex touches a non-adjacent edge is not simple either.
    let touching = [
        vec2(0.0, 0.0),
        vec2(4.0, 0.0),
        vec2(4.0, 4.0),
        vec2(2.0, 0.0),
        vec2(0.0, 4.0),
    ];
    assert!(matches!(
        SimplePolygon::new(&touching),
        Err(ShapeError::SelfIntersecting { .. })
    ));
}

#[test]
fn invalid_poses_are_reported_by_validate() {
    assert!(Pose::IDENTITY.with_scale(0.0).validate().is_err());
    assert!(Pose::new(vec2(0.0, 0.0), NAN).validate().is_err());
}

#[test]
fn constructors_never_panic_on_garbage() {
    let specials = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1e-30,
        1e30,
        f32::MAX,
        f32::MIN,
        NAN,
        INF,
        -INF,
    ];
    for &x in &specials {
        for &y in &specials {
            let p = vec2(x, y);
            let _ = Point::new(p);
            let _ = Line::new(p, vec2(y, x));
            let _ = Circle::new(p, x);
            let _ = Capsule::new(p, vec2(1.0, 1.0), y);
            let _ = Aabb::new(p, vec2(y, x));
            let _ = OrientedRect::new(p, vec2(x, y), x);
            let _ = ConvexPolygon::new(&[p, vec2(1.0, 0.0), vec2(y, x)]);
            let _ = SimplePolygon::new(&[p, vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(y, x)]);
            let _ = ConvexPolygon::regular(5, x, y);
        }
    }
}

//! The serialized form of a [`Shape`]: its defining data, rebuilt through the
//! validating constructors on the way back (so bad data is a [`ShapeError`]).
//!
//! Round trips are bit for bit: constructors store circles, capsules, boxes
//! and points as given, polygons keep a counter-clockwise outline as given
//! (normals and convex pieces are recomputed from it by the same code), and
//! rectangles keep their stored rotation.

use super::{
    Aabb, Capsule, Circle, ConvexPolygon, Corner, FlatNode, Line, MassProperties, OrientedRect,
    PartId, Point, Segment, Shape, ShapeError, SimplePolygon, TileTriangle,
};
use crate::math::{Real, Rot2, Vec2};

/// A shape as data.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename = "Shape")]
pub(crate) enum ShapeRepr {
    Point {
        position: Vec2,
    },
    Line {
        point: Vec2,
        direction: Vec2,
    },
    Segment {
        a: Vec2,
        b: Vec2,
    },
    Capsule {
        a: Vec2,
        b: Vec2,
        radius: Real,
    },
    Circle {
        center: Vec2,
        radius: Real,
    },
    Aabb {
        min: Vec2,
        max: Vec2,
    },
    OrientedRect {
        center: Vec2,
        half_extents: Vec2,
        rotation: Rot2,
    },
    ConvexPolygon {
        vertices: Vec<Vec2>,
    },
    TileTriangle {
        min: Vec2,
        max: Vec2,
        missing: Corner,
    },
    SimplePolygon {
        vertices: Vec<Vec2>,
    },
    /// Flat nodes (centre, radius, first child, child end, own part), the
    /// part names and the source outline's mass, rebuilt through validation.
    Tree {
        nodes: Vec<(Vec2, Real, usize, usize, Option<u32>)>,
        part_names: Vec<String>,
        source_mass: Option<(Real, Vec2, Real)>,
    },
}

impl From<Shape> for ShapeRepr {
    fn from(shape: Shape) -> Self {
        match shape {
            Shape::Point(p) => ShapeRepr::Point {
                position: p.position(),
            },
            Shape::Line(l) => ShapeRepr::Line {
                point: l.point(),
                direction: l.direction(),
            },
            Shape::Segment(s) => ShapeRepr::Segment { a: s.a(), b: s.b() },
            Shape::Capsule(c) => ShapeRepr::Capsule {
                a: c.a(),
                b: c.b(),
                radius: c.radius(),
            },
            Shape::Circle(c) => ShapeRepr::Circle {
                center: c.center(),
                radius: c.radius(),
            },
            Shape::Aabb(b) => ShapeRepr::Aabb {
                min: b.min,
                max: b.max,
            },
            Shape::OrientedRect(r) => ShapeRepr::OrientedRect {
                center: r.center(),
                half_extents: r.half_extents(),
                rotation: r.rotation(),
            },
            Shape::ConvexPolygon(p) => ShapeRepr::ConvexPolygon {
                vertices: p.vertices().to_vec(),
            },
            Shape::TileTriangle(t) => ShapeRepr::TileTriangle {
                min: t.rect().min,
                max: t.rect().max,
                missing: t.missing(),
            },
            Shape::SimplePolygon(p) => ShapeRepr::SimplePolygon {
                vertices: p.vertices().to_vec(),
            },
            Shape::Tree(tree) => ShapeRepr::Tree {
                nodes: tree
                    .nodes()
                    .iter()
                    .map(|node| {
                        let children = node.children();
                        (
                            node.center(),
                            node.radius(),
                            children.start,
                            children.end,
                            node.own_part().map(|part| part.0),
                        )
                    })
                    .collect(),
                part_names: tree
                    .part_names()
                    .iter()
                    .map(|name| name.to_string())
                    .collect(),
                source_mass: tree
                    .source_mass_properties()
                    .map(|m| (m.area, m.centroid, m.inertia)),
            },
        }
    }
}

impl TryFrom<ShapeRepr> for Shape {
    type Error = ShapeError;

    fn try_from(repr: ShapeRepr) -> Result<Shape, ShapeError> {
        Ok(match repr {
            ShapeRepr::Point { position } => Point::new(position)?.into(),
            ShapeRepr::Line { point, direction } => Line::new(point, direction)?.into(),
            ShapeRepr::Segment { a, b } => Segment::new(a, b)?.into(),
            ShapeRepr::Capsule { a, b, radius } => Capsule::new(a, b, radius)?.into(),
            ShapeRepr::Circle { center, radius } => Circle::new(center, radius)?.into(),
            ShapeRepr::Aabb { min, max } => Aabb::new(min, max)?.into(),
            ShapeRepr::OrientedRect {
                center,
                half_extents,
                rotation,
            } => OrientedRect::with_rotation(center, half_extents, rotation)?.into(),
            ShapeRepr::ConvexPolygon { vertices } => ConvexPolygon::new(&vertices)?.into(),
            ShapeRepr::TileTriangle { min, max, missing } => {
                TileTriangle::new(min, max, missing)?.into()
            }
            ShapeRepr::SimplePolygon { vertices } => SimplePolygon::new(&vertices)?.into(),
            ShapeRepr::Tree {
                nodes,
                part_names,
                source_mass,
            } => {
                let flat = nodes
                    .into_iter()
                    .map(|(center, radius, start, end, part)| FlatNode {
                        center,
                        radius,
                        children: start..end,
                        part: part.map(PartId),
                    })
                    .collect();
                let source_mass = source_mass.map(|(area, centroid, inertia)| MassProperties {
                    area,
                    centroid,
                    inertia,
                });
                super::circle_tree::build_validated(flat, part_names, source_mass)
                    .map_err(|error| ShapeError::InvalidTree {
                        reason: error.to_string(),
                    })?
                    .into()
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn every_kind_round_trips_bit_for_bit() {
        let shapes: Vec<Shape> = vec![
            Point::new(vec2(0.1, 0.2)).unwrap().into(),
            Segment::new(vec2(0.1, 0.2), vec2(1.3, -0.7))
                .unwrap()
                .into(),
            Capsule::new(vec2(0.1, 0.2), vec2(1.3, -0.7), 0.3)
                .unwrap()
                .into(),
            Circle::new(vec2(0.1, 0.2), 0.7).unwrap().into(),
            Aabb::new(vec2(-0.3, -0.1), vec2(0.7, 0.9)).unwrap().into(),
            OrientedRect::new(vec2(0.3, 0.1), vec2(0.7, 0.2), 0.77)
                .unwrap()
                .into(),
            ConvexPolygon::regular(7, 1.3, 0.1).unwrap().into(),
            TileTriangle::new(vec2(0.0, 0.0), vec2(1.0, 1.0), Corner::UpperLeft)
                .unwrap()
                .into(),
            SimplePolygon::new(&[
                vec2(0.0, 0.0),
                vec2(2.0, 0.0),
                vec2(2.0, 1.0),
                vec2(1.0, 1.0),
                vec2(1.0, 2.0),
                vec2(0.0, 2.0),
            ])
            .unwrap()
            .into(),
        ];
        for shape in shapes {
            let json = serde_json::to_string(&shape).unwrap();
            let back: Shape = serde_json::from_str(&json).unwrap();
            assert_eq!(back, shape, "{json}");
        }
    }

    #[test]
    fn bad_data_is_refused() {
        let negative = r#"{"Circle":{"center":[0.0,0.0],"radius":-1.0}}"#;
        assert!(serde_json::from_str::<Shape>(negative).is_err());
        let concave = r#"{"ConvexPolygon":{"vertices":[[0,0],[2,0],[1,0.2],[1,2]]}}"#;
        assert!(serde_json::from_str::<Shape>(concave).is_err());
    }
}

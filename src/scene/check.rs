//! Checking a parsed scene value by value, collecting every problem.
//!
//! [`Checker`] holds the problems found so far, each with the field path it
//! belongs to; the helpers check one value and return it converted (or `None`
//! after recording why not), so a caller can keep going and find the next
//! problem. Every `f32` of a scene passes through one of these helpers: RON
//! reads `NaN` and `inf` as numbers, and none may reach the world.

use super::error::ProblemKind;
use super::format::{CornerDesc, MaterialDesc, ShapeDesc, TreeMassDesc, TreeNodeDesc, Xy};
use super::locate::FieldPath;
use super::mask::ImageSource;
use crate::math::{Vec2, vec2};
use crate::shape::{
    Aabb, Capsule, Circle, CircleTree, ConvexPolygon, Corner, FitOptions, MassProperties,
    OrientedRect, Point, Segment, Shape, ShapeError, SimplePolygon, TileTriangle, TreeBuilder,
};
use crate::world::Material;

/// Most corners a `Regular` polygon may have; more is a typo, not a shape.
pub const MAX_REGULAR_SIDES: u32 = 256;

/// Largest magnitude of any number in a scene. The design range is bodies
/// of 0.1–10 m at coordinates up to 10⁴ m; beyond 10⁶ f32 keeps fewer than
/// three decimals of a metre, and products of such numbers (areas, inertia,
/// squared speeds) overflow to infinity.
pub const MAX_MAGNITUDE: f32 = 1.0e6;

/// A problem before it is given a place in the file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RawProblem {
    /// Where in the scene value.
    pub path: FieldPath,
    /// Character index inside a string value (tile rows), if the problem is there.
    pub char_index: Option<usize>,
    /// What kind of problem.
    pub kind: ProblemKind,
    /// What was expected and found.
    pub message: String,
}

/// Collects problems while checking a scene.
#[derive(Debug, Default)]
pub(crate) struct Checker {
    pub problems: Vec<RawProblem>,
    /// Where `Mask` outlines find their images.
    pub images: ImageSource,
}

impl Checker {
    /// Records a problem.
    pub fn report(&mut self, path: FieldPath, kind: ProblemKind, message: String) {
        self.problems.push(RawProblem {
            path,
            char_index: None,
            kind,
            message,
        });
    }

    /// A finite number within ±[`MAX_MAGNITUDE`], or a recorded problem.
    pub fn finite(&mut self, path: FieldPath, value: f32) -> Option<f32> {
        if !value.is_finite() {
            self.report(
                path,
                ProblemKind::NotFinite,
                format!("expected a finite number, found {value}"),
            );
            None
        } else if value.abs() > MAX_MAGNITUDE {
            self.report(
                path,
                ProblemKind::OutOfRange,
                format!("expected a number within ±{MAX_MAGNITUDE:.0}, found {value:e}"),
            );
            None
        } else {
            Some(value)
        }
    }

    /// A finite number satisfying `ok` (described by `expected`, e.g. "> 0").
    pub fn ranged(
        &mut self,
        path: FieldPath,
        value: f32,
        expected: &str,
        ok: impl Fn(f32) -> bool,
    ) -> Option<f32> {
        let value = self.finite(path.clone(), value)?;
        if ok(value) {
            Some(value)
        } else {
            self.report(
                path,
                ProblemKind::OutOfRange,
                format!("expected a number {expected}, found {value}"),
            );
            None
        }
    }

    /// A finite number > 0.
    pub fn positive(&mut self, path: FieldPath, value: f32) -> Option<f32> {
        self.ranged(path, value, "> 0", |v| v > 0.0)
    }

    /// A finite number ≥ 0.
    pub fn non_negative(&mut self, path: FieldPath, value: f32) -> Option<f32> {
        self.ranged(path, value, ">= 0", |v| v >= 0.0)
    }

    /// An `(x, y)` pair with both components finite.
    pub fn xy(&mut self, path: FieldPath, (x, y): Xy) -> Option<Vec2> {
        let x = self.finite(path.component(0), x);
        let y = self.finite(path.component(1), y);
        Some(vec2(x?, y?))
    }

    /// An `(x, y)` pair with both components > 0.
    pub fn positive_xy(&mut self, path: FieldPath, (x, y): Xy) -> Option<Vec2> {
        let x = self.positive(path.component(0), x);
        let y = self.positive(path.component(1), y);
        Some(vec2(x?, y?))
    }

    /// A list of points, each finite.
    pub fn points(&mut self, path: FieldPath, points: &[Xy]) -> Option<Vec<Vec2>> {
        let checked: Vec<Option<Vec2>> = points
            .iter()
            .enumerate()
            .map(|(i, &p)| self.xy(path.index(i), p))
            .collect();
        checked.into_iter().collect()
    }

    /// A world material: density > 0, friction ≥ 0, restitution in [0, 1].
    pub fn material(&mut self, path: FieldPath, material: &MaterialDesc) -> Option<Material> {
        let density = self.positive(path.field("density"), material.density);
        let friction = self.non_negative(path.field("friction"), material.friction);
        let restitution = self.ranged(
            path.field("restitution"),
            material.restitution,
            "in [0, 1]",
            |v| (0.0..=1.0).contains(&v),
        );
        Some(Material {
            density: density?,
            friction: friction?,
            restitution: restitution?,
        })
    }

    /// The shape described by `desc`, or `None` with every problem recorded.
    pub fn shape(&mut self, path: FieldPath, desc: &ShapeDesc) -> Option<Shape> {
        let built: Result<Shape, ShapeError> = match desc {
            ShapeDesc::Circle { radius, center } => {
                let radius = self.positive(path.field("radius"), *radius);
                let center = self.xy(path.field("center"), *center);
                Circle::new(center?, radius?).map(Shape::from)
            }
            ShapeDesc::Capsule { a, b, radius } => {
                let a = self.xy(path.field("a"), *a);
                let b = self.xy(path.field("b"), *b);
                let radius = self.positive(path.field("radius"), *radius);
                Capsule::new(a?, b?, radius?).map(Shape::from)
            }
            ShapeDesc::Segment { a, b } => {
                let a = self.xy(path.field("a"), *a);
                let b = self.xy(path.field("b"), *b);
                Segment::new(a?, b?).map(Shape::from)
            }
            ShapeDesc::Point { at } => {
                let at = self.xy(path.field("at"), *at)?;
                Point::new(at).map(Shape::from)
            }
            ShapeDesc::Aabb { min, max } => {
                let min = self.xy(path.field("min"), *min);
                let max = self.xy(path.field("max"), *max);
                Aabb::new(min?, max?).map(Shape::from)
            }
            ShapeDesc::Box {
                half_extents,
                center,
            } => {
                let half = self.positive_xy(path.field("half_extents"), *half_extents);
                let center = self.xy(path.field("center"), *center);
                Aabb::from_center(center?, half?).map(Shape::from)
            }
            ShapeDesc::Rect {
                half_extents,
                center,
                angle,
            } => {
                let half = self.positive_xy(path.field("half_extents"), *half_extents);
                let center = self.xy(path.field("center"), *center);
                let angle = self.finite(path.field("angle"), *angle);
                OrientedRect::new(center?, half?, angle?).map(Shape::from)
            }
            ShapeDesc::Polygon { points } => {
                let points = self.points(path.field("points"), points)?;
                ConvexPolygon::new(&points).map(Shape::from)
            }
            ShapeDesc::Regular {
                sides,
                radius,
                phase,
            } => {
                let radius = self.positive(path.field("radius"), *radius);
                let phase = self.finite(path.field("phase"), *phase);
                if !(3..=MAX_REGULAR_SIDES).contains(sides) {
                    self.report(
                        path.field("sides"),
                        ProblemKind::OutOfRange,
                        format!("expected 3 to {MAX_REGULAR_SIDES} sides, found {sides}"),
                    );
                    return None;
                }
                ConvexPolygon::regular(*sides as usize, radius?, phase?).map(Shape::from)
            }
            ShapeDesc::Tile { min, max, missing } => {
                let min = self.xy(path.field("min"), *min);
                let max = self.xy(path.field("max"), *max);
                TileTriangle::new(min?, max?, corner(*missing)).map(Shape::from)
            }
            ShapeDesc::SimplePolygon { points } => {
                let points = self.points(path.field("points"), points)?;
                SimplePolygon::new(&points).map(Shape::from)
            }
            ShapeDesc::Tree { root, mass } => {
                let builder = self.tree_node(path.field("root"), root);
                let mass = match mass {
                    Some(mass) => Some(self.tree_mass(path.field("mass"), mass)?),
                    None => None,
                };
                return match builder?.build() {
                    Ok((tree, _)) => Some(Shape::from(match mass {
                        Some(mass) => tree.with_source_mass(mass),
                        None => tree,
                    })),
                    Err(error) => {
                        self.report(path.field("root"), ProblemKind::BadShape, error.to_string());
                        None
                    }
                };
            }
            ShapeDesc::FittedTree {
                outline,
                epsilon,
                branching,
            } => {
                let epsilon = self.positive(path.field("epsilon"), *epsilon);
                let branching = branching.unwrap_or(4);
                if !(2..=MAX_BRANCHING).contains(&branching) {
                    self.report(
                        path.field("branching"),
                        ProblemKind::OutOfRange,
                        format!(
                            "expected 2 to {MAX_BRANCHING} children per node, found {branching}"
                        ),
                    );
                    return None;
                }
                if matches!(
                    **outline,
                    ShapeDesc::Tree { .. } | ShapeDesc::FittedTree { .. }
                ) {
                    self.report(
                        path.field("outline"),
                        ProblemKind::BadShape,
                        "expected a solid outline to fit (a circle, capsule, box, polygon or mask), found a tree".into(),
                    );
                    return None;
                }
                let fitted = match &**outline {
                    ShapeDesc::Mask {
                        path: written,
                        threshold,
                        pixel_size,
                    } => {
                        let mask =
                            self.mask(path.field("outline"), written, *threshold, *pixel_size);
                        let options = FitOptions::new(epsilon?).with_branching(branching as usize);
                        CircleTree::fit_mask(&mask?, &options)
                    }
                    _ => {
                        let outline_shape = self.shape(path.field("outline"), outline);
                        let options = FitOptions::new(epsilon?).with_branching(branching as usize);
                        CircleTree::fit_shape(&outline_shape?, &options)
                    }
                };
                return match fitted {
                    Ok((tree, _)) => Some(Shape::from(tree)),
                    Err(error) => {
                        self.report(
                            path.field("outline"),
                            ProblemKind::BadShape,
                            error.to_string(),
                        );
                        None
                    }
                };
            }
            ShapeDesc::Mask { .. } => {
                self.report(
                    path,
                    ProblemKind::BadShape,
                    "expected a solid shape, found a `Mask`: a mask is an outline to fit, \
                     written `FittedTree(outline: Mask(..), epsilon: ..)`"
                        .into(),
                );
                return None;
            }
        };
        match built {
            Ok(shape) => Some(shape),
            Err(error) => {
                let (at, message) = shape_problem(&path, &error);
                self.report(at, ProblemKind::BadShape, message);
                None
            }
        }
    }
}

/// Most children a fitted tree's node may have.
pub const MAX_BRANCHING: u32 = 16;

impl Checker {
    /// The mass of a tree's outline: area and inertia > 0, centroid finite.
    fn tree_mass(&mut self, path: FieldPath, mass: &TreeMassDesc) -> Option<MassProperties> {
        let area = self.positive(path.field("area"), mass.area);
        let centroid = self.xy(path.field("centroid"), mass.centroid);
        let inertia = self.positive(path.field("inertia"), mass.inertia);
        Some(MassProperties {
            area: area?,
            centroid: centroid?,
            inertia: inertia?,
        })
    }

    /// A tree builder for `node` and its descendants, with every bad number recorded.
    fn tree_node(&mut self, path: FieldPath, node: &TreeNodeDesc) -> Option<TreeBuilder> {
        let center = self.xy(path.field("center"), node.center);
        let radius = self.positive(path.field("radius"), node.radius);
        let children: Vec<Option<TreeBuilder>> = node
            .children
            .iter()
            .enumerate()
            .map(|(i, child)| self.tree_node(path.field("children").index(i), child))
            .collect();
        let mut builder = TreeBuilder::node(center?, radius?);
        if let Some(part) = &node.part {
            builder = builder.part(part.clone());
        }
        for child in children {
            builder = builder.child(child?);
        }
        Some(builder)
    }
}

/// The engine's corner for a scene corner.
pub(crate) fn corner(desc: CornerDesc) -> Corner {
    match desc {
        CornerDesc::UpperLeft => Corner::UpperLeft,
        CornerDesc::UpperRight => Corner::UpperRight,
        CornerDesc::LowerLeft => Corner::LowerLeft,
        CornerDesc::LowerRight => Corner::LowerRight,
    }
}

/// Where a shape constructor's error points in the scene, and what it means.
fn shape_problem(path: &FieldPath, error: &ShapeError) -> (FieldPath, String) {
    let points = path.field("points");
    match *error {
        ShapeError::InvalidTree { ref reason } => (
            path.clone(),
            format!("expected a valid circle tree: {reason}"),
        ),
        ShapeError::SelfIntersecting { edge_a, edge_b } => (
            points.index(edge_a),
            format!(
                "expected a simple outline, found edge {edge_a} crossing edge {edge_b} \
                 (edge i runs from point i to point i+1): the polygon is self-intersecting"
            ),
        ),
        ShapeError::NotConvex { index } => (
            points.index(index),
            format!(
                "expected a convex outline, found a reflex corner at point {index} \
                 (use SimplePolygon for a non-convex shape)"
            ),
        ),
        ShapeError::RepeatedPoint { index, previous } => (
            points.index(index),
            format!("expected distinct points, found point {index} repeating point {previous}"),
        ),
        ShapeError::CollinearPoint { index } => (
            points.index(index),
            format!("expected a corner, found point {index} on the line through its neighbours"),
        ),
        ShapeError::TooFewPoints { count } => {
            (points, format!("expected at least 3 points, found {count}"))
        }
        ShapeError::Degenerate => (
            points,
            "expected an outline that encloses an area, found all points on one line".into(),
        ),
        ShapeError::InvertedBounds { .. } => {
            (path.clone(), "expected min < max on both axes".into())
        }
        ShapeError::ZeroLength { field } => {
            (path.clone(), format!("expected {field} of non-zero length"))
        }
        ShapeError::NonFinite { .. } | ShapeError::NonPositive { .. } => {
            (path.clone(), format!("invalid shape: {error}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> FieldPath {
        FieldPath::default().field("shape")
    }

    #[test]
    fn every_shape_kind_builds_from_valid_input() {
        let square = vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        let descs = [
            ShapeDesc::Circle {
                radius: 0.5,
                center: (0.0, 0.0),
            },
            ShapeDesc::Capsule {
                a: (-1.0, 0.0),
                b: (1.0, 0.0),
                radius: 0.2,
            },
            ShapeDesc::Segment {
                a: (0.0, 0.0),
                b: (1.0, 0.0),
            },
            ShapeDesc::Point { at: (1.0, 2.0) },
            ShapeDesc::Aabb {
                min: (0.0, 0.0),
                max: (1.0, 2.0),
            },
            ShapeDesc::Box {
                half_extents: (1.0, 0.5),
                center: (0.0, 0.0),
            },
            ShapeDesc::Rect {
                half_extents: (1.0, 0.5),
                center: (0.0, 0.0),
                angle: 0.3,
            },
            ShapeDesc::Polygon {
                points: square.clone(),
            },
            ShapeDesc::Regular {
                sides: 6,
                radius: 1.0,
                phase: 0.0,
            },
            ShapeDesc::Tile {
                min: (0.0, 0.0),
                max: (1.0, 1.0),
                missing: CornerDesc::UpperLeft,
            },
            ShapeDesc::SimplePolygon { points: square },
        ];
        let mut checker = Checker::default();
        for desc in &descs {
            assert!(checker.shape(root(), desc).is_some(), "{desc:?}");
        }
        assert!(checker.problems.is_empty());
    }

    #[test]
    fn every_bad_value_of_a_shape_is_reported() {
        let mut checker = Checker::default();
        let desc = ShapeDesc::Rect {
            half_extents: (-1.0, f32::NAN),
            center: (f32::INFINITY, 0.0),
            angle: f32::NAN,
        };
        assert!(checker.shape(root(), &desc).is_none());
        let fields: Vec<String> = checker
            .problems
            .iter()
            .map(|p| p.path.to_string())
            .collect();
        assert_eq!(
            fields,
            [
                "shape.half_extents.x",
                "shape.half_extents.y",
                "shape.center.x",
                "shape.angle"
            ]
        );
    }

    #[test]
    fn huge_numbers_are_out_of_range() {
        let mut checker = Checker::default();
        assert_eq!(checker.finite(root(), MAX_MAGNITUDE), Some(MAX_MAGNITUDE));
        assert_eq!(checker.finite(root(), -2.0e6), None);
        assert_eq!(checker.problems[0].kind, ProblemKind::OutOfRange);
        assert!(checker.problems[0].message.contains("-2e6"));
    }

    #[test]
    fn self_intersection_points_at_the_crossing_edge() {
        let mut checker = Checker::default();
        let bow_tie = ShapeDesc::SimplePolygon {
            points: vec![(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)],
        };
        assert!(checker.shape(root(), &bow_tie).is_none());
        let problem = &checker.problems[0];
        assert_eq!(problem.kind, ProblemKind::BadShape);
        assert!(problem.path.to_string().starts_with("shape.points["));
        assert!(problem.message.contains("self-intersecting"));
    }

    #[test]
    fn regular_polygon_sides_are_bounded() {
        let mut checker = Checker::default();
        for sides in [0, 2, MAX_REGULAR_SIDES + 1, u32::MAX] {
            let desc = ShapeDesc::Regular {
                sides,
                radius: 1.0,
                phase: 0.0,
            };
            assert!(checker.shape(root(), &desc).is_none());
        }
        assert_eq!(checker.problems.len(), 4);
    }
}

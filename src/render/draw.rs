//! Drawing shapes, worlds and simulations through any [`DebugDraw`].
//!
//! Colours: static bodies grey, kinematic violet, dynamic bodies from
//! [`DYNAMIC_COLORS`] by their index in the world, shots yellow, sensors as
//! green outlines. Sleeping bodies are mixed towards the background when
//! [`Overlays::sleeping_dim`] is on. Circles show a radius line so spin is
//! visible. Circle trees show their leaves over faint rings of the inner
//! levels, or, with [`Overlays::tree_depth`], the nodes of one level
//! coloured by level ([`LEVEL_COLORS`]).

use super::colors::{
    AABB, BACKGROUND, CONTACT, DYNAMIC_COLORS, GUN, KINEMATIC, LEVEL_COLORS, NORMAL, Rgba, SENSOR,
    SHOT, STATIC,
};
use super::{Camera, DebugDraw, Style};
use crate::math::{Pose, Real, Vec2, vec2};
use crate::scene::{Aim, Simulation};
use crate::shape::{CircleTree, Shape};
use crate::world::{BodyHandle, BodyKind, World};

/// Pieces per half circle of a capsule's caps.
const CAP_SEGMENTS: usize = 12;
/// Length of a drawn contact normal (screen pixels).
const NORMAL_PIXELS: Real = 18.0;
/// Size of a drawn contact point (screen pixels).
const CONTACT_PIXELS: Real = 5.0;
/// Outline width of bodies (screen pixels).
const OUTLINE_PIXELS: Real = 1.5;
/// Opacity of body fills.
const FILL_ALPHA: f32 = 0.5;
/// How far sleeping bodies are mixed towards the background.
const SLEEP_DIM: f32 = 0.6;

/// Which layers to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlays {
    /// Each collider's world AABB.
    pub aabbs: bool,
    /// Contact points (red touching, grey speculative).
    pub contacts: bool,
    /// Contact normals, from A towards B.
    pub normals: bool,
    /// Sleeping bodies drawn dimmed.
    pub sleeping_dim: bool,
    /// The HUD (fps, step time, counts).
    pub hud: bool,
    /// The key help.
    pub help: bool,
    /// Which level of circle trees to draw: `None` for the leaves (the
    /// collision shape) over faint rings of the inner levels; `Some(d)` for
    /// the nodes at depth `d` (the root is 0) and the leaves above that
    /// depth, each in its level's colour.
    pub tree_depth: Option<u8>,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            aabbs: false,
            contacts: true,
            normals: true,
            sleeping_dim: true,
            hud: true,
            help: false,
            tree_depth: None,
        }
    }
}

/// Draws one shape placed at `pose` (world).
pub fn draw_shape<D: DebugDraw + ?Sized>(draw: &mut D, shape: &Shape, pose: &Pose, style: &Style) {
    let place = |points: &[Vec2]| -> Vec<Vec2> {
        points.iter().map(|p| pose.transform_point(*p)).collect()
    };
    match shape {
        Shape::Point(point) => {
            let color = style.stroke.or(style.fill).unwrap_or(SHOT);
            draw.draw_point(pose.transform_point(point.position()), color, 4.0);
        }
        Shape::Line(line) => {
            // Unbounded: drawn 10 km each way.
            let p = pose.transform_point(line.point());
            let d = pose.rotate(line.direction()) * 1.0e4;
            let color = style.stroke.unwrap_or(STATIC);
            draw.draw_segment(p - d, p + d, color, style.width.max(1.0));
        }
        Shape::Segment(segment) => {
            let color = style.stroke.or(style.fill).unwrap_or(STATIC);
            let (a, b) = (
                pose.transform_point(segment.a()),
                pose.transform_point(segment.b()),
            );
            draw.draw_segment(a, b, color, style.width.max(2.0));
        }
        Shape::Capsule(capsule) => {
            let a = pose.transform_point(capsule.a());
            let b = pose.transform_point(capsule.b());
            let radius = pose.scale_length(capsule.radius());
            draw.draw_polygon(&capsule_outline(a, b, radius), true, style);
        }
        Shape::Circle(circle) => {
            let center = pose.transform_point(circle.center());
            let radius = pose.scale_length(circle.radius());
            draw.draw_circle(center, radius, style);
            if let Some(color) = style.stroke {
                let rim = center + pose.rotate(vec2(radius, 0.0));
                draw.draw_segment(center, rim, color, style.width);
            }
        }
        Shape::Aabb(aabb) => draw.draw_polygon(&place(&aabb.vertices()), true, style),
        Shape::OrientedRect(rect) => draw.draw_polygon(&place(&rect.vertices()), true, style),
        Shape::ConvexPolygon(polygon) => draw.draw_polygon(&place(polygon.vertices()), true, style),
        Shape::TileTriangle(tile) => draw.draw_polygon(&place(&tile.vertices()), true, style),
        Shape::Tree(tree) => draw_tree(draw, tree, pose, style, None),
        Shape::SimplePolygon(polygon) => {
            if let Some(stroke) = style.stroke {
                // The convex pieces, faintly, under the outline.
                let faint = Style::stroke(stroke.with_alpha(0.3), 1.0);
                for piece in polygon.pieces() {
                    draw.draw_polygon(&place(piece.vertices()), true, &faint);
                }
            }
            draw.draw_polygon(&place(polygon.vertices()), true, style);
        }
    }
}

/// Opacity of a tree level's fill when a depth is chosen: low, so the
/// overlapping circles of one level stay readable.
const LEVEL_FILL_ALPHA: f32 = 0.2;

/// Draws a circle tree placed at `pose` (world). With `depth` `None`: the
/// leaves in `style` over faint rings of the inner nodes. With `Some(d)`: the
/// nodes at depth `d` (root 0) and the leaves shallower than `d`, each in
/// its level's colour from [`LEVEL_COLORS`] (outline only when `style` has no
/// fill, as for sensors).
pub fn draw_tree<D: DebugDraw + ?Sized>(
    draw: &mut D,
    tree: &CircleTree,
    pose: &Pose,
    style: &Style,
    depth: Option<u8>,
) {
    let circle = |index: usize| {
        let node = &tree.nodes()[index];
        (
            pose.transform_point(node.center()),
            pose.scale_length(node.radius()),
        )
    };
    let Some(depth) = depth else {
        for (index, node) in tree.nodes().iter().enumerate() {
            let (center, radius) = circle(index);
            if node.is_leaf() {
                draw.draw_circle(center, radius, style);
            } else if let Some(stroke) = style.stroke {
                // Inner levels: faint rings, so the hierarchy shows through.
                draw.draw_circle(center, radius, &Style::stroke(stroke.with_alpha(0.25), 1.0));
            }
        }
        return;
    };
    // Depth first from the root, stopping at the chosen level.
    let mut stack = vec![(0usize, 0u8)];
    while let Some((index, level)) = stack.pop() {
        let Some(node) = tree.node(index) else {
            continue;
        };
        if level < depth && !node.is_leaf() {
            stack.extend(node.children().map(|child| (child, level + 1)));
            continue;
        }
        let color = LEVEL_COLORS[level as usize % LEVEL_COLORS.len()];
        let level_style = Style {
            fill: style.fill.map(|_| color.with_alpha(LEVEL_FILL_ALPHA)),
            stroke: Some(color),
            width: style.width.max(1.0),
        };
        let (center, radius) = circle(index);
        draw.draw_circle(center, radius, &level_style);
    }
}

/// The depth of the deepest circle tree among the colliders of `world`
/// (0 for a tree that is a single circle), or `None` without trees.
pub fn deepest_tree(world: &World) -> Option<u32> {
    world
        .bodies()
        .flat_map(|(_, body)| body.colliders().iter())
        .filter_map(|&collider| match world.collider(collider)?.shape() {
            Shape::Tree(tree) => Some(tree.depth()),
            _ => None,
        })
        .max()
}

/// The tree depth after `current` in the cycle leaves → 0 → 1 → … →
/// `deepest` → leaves (the viewer's `T` key). Without trees (`deepest`
/// `None`) the depth stays at the leaves.
pub fn next_tree_depth(current: Option<u8>, deepest: Option<u32>) -> Option<u8> {
    let deepest = u8::try_from(deepest?).unwrap_or(u8::MAX);
    match current {
        None => Some(0),
        Some(depth) if depth < deepest => Some(depth + 1),
        Some(_) => None,
    }
}

/// The outline of a capsule around `a`–`b` (world) as a polygon.
fn capsule_outline(a: Vec2, b: Vec2, radius: Real) -> Vec<Vec2> {
    let axis = b - a;
    let length = axis.norm();
    let direction = if length > 1e-9 {
        axis / length
    } else {
        vec2(1.0, 0.0)
    };
    let start = direction.y.atan2(direction.x) + std::f32::consts::FRAC_PI_2;
    let mut points = Vec::with_capacity(2 * CAP_SEGMENTS + 2);
    // Around b from the left side (+normal) clockwise to the right side, then around a.
    for (center, offset) in [(b, 0.0), (a, std::f32::consts::PI)] {
        for k in 0..=CAP_SEGMENTS {
            let angle = start + offset - std::f32::consts::PI * k as Real / CAP_SEGMENTS as Real;
            points.push(center + vec2(angle.cos(), angle.sin()) * radius);
        }
    }
    points
}

/// The colour a body is drawn in.
fn body_color(kind: BodyKind, index: usize, shot: bool) -> Rgba {
    if shot {
        return SHOT;
    }
    match kind {
        BodyKind::Static => STATIC,
        BodyKind::Kinematic => KINEMATIC,
        BodyKind::Dynamic => DYNAMIC_COLORS[index % DYNAMIC_COLORS.len()],
    }
}

/// Draws every body of `world` and the chosen overlays; `is_shot` picks the
/// bodies drawn as shots.
pub fn draw_world<D: DebugDraw + ?Sized>(
    draw: &mut D,
    world: &World,
    overlays: &Overlays,
    is_shot: &dyn Fn(BodyHandle) -> bool,
) {
    // Static bodies first, so moving ones are drawn over them.
    for pass_static in [true, false] {
        for (index, (handle, body)) in world.bodies().enumerate() {
            if (body.kind() == BodyKind::Static) != pass_static {
                continue;
            }
            let mut color = body_color(body.kind(), index, is_shot(handle));
            if overlays.sleeping_dim && !body.is_awake() && body.kind() == BodyKind::Dynamic {
                color = color.mix(BACKGROUND, SLEEP_DIM);
            }
            for &collider in body.colliders() {
                let (Some(c), Some(pose)) =
                    (world.collider(collider), world.collider_pose(collider))
                else {
                    continue;
                };
                let style = if c.is_sensor() {
                    Style::stroke(SENSOR.with_alpha(0.8), OUTLINE_PIXELS)
                } else {
                    Style::filled(color.with_alpha(FILL_ALPHA), color, OUTLINE_PIXELS)
                };
                match (c.shape(), overlays.tree_depth) {
                    (Shape::Tree(tree), Some(depth)) => {
                        draw_tree(draw, tree, &pose, &style, Some(depth));
                    }
                    (shape, _) => draw_shape(draw, shape, &pose, &style),
                }
                if overlays.aabbs {
                    let aabb = c.shape().world_aabb(&pose);
                    draw.draw_polygon(&aabb.vertices(), true, &Style::stroke(AABB, 1.0));
                }
            }
        }
    }
    if overlays.contacts || overlays.normals {
        let pixel = draw.metres_per_pixel();
        for contact in world.contacts() {
            for point in &contact.manifold.points {
                let touching = point.depth >= 0.0;
                if overlays.normals && touching {
                    let tip = point.point + contact.manifold.normal * (NORMAL_PIXELS * pixel);
                    draw.draw_segment(point.point, tip, NORMAL, 1.5);
                }
                if overlays.contacts {
                    let color = if touching {
                        CONTACT
                    } else {
                        Rgba::rgb(150, 150, 150)
                    };
                    draw.draw_point(point.point, color, CONTACT_PIXELS);
                }
            }
        }
    }
}

/// How far back a shot's trace reaches (s of flight).
const TRACE_SECONDS: Real = 0.04;
/// Radius of a gun's marker and length of its barrel (screen pixels).
const GUN_PIXELS: Real = 7.0;
const BARREL_PIXELS: Real = 20.0;

/// Draws a running simulation: its world, shots in flight with their
/// traces, and the guns pointing where they aim now.
pub fn draw_simulation<D: DebugDraw + ?Sized>(draw: &mut D, sim: &Simulation, overlays: &Overlays) {
    let world = sim.world();
    draw_world(draw, world, overlays, &|body| sim.is_shot(body));
    for shot in sim.shots() {
        if let Some(body) = world.body(shot) {
            let head = body.center_of_mass();
            let tail = head - body.linear_velocity() * TRACE_SECONDS;
            draw.draw_segment(tail, head, SHOT.with_alpha(0.6), 2.0);
        }
    }
    let pixel = draw.metres_per_pixel();
    for gun in &sim.scene().guns {
        let direction = match gun.aim {
            Aim::Direction(direction) => Some(direction),
            Aim::Target(body) => world.body(body).and_then(|b| {
                let offset = b.center_of_mass() - gun.position;
                let length = offset.norm();
                (length > 1e-6).then(|| offset / length)
            }),
        };
        if let Some(direction) = direction {
            let muzzle = gun.position + direction * (BARREL_PIXELS * pixel);
            draw.draw_segment(gun.position, muzzle, GUN, 4.0);
        }
        draw.draw_circle(
            gun.position,
            GUN_PIXELS * pixel,
            &Style::filled(GUN.with_alpha(0.7), GUN, 1.5),
        );
    }
}

/// Points the camera at every collider of `world` (with a 5 % margin);
/// leaves it unchanged for an empty world.
pub fn fit_world(camera: &mut Camera, world: &World) {
    let mut bounds: Option<(Vec2, Vec2)> = None;
    for (_, body) in world.bodies() {
        for &collider in body.colliders() {
            let (Some(c), Some(pose)) = (world.collider(collider), world.collider_pose(collider))
            else {
                continue;
            };
            let aabb = c.shape().world_aabb(&pose);
            if !(crate::math::is_finite_vec(aabb.min) && crate::math::is_finite_vec(aabb.max)) {
                continue;
            }
            bounds = Some(match bounds {
                None => (aabb.min, aabb.max),
                Some((lo, hi)) => (lo.inf(&aabb.min), hi.sup(&aabb.max)),
            });
        }
    }
    if let Some((lo, hi)) = bounds {
        camera.fit(lo, hi, 0.05);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::TreeBuilder;

    /// Records every circle drawn (as its closed polygon's stroke colour).
    #[derive(Default)]
    struct Recorder {
        strokes: Vec<Option<Rgba>>,
    }

    impl DebugDraw for Recorder {
        fn draw_polygon(&mut self, _: &[Vec2], _: bool, style: &Style) {
            self.strokes.push(style.stroke);
        }
    }

    /// A root with two children, one of them with three leaves: depth 2,
    /// four leaves, six nodes.
    fn tree() -> CircleTree {
        TreeBuilder::node(vec2(0.0, 0.0), 4.0)
            .child(TreeBuilder::node(vec2(-2.0, 0.0), 1.5))
            .child(TreeBuilder::node(vec2(2.0, 0.0), 1.9).children([
                TreeBuilder::node(vec2(1.0, 0.0), 0.5),
                TreeBuilder::node(vec2(2.0, 0.0), 0.5),
                TreeBuilder::node(vec2(3.0, 0.0), 0.5),
            ]))
            .build()
            .unwrap()
            .0
    }

    #[test]
    fn a_chosen_depth_draws_that_level_and_the_leaves_above_it() {
        let tree = tree();
        assert_eq!(tree.depth(), 2);
        let style = Style::filled(STATIC, STATIC, 1.0);
        let drawn = |depth: Option<u8>| {
            let mut recorder = Recorder::default();
            draw_tree(&mut recorder, &tree, &Pose::IDENTITY, &style, depth);
            recorder.strokes
        };
        // Leaves (4) over faint rings of the inner nodes (2).
        assert_eq!(drawn(None).len(), 6);
        assert_eq!(drawn(Some(0)), [Some(LEVEL_COLORS[0])]);
        // Level 1: both children, one of them a leaf.
        assert_eq!(drawn(Some(1)), [Some(LEVEL_COLORS[1]); 2]);
        // Level 2: the three deep leaves and the shallow leaf, by level.
        let mut deepest = drawn(Some(2));
        deepest.sort_by_key(|c| c.map(|c| c.to_u32()));
        let mut expected = vec![Some(LEVEL_COLORS[2]); 3];
        expected.push(Some(LEVEL_COLORS[1]));
        expected.sort_by_key(|c| c.map(|c| c.to_u32()));
        assert_eq!(deepest, expected);
        // Past the deepest level: the leaves only.
        assert_eq!(drawn(Some(9)).len(), 4);
    }

    #[test]
    fn the_tree_depth_cycles_from_the_leaves_through_every_level() {
        let mut depth = None;
        let mut seen = Vec::new();
        for _ in 0..5 {
            depth = next_tree_depth(depth, Some(2));
            seen.push(depth);
        }
        assert_eq!(seen, [Some(0), Some(1), Some(2), None, Some(0)]);
        assert_eq!(next_tree_depth(None, None), None);
        assert_eq!(next_tree_depth(Some(3), None), None);
        assert_eq!(next_tree_depth(Some(5), Some(2)), None);
        assert_eq!(next_tree_depth(Some(254), Some(1000)), Some(255));
        assert_eq!(next_tree_depth(Some(255), Some(1000)), None);
    }

    #[test]
    fn capsule_outline_stays_at_the_radius_from_the_core() {
        let (a, b, radius) = (vec2(0.0, 0.0), vec2(2.0, 1.0), 0.3);
        let outline = capsule_outline(a, b, radius);
        assert_eq!(outline.len(), 2 * CAP_SEGMENTS + 2);
        for p in outline {
            // Distance from p to the segment a–b.
            let t = ((p - a).dot(&(b - a)) / (b - a).norm_squared()).clamp(0.0, 1.0);
            let d = (p - (a + (b - a) * t)).norm();
            assert!((d - radius).abs() < 1e-4, "{d}");
        }
        assert_eq!(capsule_outline(a, a, 1.0).len(), 2 * CAP_SEGMENTS + 2);
    }
}

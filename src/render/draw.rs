//! Drawing shapes, worlds and simulations through any [`DebugDraw`].
//!
//! Colours: static bodies grey, kinematic violet, dynamic bodies from
//! [`DYNAMIC_COLORS`] by their index in the world, projectiles (shots) and
//! their traces white with hits marked orange, sensors as green outlines.
//! Sleeping bodies are mixed towards the background when
//! [`Overlays::sleeping_dim`] is on. Circles show a radius line so spin is
//! visible. Circle trees show their leaves over faint rings of the inner
//! levels, or, with [`Overlays::tree_depth`], the nodes of one level
//! coloured by level ([`LEVEL_COLORS`]).

use super::colors::{
    AABB, BACKGROUND, CONTACT, DYNAMIC_COLORS, GUN, HIT, KINEMATIC, LEVEL_COLORS, NORMAL, Rgba,
    SENSOR, SHOT, STATIC,
};
use super::{Camera, DebugDraw, Style};
use crate::math::{Pose, Real, Vec2, vec2};
use crate::scene::Simulation;
use crate::shape::{CircleTree, Shape};
use crate::world::{BodyKind, World};

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
fn body_color(kind: BodyKind, index: usize) -> Rgba {
    match kind {
        BodyKind::Static => STATIC,
        BodyKind::Kinematic => KINEMATIC,
        BodyKind::Dynamic => DYNAMIC_COLORS[index % DYNAMIC_COLORS.len()],
    }
}

/// Smallest drawn radius of a projectile (screen pixels): rays and thin
/// shots stay visible at any zoom.
const PROJECTILE_PIXELS: Real = 2.5;

/// Draws every body and projectile of `world` and the chosen overlays.
pub fn draw_world<D: DebugDraw + ?Sized>(draw: &mut D, world: &World, overlays: &Overlays) {
    // Static bodies first, so moving ones are drawn over them.
    for pass_static in [true, false] {
        for (index, (_, body)) in world.bodies().enumerate() {
            if (body.kind() == BodyKind::Static) != pass_static {
                continue;
            }
            let mut color = body_color(body.kind(), index);
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
    let pixel = draw.metres_per_pixel();
    // Projectiles over the bodies: a disc of their radius.
    let shot_style = Style::filled(SHOT, SHOT, 1.0);
    for (_, projectile) in world.projectiles() {
        let radius = projectile.radius().max(PROJECTILE_PIXELS * pixel);
        draw.draw_circle(projectile.position(), radius, &shot_style);
    }
    if overlays.contacts || overlays.normals {
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

/// Narrowest drawn trace (screen pixels); thicker shots draw their thickness.
const TRACE_PIXELS: Real = 1.5;
/// Size of the mark at a hit (screen pixels).
const HIT_PIXELS: Real = 7.0;
/// Radius of a gun's marker and length of its barrel (screen pixels).
const GUN_PIXELS: Real = 7.0;
const BARREL_PIXELS: Real = 20.0;

/// Draws a running simulation: its world with the shots in flight, the
/// path each shot took in the last step (as wide as the shot, hits marked),
/// and the guns pointing where they aim now.
pub fn draw_simulation<D: DebugDraw + ?Sized>(draw: &mut D, sim: &Simulation, overlays: &Overlays) {
    let world = sim.world();
    draw_world(draw, world, overlays);
    let pixel = draw.metres_per_pixel();
    for trace in sim.traces() {
        let width = (2.0 * trace.radius / pixel).max(TRACE_PIXELS);
        draw.draw_segment(trace.from, trace.to, SHOT.with_alpha(0.6), width);
        if trace.hit {
            draw.draw_point(trace.to, HIT, HIT_PIXELS);
        }
    }
    for gun in &sim.scene().guns {
        // A gun whose mount is gone is not drawn.
        let Some(muzzle) = gun.muzzle(world) else {
            continue;
        };
        if let Some(direction) = gun.pointing(world) {
            let tip = muzzle + direction * (BARREL_PIXELS * pixel);
            draw.draw_segment(muzzle, tip, GUN, 4.0);
        }
        draw.draw_circle(
            muzzle,
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
    use crate::render::Canvas;
    use crate::scene::Scene;
    use crate::shape::TreeBuilder;

    /// A gun at (−8, 0) firing along +x at 300 m/s (5 m per step) with shots
    /// `thickness` thick, at a plate at x = 5; a 10 px/m canvas centred on
    /// the origin.
    fn range(thickness: Real) -> (Simulation, Canvas) {
        let text = format!(
            "(settings: (gravity: (0, 0), dt: 0.016666668),
              bodies: [(kind: Static, position: (5.2, 0), shape: Box(half_extents: (0.2, 5)))],
              guns: [(position: (-8, 0), aim: Angle(0), rate: 0.5, speed: 300,
                      thickness: {thickness})])"
        );
        let sim = Simulation::new(Scene::from_str(&text, "range.ron").unwrap());
        let mut canvas = Canvas::new(400, 200).unwrap();
        canvas.camera_mut().show(vec2(0.0, 0.0), 20.0);
        (sim, canvas)
    }

    fn pixel_at(canvas: &Canvas, at: Vec2, dy_pixels: Real) -> Rgba {
        let (x, y) = canvas.camera().to_screen(at);
        canvas.pixel(x as u32, (y + dy_pixels) as u32).unwrap()
    }

    fn is_background(canvas: &Canvas, p: Rgba) -> bool {
        let b = canvas.background();
        (p.r as i32 - b.r as i32).abs() + (p.g as i32 - b.g as i32).abs() < 12
    }

    #[test]
    fn a_shot_is_drawn_with_its_trace_as_wide_as_it_is_and_its_hit_marked() {
        let overlays = Overlays {
            hud: false,
            ..Overlays::default()
        };
        for (thickness, wide) in [(0.6, true), (0.02, false)] {
            let (mut sim, mut canvas) = range(thickness);
            sim.step().unwrap();
            // In flight: the trace from the muzzle to (−3, 0), the shot's disc there.
            let (_, shot) = sim.shots().next().unwrap();
            assert!((shot.position() - vec2(-3.0, 0.0)).norm() < 1e-3);
            canvas.clear();
            draw_simulation(&mut canvas, &sim, &overlays);
            let middle = vec2(-5.5, 0.0);
            assert!(!is_background(&canvas, pixel_at(&canvas, middle, 0.0)));
            // 2 px off the line: inside a 6 px wide trace, outside a thin one.
            let off = pixel_at(&canvas, middle, 2.0);
            assert_eq!(!is_background(&canvas, off), wide, "{thickness}: {off:?}");
            // Beyond the shot, nothing yet.
            assert!(is_background(
                &canvas,
                pixel_at(&canvas, vec2(-1.0, 0.0), 0.0)
            ));
            // Two steps on it stops at the plate: the last piece ends in a hit mark.
            sim.step().unwrap();
            sim.step().unwrap();
            assert_eq!(sim.shots_in_flight(), 0);
            let last = *sim.traces().last().unwrap();
            assert!(last.hit && (last.to.x - (5.0 - thickness * 0.5)).abs() < 1e-2);
            canvas.clear();
            draw_simulation(&mut canvas, &sim, &overlays);
            let mark = pixel_at(&canvas, last.to, 0.0);
            assert!(
                (mark.r as i32 - HIT.r as i32).abs() < 40
                    && (mark.b as i32 - HIT.b as i32).abs() < 40,
                "{mark:?}"
            );
        }
    }

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

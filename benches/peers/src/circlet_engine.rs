//! The circlet side: a [`World`] built from a [`SceneDef`].

use crate::engine::{CastKind, Engine};
use crate::scenes::{BallDef, SHOT_LENGTH, SHOT_RADIUS, SceneDef, ShapeDef, ShotDef, UnitMass};
use circlet::math::{Pose, Vec2, vec2};
use circlet::query::cast::Shot;
use circlet::shape::{Aabb, Circle, CircleTree, ConvexPolygon, Shape, TreeBuilder};
use circlet::world::{
    BodyDef, BodyHandle, ColliderDef, Filter, Material, QueryFilter, World, WorldSettings,
};
use std::sync::Arc;

/// Grows a group's enclosing circle by this fraction of its radius (plus
/// [`ENCLOSE_ABS`]) so f32 rounding never puts a child outside its parent.
const ENCLOSE_REL: f32 = 1.0e-4;
/// Absolute part of the enclosing margin (m).
const ENCLOSE_ABS: f32 = 1.0e-5;
/// Leaves per inner node of a [`ShapeDef::Balls`] tree.
const GROUP: usize = 4;

/// circlet running one scene.
pub struct Circlet {
    world: World,
    dt: f32,
    dynamic: Vec<BodyHandle>,
}

impl Circlet {
    /// The world, for what only circlet offers (its step profile).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }
}

fn v(p: [f32; 2]) -> Vec2 {
    vec2(p[0], p[1])
}

/// The smallest circle about the centroid of `parts` holding all of them.
fn enclosing(parts: &[(Vec2, f32)]) -> (Vec2, f32) {
    let centre = parts.iter().map(|p| p.0).sum::<Vec2>() / parts.len() as f32;
    let reach = parts
        .iter()
        .map(|(c, r)| (c - centre).norm() + r)
        .fold(0.0, f32::max);
    (centre, reach * (1.0 + ENCLOSE_REL) + ENCLOSE_ABS)
}

/// How circlet's lane solver runs on this processor: all eight lanes of a
/// batch at once in AVX registers (chosen at run time where the processor
/// has AVX), or four at a time in SSE ones.
pub fn lane_width() -> &'static str {
    if circlet::dynamics::WideContacts::default().avx() {
        "8 lanes (AVX, chosen at run time)"
    } else {
        "4 lanes (SSE)"
    }
}

/// A two-level circle tree over `balls`: a root, one node per group of
/// [`GROUP`] consecutive balls, the balls as leaves.
pub fn ball_tree(balls: &[BallDef]) -> CircleTree {
    let mut groups = Vec::new();
    let mut circles = Vec::new();
    for chunk in balls.chunks(GROUP) {
        let leaves: Vec<(Vec2, f32)> = chunk.iter().map(|b| (v(b.offset), b.radius)).collect();
        let (centre, radius) = enclosing(&leaves);
        circles.push((centre, radius));
        groups.push(
            TreeBuilder::node(centre, radius)
                .children(leaves.iter().map(|&(c, r)| TreeBuilder::node(c, r))),
        );
    }
    let (centre, radius) = enclosing(&circles);
    let (tree, _report) = TreeBuilder::node(centre, radius)
        .children(groups)
        .build()
        .expect("a tree of enclosing circles is valid");
    tree
}

/// Mass properties of the union of `balls` per unit density: what circlet
/// gives a body made of their circle tree, handed to rapier as well.
pub fn union_mass(balls: &[BallDef]) -> UnitMass {
    let m = ball_tree(balls).leaf_union_mass_properties();
    UnitMass {
        area: m.area,
        centroid: [m.centroid.x, m.centroid.y],
        inertia: m.inertia,
    }
}

fn shape(def: &ShapeDef, dynamic: bool) -> Arc<Shape> {
    let shape: Shape = match def {
        ShapeDef::Circle(r) => Circle::new(Vec2::zeros(), *r)
            .expect("positive radius")
            .into(),
        ShapeDef::Box(h) if dynamic => {
            ConvexPolygon::rectangle(vec2(-h[0], -h[1]), vec2(h[0], h[1]))
                .expect("positive extents")
                .into()
        }
        // A static box never turns: circlet's axis-aligned box, as its own
        // scene builders use for floors and walls.
        ShapeDef::Box(h) => Aabb::new(vec2(-h[0], -h[1]), vec2(h[0], h[1]))
            .expect("positive extents")
            .into(),
        ShapeDef::Balls { balls, .. } => Shape::Tree(Arc::new(ball_tree(balls))),
    };
    Arc::new(shape)
}

impl Engine for Circlet {
    const NAME: &'static str = "circlet";

    fn build(scene: &SceneDef) -> Circlet {
        let settings = WorldSettings {
            gravity: v(scene.gravity),
            sleeping: scene.sleeping,
            ..WorldSettings::default()
        };
        let mut world = World::new(settings).expect("valid settings");
        // Each shape is built once per kind of body and shared.
        let shapes: Vec<[Arc<Shape>; 2]> = scene
            .shapes
            .iter()
            .map(|s| [shape(s, false), shape(s, true)])
            .collect();
        let material = Material {
            density: scene.density,
            friction: scene.friction,
            restitution: scene.restitution,
        };
        let mut dynamic = Vec::with_capacity(scene.dynamic_count());
        for body in &scene.bodies {
            let pose = Pose::new(v(body.pos), body.angle);
            let def = if body.dynamic {
                BodyDef::dynamic(pose)
            } else {
                BodyDef::fixed(pose)
            };
            let handle = world.add_body(def).expect("valid body");
            let collider = ColliderDef {
                shape: shapes[body.shape][usize::from(body.dynamic)].clone(),
                local_pose: Pose::IDENTITY,
                material,
                filter: Filter::default(),
                sensor: false,
                user_data: 0,
            };
            world
                .add_collider(handle, collider)
                .expect("valid collider");
            if body.dynamic {
                dynamic.push(handle);
            }
        }
        Circlet {
            world,
            dt: scene.dt,
            dynamic,
        }
    }

    fn prepare_queries(&mut self) {
        // Colliders get their broadphase proxies when they are added.
    }

    fn step(&mut self) {
        self.world.step(self.dt).expect("step");
    }

    fn positions(&self) -> Vec<[f32; 2]> {
        self.dynamic
            .iter()
            .map(|&h| {
                let t = self.world.body(h).expect("live body").pose().translation;
                [t.x, t.y]
            })
            .collect()
    }

    fn body_count(&self) -> usize {
        self.world.body_count()
    }

    fn awake_count(&self) -> usize {
        self.dynamic
            .iter()
            .filter(|&&h| self.world.body(h).is_some_and(|b| b.is_awake()))
            .count()
    }

    fn state_hash(&self) -> Option<u64> {
        Some(self.world.state_hash())
    }

    fn cast_kinds() -> &'static [CastKind] {
        &[CastKind::Thick, CastKind::Ray]
    }

    fn cast(&self, shots: &[ShotDef], kind: CastKind, out: &mut Vec<Option<f32>>) {
        let radius = match kind {
            CastKind::Thick => SHOT_RADIUS,
            CastKind::Ray => 0.0,
            other => panic!("circlet offers no {other:?} cast"),
        };
        let filter = QueryFilter::default();
        out.clear();
        out.extend(shots.iter().map(|s| {
            let start = v(s.origin);
            let end = start + v(s.dir) * SHOT_LENGTH;
            let shot = Shot::new(start, end, radius).expect("finite shot");
            self.world
                .cast_thick(&shot, &filter)
                .expect("cast")
                .map(|hit| hit.fraction)
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenes::hull_balls;

    #[test]
    fn hull_tree_has_16_leaves_in_two_levels() {
        let tree = ball_tree(&hull_balls());
        assert_eq!(tree.leaves().len(), 16);
        assert_eq!(tree.depth(), 2);
        assert_eq!(tree.nodes().len(), 1 + 4 + 16);
    }

    #[test]
    fn hull_body_gets_the_union_mass() {
        let mass = union_mass(&hull_balls());
        // The union is smaller than the sum of the overlapping balls and
        // larger than the biggest ball.
        let sum: f32 = hull_balls()
            .iter()
            .map(|b| std::f32::consts::PI * b.radius * b.radius)
            .sum();
        assert!(mass.area < sum && mass.area > std::f32::consts::PI * 0.09);
        let engine = Circlet::build(&crate::scenes::trees(mass, 1));
        let body = engine.world.body(engine.dynamic[0]).unwrap();
        assert!((body.mass() - mass.area * crate::scenes::DENSITY).abs() < 1e-3 * mass.area);
    }
}

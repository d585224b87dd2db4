//! [`World`] → [`Scene`]: the current state of a world written as a scene.
//!
//! Every body becomes a [`BodyDesc`] at its current pose and velocity; a body
//! with one collider at its origin is written with `shape`, any other with
//! `colliders`. Tile maps come back as the static bodies they were built as.
//! Loading the result gives a world with the same bodies, shapes, materials
//! and filters, poses and velocities equal to within float rounding of the
//! rotation angle.

use super::build::LoadedScene;
use super::format::{
    BodyDesc, ColliderDesc, CornerDesc, FilterDesc, KindDesc, MaterialDesc, PulseDesc, Scene,
    SceneSettings, ShapeDesc, Xy,
};
use crate::math::{Pose, Vec2, perp};
use crate::shape::{Corner, Shape};
use crate::world::{Body, BodyHandle, BodyKind, Collider, ColliderHandle, World};
use std::collections::BTreeMap;

impl Scene {
    /// The world's current state as a scene: every body unnamed, no guns,
    /// the default time step. See [`LoadedScene::to_scene`] to keep names,
    /// guns, the time step and the view.
    pub fn from_world(world: &World) -> Scene {
        scene_of(
            world,
            &BTreeMap::new(),
            &BTreeMap::new(),
            SceneSettings::default().dt,
        )
    }
}

impl LoadedScene {
    /// The world's current state as a scene, with the names, guns, time step
    /// and view this scene was loaded with.
    pub fn to_scene(&self) -> Scene {
        let names: BTreeMap<BodyHandle, String> = self
            .names
            .iter()
            .map(|(name, body)| (*body, name.clone()))
            .collect();
        let mut scene = scene_of(&self.world, &names, &self.parts, self.dt);
        let order: Vec<BodyHandle> = self.world.bodies().map(|(handle, _)| handle).collect();
        for pulse in &self.pulses {
            if let Some(index) = order.iter().position(|b| *b == pulse.body) {
                scene.bodies[index].scale = pulse.base;
                scene.bodies[index].pulse = Some(PulseDesc {
                    amplitude: pulse.amplitude,
                    period: pulse.period,
                });
            }
        }
        scene.guns = self.scene.guns.clone();
        scene.view = self.view.clone();
        scene
    }
}

fn xy(v: Vec2) -> Xy {
    (v.x, v.y)
}

fn scene_of(
    world: &World,
    names: &BTreeMap<BodyHandle, String>,
    parts: &BTreeMap<ColliderHandle, String>,
    dt: f32,
) -> Scene {
    let settings = world.settings();
    let bodies = world
        .bodies()
        .map(|(handle, body)| body_desc(world, body, names.get(&handle).cloned(), parts))
        .collect();
    Scene {
        settings: SceneSettings {
            gravity: xy(settings.gravity),
            dt,
            substeps: settings.substeps,
            sleeping: settings.sleeping,
        },
        view: None,
        bodies,
        tile_maps: Vec::new(),
        guns: Vec::new(),
    }
}

fn body_desc(
    world: &World,
    body: &Body,
    name: Option<String>,
    parts: &BTreeMap<ColliderHandle, String>,
) -> BodyDesc {
    let pose = body.pose();
    let center = body.center_of_mass();
    // The world turns a dynamic body's initial origin velocity into the
    // velocity of its centre of mass (v_com = v_origin + ω × (com − origin))
    // once it has mass; other bodies keep the velocity as given. Invert that.
    let origin_velocity = if body.kind() == BodyKind::Dynamic && body.mass() > 0.0 {
        body.linear_velocity() + perp(pose.translation - center) * body.angular_velocity()
    } else {
        body.linear_velocity()
    };
    let colliders: Vec<(&Collider, Option<String>)> = body
        .colliders()
        .iter()
        .filter_map(|c| {
            world
                .collider(*c)
                .map(|collider| (collider, parts.get(c).cloned()))
        })
        .collect();
    let mut desc = BodyDesc {
        name,
        kind: match body.kind() {
            BodyKind::Static => KindDesc::Static,
            BodyKind::Kinematic => KindDesc::Kinematic,
            BodyKind::Dynamic => KindDesc::Dynamic,
        },
        position: xy(pose.translation),
        angle: pose.angle(),
        scale: pose.scale,
        velocity: xy(origin_velocity),
        spin: body.angular_velocity(),
        gravity_scale: body.gravity_scale,
        linear_damping: body.linear_damping,
        angular_damping: body.angular_damping,
        bullet: body.is_bullet(),
        can_sleep: body.can_sleep,
        shape: None,
        material: MaterialDesc::default(),
        filter: FilterDesc::default(),
        sensor: false,
        colliders: Vec::new(),
        pulse: None,
    };
    match colliders.as_slice() {
        [(only, None)] if only.local_pose() == Pose::IDENTITY => {
            let collider = collider_desc(only, None);
            desc.shape = Some(collider.shape);
            desc.material = collider.material;
            desc.filter = collider.filter;
            desc.sensor = collider.sensor;
        }
        _ => {
            desc.colliders = colliders
                .iter()
                .map(|(c, name)| collider_desc(c, name.clone()))
                .collect()
        }
    }
    desc
}

fn collider_desc(collider: &Collider, name: Option<String>) -> ColliderDesc {
    let local = collider.local_pose();
    let material = collider.material();
    let filter = collider.filter();
    ColliderDesc {
        name,
        shape: shape_desc(collider.shape()),
        offset: xy(local.translation),
        angle: local.angle(),
        scale: local.scale,
        material: MaterialDesc {
            density: material.density,
            friction: material.friction,
            restitution: material.restitution,
        },
        filter: FilterDesc {
            groups: filter.groups,
            mask: filter.mask,
        },
        sensor: collider.is_sensor(),
    }
}

/// The explicit description of node `index` of `tree` and its descendants.
fn tree_node_desc(tree: &crate::shape::CircleTree, index: usize) -> super::format::TreeNodeDesc {
    let node = &tree.nodes()[index];
    super::format::TreeNodeDesc {
        center: xy(node.center()),
        radius: node.radius(),
        part: node
            .own_part()
            .and_then(|part| tree.part_name(part))
            .map(str::to_owned),
        children: node
            .children()
            .map(|child| tree_node_desc(tree, child))
            .collect(),
    }
}

/// The scene description of a shape.
pub(crate) fn shape_desc(shape: &Shape) -> ShapeDesc {
    match shape {
        Shape::Tree(tree) => ShapeDesc::Tree {
            root: tree_node_desc(tree, 0),
            mass: tree
                .source_mass_properties()
                .map(|mass| super::format::TreeMassDesc {
                    area: mass.area,
                    centroid: xy(mass.centroid),
                    inertia: mass.inertia,
                }),
        },
        Shape::Point(point) => ShapeDesc::Point {
            at: xy(point.position()),
        },
        // The world refuses lines as colliders; a segment through two of its
        // points is the closest description should one ever be passed here.
        Shape::Line(line) => ShapeDesc::Segment {
            a: xy(line.point()),
            b: xy(line.point() + line.direction()),
        },
        Shape::Segment(segment) => ShapeDesc::Segment {
            a: xy(segment.a()),
            b: xy(segment.b()),
        },
        Shape::Capsule(capsule) => ShapeDesc::Capsule {
            a: xy(capsule.a()),
            b: xy(capsule.b()),
            radius: capsule.radius(),
        },
        Shape::Circle(circle) => ShapeDesc::Circle {
            radius: circle.radius(),
            center: xy(circle.center()),
        },
        Shape::Aabb(aabb) => ShapeDesc::Aabb {
            min: xy(aabb.min),
            max: xy(aabb.max),
        },
        Shape::OrientedRect(rect) => ShapeDesc::Rect {
            half_extents: xy(rect.half_extents()),
            center: xy(rect.center()),
            angle: rect.rotation().angle(),
        },
        Shape::ConvexPolygon(polygon) => ShapeDesc::Polygon {
            points: polygon.vertices().iter().map(|v| xy(*v)).collect(),
        },
        Shape::TileTriangle(tile) => ShapeDesc::Tile {
            min: xy(tile.rect().min),
            max: xy(tile.rect().max),
            missing: match tile.missing() {
                Corner::UpperLeft => CornerDesc::UpperLeft,
                Corner::UpperRight => CornerDesc::UpperRight,
                Corner::LowerLeft => CornerDesc::LowerLeft,
                Corner::LowerRight => CornerDesc::LowerRight,
            },
        },
        Shape::SimplePolygon(polygon) => ShapeDesc::SimplePolygon {
            points: polygon.vertices().iter().map(|v| xy(*v)).collect(),
        },
    }
}

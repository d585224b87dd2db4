//! Scene → [`World`]: every value checked (all problems collected), then the
//! world built in file order: bodies, then tile maps, then guns resolved.

use super::check::Checker;
use super::error::ProblemKind;
use super::format::{AimDesc, BodyDesc, KindDesc, Scene, View};
use super::guns::{Aim, Gun};
use super::locate::FieldPath;
use super::tilemap::tile_shapes;
use crate::math::{Pose, Real, vec2};
use crate::shape::Shape;
use crate::world::{
    BodyDef, BodyHandle, BodyKind, ColliderDef, ColliderHandle, Filter, Material, World,
    WorldSettings,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most solver substeps a scene may ask for.
pub const MAX_SUBSTEPS: u32 = 64;

/// Longest time step a scene may ask for (s); longer steps are not physics.
pub const MAX_DT: Real = 1.0;

/// A scene made into a world, with what the world itself does not keep.
#[derive(Clone, Debug)]
pub struct LoadedScene {
    /// The world, before its first step.
    pub world: World,
    /// The scene's time step (s).
    pub dt: Real,
    /// Named bodies (bodies and tile maps with a `name`).
    pub names: BTreeMap<String, BodyHandle>,
    /// The guns, ready to fire.
    pub guns: Vec<Gun>,
    /// The initial camera, if the scene has one.
    pub view: Option<View>,
    /// Named parts: colliders with a `name`, reported with hits.
    pub parts: BTreeMap<ColliderHandle, String>,
    /// Bodies whose scale oscillates, applied by [`crate::scene::Simulation`].
    pub pulses: Vec<Pulse>,
    /// The scene it was built from.
    pub scene: Scene,
}

/// A body whose scale oscillates: `base · (1 + amplitude · sin(2π t / period))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pulse {
    /// The body.
    pub body: BodyHandle,
    /// Its scale at time 0.
    pub base: Real,
    /// Relative amplitude, in [0, 0.9].
    pub amplitude: Real,
    /// Period (s).
    pub period: Real,
}

impl Pulse {
    /// The scale at time `t` (s).
    pub fn scale_at(&self, t: f64) -> Real {
        let phase = std::f64::consts::TAU * t / self.period as f64;
        self.base * (1.0 + self.amplitude * phase.sin() as Real)
    }
}

/// Largest relative amplitude of a pulse: the scale must stay > 0.
pub const MAX_PULSE_AMPLITUDE: Real = 0.9;

impl LoadedScene {
    /// The name of a body, if it has one.
    pub fn name_of(&self, body: BodyHandle) -> Option<&str> {
        self.names
            .iter()
            .find(|(_, handle)| **handle == body)
            .map(|(name, _)| name.as_str())
    }
}

/// One collider ready to attach.
struct ColliderPlan {
    name: Option<String>,
    shape: Shape,
    local_pose: Pose,
    material: Material,
    filter: Filter,
    sensor: bool,
}

/// One body ready to add.
struct BodyPlan {
    name: Option<String>,
    def: BodyDef,
    colliders: Vec<ColliderPlan>,
    /// (amplitude, period) of a scale pulse.
    pulse: Option<(Real, Real)>,
}

/// Checks every value of `scene` and builds the world; `None` when the
/// checker recorded any problem.
pub(crate) fn build(scene: &Scene, checker: &mut Checker) -> Option<LoadedScene> {
    let root = FieldPath::default();
    let settings_path = root.field("settings");
    let gravity = checker.xy(settings_path.field("gravity"), scene.settings.gravity);
    let dt = checker.ranged(
        settings_path.field("dt"),
        scene.settings.dt,
        "in (0, 1] seconds",
        |v| v > 0.0 && v <= MAX_DT,
    );
    let substeps = scene.settings.substeps;
    if !(1..=MAX_SUBSTEPS).contains(&substeps) {
        checker.report(
            settings_path.field("substeps"),
            ProblemKind::OutOfRange,
            format!("expected 1 to {MAX_SUBSTEPS} substeps, found {substeps}"),
        );
    }
    if let Some(view) = &scene.view {
        let path = root.field("view");
        checker.xy(path.field("center"), view.center);
        checker.positive(path.field("height"), view.height);
    }

    let mut plans = Vec::new();
    let mut named: BTreeMap<String, FieldPath> = BTreeMap::new();
    let mut claim = |checker: &mut Checker, name: &Option<String>, path: FieldPath| {
        let Some(name) = name else { return };
        if name.trim().is_empty() {
            checker.report(
                path,
                ProblemKind::BadName,
                "expected a non-empty name".into(),
            );
        } else if let Some(first) = named.get(name) {
            checker.report(
                path,
                ProblemKind::BadName,
                format!("expected a unique name, found {name:?} already used by {first}"),
            );
        } else {
            named.insert(name.clone(), path);
        }
    };
    for (i, body) in scene.bodies.iter().enumerate() {
        let path = root.field("bodies").index(i);
        claim(checker, &body.name, path.field("name"));
        if let Some(plan) = body_plan(checker, &path, body) {
            plans.push(plan);
        }
    }
    for (i, map) in scene.tile_maps.iter().enumerate() {
        let path = root.field("tile_maps").index(i);
        claim(checker, &map.name, path.field("name"));
        let origin = checker.xy(path.field("origin"), map.origin);
        let size = checker.positive(path.field("tile_size"), map.tile_size);
        let material = checker.material(path.field("material"), &map.material);
        let (Some(origin), Some(size), Some(material)) = (origin, size, material) else {
            continue;
        };
        let Some(shapes) = tile_shapes(checker, &path, &map.rows, size) else {
            continue;
        };
        let filter = Filter {
            groups: map.filter.groups,
            mask: map.filter.mask,
        };
        plans.push(BodyPlan {
            pulse: None,
            name: map.name.clone(),
            def: BodyDef::fixed(Pose::from_translation(origin)),
            colliders: shapes
                .into_iter()
                .map(|shape| ColliderPlan {
                    name: None,
                    shape,
                    local_pose: Pose::IDENTITY,
                    material,
                    filter,
                    sensor: false,
                })
                .collect(),
        });
    }
    let guns = check_guns(checker, scene, &named);

    let (Some(gravity), Some(dt)) = (gravity, dt) else {
        return None;
    };
    if !checker.problems.is_empty() {
        return None;
    }
    let settings = WorldSettings {
        gravity,
        substeps,
        sleeping: scene.settings.sleeping,
        ..WorldSettings::default()
    };
    let mut world = World::new(settings).ok()?;
    let mut names = BTreeMap::new();
    let mut pulses = Vec::new();
    let mut parts = BTreeMap::new();
    for (i, plan) in plans.into_iter().enumerate() {
        let path = root.field("bodies").index(i);
        let base_scale = plan.def.pose.scale;
        let body = match world.add_body(plan.def) {
            Ok(body) => body,
            Err(error) => {
                checker.report(path, ProblemKind::OutOfRange, error.to_string());
                return None;
            }
        };
        for collider in plan.colliders {
            let def = ColliderDef {
                shape: Arc::new(collider.shape),
                local_pose: collider.local_pose,
                material: collider.material,
                filter: collider.filter,
                sensor: collider.sensor,
                user_data: 0,
            };
            match world.add_collider(body, def) {
                Ok(handle) => {
                    if let Some(name) = collider.name {
                        parts.insert(handle, name);
                    }
                }
                Err(error) => {
                    checker.report(path.clone(), ProblemKind::BadShape, error.to_string());
                    return None;
                }
            }
        }
        if let Some(name) = plan.name {
            names.insert(name, body);
        }
        if let Some((amplitude, period)) = plan.pulse {
            pulses.push(Pulse {
                body,
                base: base_scale,
                amplitude,
                period,
            });
        }
    }
    let guns = guns
        .into_iter()
        .map(|(gun, target, mount)| {
            let handle = |name: Option<String>| name.and_then(|n| names.get(&n).copied());
            resolve_gun(gun, handle(target), handle(mount))
        })
        .collect();
    Some(LoadedScene {
        world,
        dt,
        names,
        guns,
        view: scene.view.clone(),
        parts,
        pulses,
        scene: scene.clone(),
    })
}

fn body_plan(checker: &mut Checker, path: &FieldPath, body: &BodyDesc) -> Option<BodyPlan> {
    let position = checker.xy(path.field("position"), body.position);
    let angle = checker.finite(path.field("angle"), body.angle);
    let scale = checker.positive(path.field("scale"), body.scale);
    let velocity = checker.xy(path.field("velocity"), body.velocity);
    let spin = checker.finite(path.field("spin"), body.spin);
    let gravity_scale = checker.finite(path.field("gravity_scale"), body.gravity_scale);
    let linear_damping = checker.non_negative(path.field("linear_damping"), body.linear_damping);
    let angular_damping = checker.non_negative(path.field("angular_damping"), body.angular_damping);
    let mut colliders = Vec::new();
    let mut ok = true;
    if let Some(shape) = &body.shape {
        let built = checker.shape(path.field("shape"), shape);
        let material = checker.material(path.field("material"), &body.material);
        match (built, material) {
            (Some(shape), Some(material)) => colliders.push(ColliderPlan {
                name: None,
                shape,
                local_pose: Pose::IDENTITY,
                material,
                filter: Filter {
                    groups: body.filter.groups,
                    mask: body.filter.mask,
                },
                sensor: body.sensor,
            }),
            _ => ok = false,
        }
    }
    let mut part_names: Vec<&str> = Vec::new();
    for (i, collider) in body.colliders.iter().enumerate() {
        let path = path.field("colliders").index(i);
        if let Some(name) = &collider.name {
            if name.trim().is_empty() {
                checker.report(
                    path.field("name"),
                    ProblemKind::BadName,
                    "expected a non-empty part name".into(),
                );
            } else if part_names.contains(&name.as_str()) {
                checker.report(
                    path.field("name"),
                    ProblemKind::BadName,
                    format!("expected a part name unique in its body, found {name:?} twice"),
                );
            }
            part_names.push(name);
        }
        let shape = checker.shape(path.field("shape"), &collider.shape);
        let offset = checker.xy(path.field("offset"), collider.offset);
        let angle = checker.finite(path.field("angle"), collider.angle);
        let scale = checker.positive(path.field("scale"), collider.scale);
        let material = checker.material(path.field("material"), &collider.material);
        match (shape, offset, angle, scale, material) {
            (Some(shape), Some(offset), Some(angle), Some(scale), Some(material)) => colliders
                .push(ColliderPlan {
                    name: collider.name.clone(),
                    shape,
                    local_pose: Pose::new(offset, angle).with_scale(scale),
                    material,
                    filter: Filter {
                        groups: collider.filter.groups,
                        mask: collider.filter.mask,
                    },
                    sensor: collider.sensor,
                }),
            _ => ok = false,
        }
    }
    if body.shape.is_none() && body.colliders.is_empty() {
        checker.report(
            path.clone(),
            ProblemKind::MissingField,
            "expected `shape` or `colliders`: a body needs at least one collider".into(),
        );
        ok = false;
    }
    let pulse = body.pulse.as_ref().and_then(|pulse| {
        let path = path.field("pulse");
        let amplitude = checker.ranged(
            path.field("amplitude"),
            pulse.amplitude,
            "in [0, 0.9]",
            |v| (0.0..=MAX_PULSE_AMPLITUDE).contains(&v),
        );
        let period = checker.positive(path.field("period"), pulse.period);
        Some((amplitude?, period?))
    });
    if body.pulse.is_some() && pulse.is_none() {
        ok = false;
    }
    let kind = match body.kind {
        KindDesc::Static => BodyKind::Static,
        KindDesc::Kinematic => BodyKind::Kinematic,
        KindDesc::Dynamic => BodyKind::Dynamic,
    };
    let pose = Pose::new(position?, angle?).with_scale(scale?);
    let def = BodyDef {
        kind,
        pose,
        linear_velocity: velocity?,
        angular_velocity: spin?,
        gravity_scale: gravity_scale?,
        linear_damping: linear_damping?,
        angular_damping: angular_damping?,
        bullet: body.bullet,
        can_sleep: body.can_sleep,
        user_data: 0,
    };
    ok.then_some(BodyPlan {
        pulse,
        name: body.name.clone(),
        def,
        colliders,
    })
}

/// Reports `name` at `path` when no body has it, listing the names there are.
fn check_body_name(
    checker: &mut Checker,
    named: &BTreeMap<String, FieldPath>,
    path: FieldPath,
    name: &str,
) {
    if !named.contains_key(name) {
        let known: Vec<&str> = named.keys().map(String::as_str).collect();
        checker.report(
            path,
            ProblemKind::BadName,
            format!(
                "expected the name of a body, found {name:?} (named bodies: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ),
        );
    }
}

/// A gun checked, with the names of its target and its mount, if any.
type CheckedGun = (Gun, Option<String>, Option<String>);

/// Checks every gun; returns each valid one with the names of its target and
/// mount, if any.
fn check_guns(
    checker: &mut Checker,
    scene: &Scene,
    named: &BTreeMap<String, FieldPath>,
) -> Vec<CheckedGun> {
    let mut guns = Vec::new();
    for (i, gun) in scene.guns.iter().enumerate() {
        let path = FieldPath::default().field("guns").index(i);
        let position = checker.xy(path.field("position"), gun.position);
        let aim_path = path.field("aim");
        let (direction, target) = match &gun.aim {
            AimDesc::Direction(xy) => {
                let direction = checker.xy(aim_path.clone(), *xy);
                let unit = direction.and_then(|d| {
                    let length = d.norm();
                    (length > 0.0 && length.is_finite()).then(|| d / length)
                });
                if direction.is_some() && unit.is_none() {
                    checker.report(
                        aim_path,
                        ProblemKind::OutOfRange,
                        "expected a direction of non-zero length, found (0, 0)".into(),
                    );
                }
                (unit, None)
            }
            AimDesc::Angle(angle) => (
                checker
                    .finite(aim_path, *angle)
                    .map(|a| vec2(a.cos(), a.sin())),
                None,
            ),
            AimDesc::Target(name) => {
                check_body_name(checker, named, aim_path, name);
                (Some(vec2(1.0, 0.0)), Some(name.clone()))
            }
        };
        let mount = gun.mount.clone();
        if let Some(mount) = &mount {
            check_body_name(checker, named, path.field("mount"), mount);
        }
        let rate = checker.positive(path.field("rate"), gun.rate);
        let speed = checker.positive(path.field("speed"), gun.speed);
        let spread = checker.ranged(path.field("spread"), gun.spread, "in [0, pi/2]", |v| {
            (0.0..=std::f32::consts::FRAC_PI_2).contains(&v)
        });
        let thickness = checker.non_negative(path.field("thickness"), gun.thickness);
        let start = checker.non_negative(path.field("start"), gun.start);
        let lifetime = checker.positive(path.field("lifetime"), gun.lifetime);
        let (
            Some(position),
            Some(direction),
            Some(rate),
            Some(speed),
            Some(spread),
            Some(thickness),
            Some(start),
            Some(lifetime),
        ) = (
            position, direction, rate, speed, spread, thickness, start, lifetime,
        )
        else {
            continue;
        };
        let gun = Gun::new(
            gun.name.clone(),
            position,
            Aim::Direction(direction),
            rate,
            speed,
            spread,
            thickness,
            gun.pierce,
            start,
            lifetime,
            gun.seed,
        );
        guns.push((gun, target, mount));
    }
    guns
}

fn resolve_gun(mut gun: Gun, target: Option<BodyHandle>, mount: Option<BodyHandle>) -> Gun {
    if let Some(body) = target {
        gun.aim = Aim::Target(body);
    }
    gun.mount = mount;
    gun
}

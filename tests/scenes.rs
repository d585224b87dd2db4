//! The scenes in `scenes/`.
//!
//! Locks:
//! - every scene loads, with the bodies, names and guns it declares;
//! - every scene written back as text (`to_ron`) parses to the same scene;
//! - World → scene → World keeps every body, shape, material, filter, pose
//!   and velocity (`Scene::from_world`, `LoadedScene::to_scene`), fitted
//!   trees with their outline's mass (`Tree(.., mass: ..)`);
//! - every scene runs 600 steps with no NaN and the same state hash in two
//!   runs, and its body count never changes (shots are world projectiles,
//!   not bodies);
//! - the shooter's guns hit its circle-tree ships on at least three
//!   different named parts, and every hit is counted once by body, by part
//!   and by gun;
//! - a tree fitted to a mask image (nordenfelt's raider) covers every opaque
//!   pixel of the image, decoded here on its own, and no leaf reaches more
//!   than ε beyond them; its collider keeps its part name, and projectile
//!   hits on it report `raider/hull`.

use circlet::math::{Pose, vec2};
use circlet::scene::{Aim, LoadedScene, Scene, Simulation, USER_GUN};
use circlet::world::World;

const SCENES: [&str; 8] = [
    "showcase",
    "shooter",
    "minigolf",
    "pyramid",
    "ballpit",
    "nordenfelt",
    "tunnelling",
    "polygons",
];

fn path(name: &str) -> String {
    format!("{}/scenes/{name}.ron", env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> LoadedScene {
    Scene::load(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_scene_loads_with_what_it_declares() {
    for name in SCENES {
        let loaded = load(name);
        let text = std::fs::read_to_string(path(name)).unwrap();
        let scene = Scene::parse(&text, name).unwrap();
        let tile_maps = scene.tile_maps.len();
        assert_eq!(
            loaded.world.body_count(),
            scene.bodies.len() + tile_maps,
            "{name}"
        );
        let named = scene.bodies.iter().filter(|b| b.name.is_some()).count()
            + scene.tile_maps.iter().filter(|m| m.name.is_some()).count();
        assert_eq!(loaded.names.len(), named, "{name}");
        assert_eq!(loaded.guns.len(), scene.guns.len(), "{name}");
        let parts = scene
            .bodies
            .iter()
            .flat_map(|b| &b.colliders)
            .filter(|c| c.name.is_some())
            .count();
        assert_eq!(loaded.parts.len(), parts, "{name}");
        assert!(loaded.world.is_finite());
    }
}

#[test]
fn the_scenes_cover_every_feature_of_the_format() {
    let scenes: Vec<Scene> = SCENES
        .iter()
        .map(|name| Scene::parse(&std::fs::read_to_string(path(name)).unwrap(), name).unwrap())
        .collect();
    let shapes: Vec<String> = scenes
        .iter()
        .flat_map(|s| &s.bodies)
        .flat_map(|b| {
            b.shape
                .iter()
                .chain(b.colliders.iter().map(|c| &c.shape))
                .map(|shape| format!("{shape:?}"))
        })
        .collect();
    for kind in [
        "Circle",
        "Capsule",
        "Segment",
        "Box",
        "Rect",
        "Polygon",
        "Regular",
        "Tile",
        "SimplePolygon",
    ] {
        assert!(
            shapes.iter().any(|s| s.starts_with(&format!("{kind} "))),
            "no scene uses {kind}"
        );
    }
    assert!(
        shapes.iter().any(|s| s.contains("outline: Mask {")),
        "no scene fits a tree to a mask image"
    );
    let all = || scenes.iter().flat_map(|s| &s.bodies);
    assert!(all().any(|b| b.sensor), "a sensor");
    assert!(all().any(|b| b.scale != 1.0), "a scaled body");
    assert!(all().any(|b| b.pulse.is_some()), "a pulsing body");
    assert!(all().any(|b| b.spin != 0.0), "a spinning body");
    assert!(scenes.iter().any(|s| !s.tile_maps.is_empty()), "a tile map");
    let guns = || scenes.iter().flat_map(|s| &s.guns);
    assert!(guns().any(|g| g.pierce > 0), "a piercing gun");
    assert!(guns().any(|g| g.mount.is_some()), "a gun on a mount");
    for aim in ["Target", "Direction", "Angle"] {
        assert!(
            guns().any(|g| format!("{:?}", g.aim).starts_with(aim)),
            "a gun aimed by {aim}"
        );
    }
}

#[test]
fn scenes_written_as_text_read_back_the_same() {
    for name in SCENES {
        let scene = load(name).scene;
        let text = scene.to_ron();
        let again = Scene::parse(&text, "written.ron").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(again, scene, "{name}");
    }
}

fn assert_same_world(a: &World, b: &World, context: &str) {
    assert_eq!(a.body_count(), b.body_count(), "{context}");
    for ((_, x), (_, y)) in a.bodies().zip(b.bodies()) {
        let (px, py) = (x.pose(), y.pose());
        assert!(
            (px.translation - py.translation).norm() < 1e-4,
            "{context}: {px:?} vs {py:?}"
        );
        assert!(
            (px.rotation.angle_to(&py.rotation)).abs() < 1e-5,
            "{context}"
        );
        assert!((px.scale - py.scale).abs() < 1e-6, "{context}");
        assert_eq!(x.kind(), y.kind(), "{context}");
        assert!(
            (x.linear_velocity() - y.linear_velocity()).norm() < 1e-3,
            "{context}: {:?} vs {:?}",
            x.linear_velocity(),
            y.linear_velocity()
        );
        assert!((x.angular_velocity() - y.angular_velocity()).abs() < 1e-5);
        assert!(
            (x.mass() - y.mass()).abs() <= 1e-4 * x.mass().max(1.0),
            "{context}"
        );
        assert_eq!(x.colliders().len(), y.colliders().len(), "{context}");
        for (cx, cy) in x.colliders().iter().zip(y.colliders()) {
            let (cx, cy) = (a.collider(*cx).unwrap(), b.collider(*cy).unwrap());
            assert_eq!(cx.shape(), cy.shape(), "{context}");
            assert_eq!(cx.material(), cy.material(), "{context}");
            assert_eq!(cx.filter(), cy.filter(), "{context}");
            assert_eq!(cx.is_sensor(), cy.is_sensor(), "{context}");
            let (lx, ly) = (cx.local_pose(), cy.local_pose());
            assert!((lx.translation - ly.translation).norm() < 1e-5, "{context}");
            assert!((lx.rotation.angle_to(&ly.rotation)).abs() < 1e-5);
        }
    }
}

#[test]
fn world_to_scene_to_world_keeps_every_body() {
    for name in SCENES {
        let loaded = load(name);
        let text = Scene::from_world(&loaded.world).to_ron();
        let again = Scene::from_str(&text, "from_world.ron").unwrap_or_else(|e| panic!("{e}"));
        assert_same_world(&loaded.world, &again.world, name);
    }
}

#[test]
fn to_scene_keeps_names_guns_pulses_and_the_time_step() {
    for name in SCENES {
        let loaded = load(name);
        let scene = loaded.to_scene();
        let again = Scene::from_str(&scene.to_ron(), "to_scene.ron").unwrap();
        assert_same_world(&loaded.world, &again.world, name);
        assert_eq!(
            again.names.keys().collect::<Vec<_>>(),
            loaded.names.keys().collect::<Vec<_>>()
        );
        let described = |scene: &LoadedScene| -> Vec<String> {
            scene
                .guns
                .iter()
                .map(|gun| {
                    let aim = match gun.aim {
                        Aim::Target(body) => format!("at {:?}", scene.name_of(body)),
                        Aim::Direction(d) => format!("along {d:?}"),
                    };
                    format!(
                        "{:?} {aim} {} {} {}",
                        gun.name, gun.rate, gun.speed, gun.pierce
                    )
                })
                .collect()
        };
        assert_eq!(described(&again), described(&loaded), "{name}");
        assert_eq!(again.pulses.len(), loaded.pulses.len(), "{name}");
        let parts = |scene: &LoadedScene| scene.parts.values().cloned().collect::<Vec<_>>();
        assert_eq!(parts(&again), parts(&loaded), "{name}");
        assert_eq!(again.dt, loaded.dt, "{name}");
    }
}

#[test]
fn a_world_built_in_code_round_trips() {
    use circlet::shape::{Capsule, SimplePolygon};
    use circlet::world::{BodyDef, ColliderDef, Filter, WorldSettings};
    let mut world = World::new(WorldSettings::default()).unwrap();
    let body = world
        .add_body(
            BodyDef::dynamic(Pose::new(vec2(1.0, 2.0), 0.7).with_scale(1.5))
                .with_velocity(vec2(3.0, -1.0), 2.0),
        )
        .unwrap();
    let ell = SimplePolygon::new(&[
        vec2(0.0, 0.0),
        vec2(2.0, 0.0),
        vec2(2.0, 0.5),
        vec2(0.5, 0.5),
        vec2(0.5, 2.0),
        vec2(0.0, 2.0),
    ])
    .unwrap();
    world
        .add_collider(
            body,
            ColliderDef::new(ell).at(Pose::new(vec2(-0.5, 0.2), 0.3)),
        )
        .unwrap();
    let mut capsule = ColliderDef::new(Capsule::new(vec2(0.0, 0.0), vec2(1.0, 0.0), 0.2).unwrap());
    capsule.filter = Filter {
        groups: 4,
        mask: 0xF0,
    };
    world.add_collider(body, capsule.sensor()).unwrap();
    let text = Scene::from_world(&world).to_ron();
    let again = Scene::from_str(&text, "code.ron").unwrap();
    assert_same_world(&world, &again.world, "code");
}

fn run(name: &str, steps: usize) -> (u64, Simulation) {
    let mut sim = Simulation::new(load(name));
    let bodies = sim.world().body_count();
    for step in 0..steps {
        sim.step()
            .unwrap_or_else(|e| panic!("{name} step {step}: {e}"));
        assert!(sim.world().is_finite(), "{name}: NaN at step {step}");
        assert_eq!(
            sim.world().body_count(),
            bodies,
            "{name}: a body appeared or vanished at step {step}"
        );
    }
    (sim.world().state_hash(), sim)
}

#[test]
fn every_scene_runs_600_steps_without_nan_and_repeats_its_hash() {
    for name in SCENES {
        let (first, sim) = run(name, 600);
        let (second, _) = run(name, 600);
        assert_eq!(first, second, "{name}: two runs differ");
        if !sim.scene().guns.is_empty() {
            assert!(sim.stats().shots > 0, "{name}: guns fired nothing");
        }
        if name == "shooter" {
            let stats = sim.stats();
            let by_part = &stats.hits_by_part;
            assert!(
                by_part.keys().any(|k| k.starts_with("cruiser/")),
                "hits on the cruiser are reported by part: {by_part:?}"
            );
            let parts: std::collections::BTreeSet<&str> = by_part
                .keys()
                .filter_map(|k| k.split_once('/').map(|(_, part)| part))
                .collect();
            assert!(parts.len() >= 3, "hits on three parts or more: {by_part:?}");
            for counts in [&stats.hits_by_body, by_part, &stats.hits_by_gun] {
                assert_eq!(counts.values().sum::<u64>(), stats.hits, "{counts:?}");
            }
            assert!(stats.shots > 0 && stats.hits > 0);
        }
    }
}

#[test]
fn circle_trees_load_explicit_and_fitted_and_report_bad_nodes_where_they_are() {
    let text = r#"(
    bodies: [
        (name: "ship", shape: Tree(root: (radius: 2, part: Some("hull"), children: [
            (center: (1, 0), radius: 0.9, part: Some("bow")),
            (center: (-1, 0), radius: 0.9),
        ]))),
        (name: "barge", position: (6, 0), shape: FittedTree(
            outline: Polygon(points: [(-2, -0.5), (2, -0.5), (2, 0.5), (-2, 0.5)]), epsilon: 0.05)),
    ],
)"#;
    let loaded = Scene::from_str(text, "trees.ron").unwrap();
    let world = &loaded.world;
    let mut trees = 0;
    for (_, body) in world.bodies() {
        for collider in body.colliders() {
            if let circlet::shape::Shape::Tree(tree) = world.collider(*collider).unwrap().shape() {
                trees += 1;
                assert!(!tree.leaves().is_empty());
            }
        }
    }
    assert_eq!(trees, 2);

    let outside = r#"(
    bodies: [
        (shape: Tree(root: (radius: 1, children: [(center: (3, 0), radius: 0.5)]))),
    ],
)"#;
    let message = Scene::from_str(outside, "bad.ron").unwrap_err().to_string();
    assert!(message.contains("bad.ron:3:"), "{message}");
    assert!(message.contains("bodies[0].shape.root"), "{message}");

    // An explicit tree may carry the mass of the outline it stands for;
    // each bad number of it is reported where it is.
    let with_mass = |mass: &str| {
        format!(
            "(bodies: [\n  (shape: Tree(root: (radius: 1, children: [(center: (0.5, 0), radius: 0.5)]),\n    mass: {mass})),\n])"
        )
    };
    let own = Scene::from_str(
        &with_mass("(area: 2, centroid: (0.25, 0), inertia: 0.5)"),
        "m.ron",
    )
    .unwrap();
    let union = Scene::from_str(&with_mass("None"), "m.ron").unwrap();
    let mass = |loaded: &LoadedScene| loaded.world.bodies().next().unwrap().1.mass();
    assert!((mass(&own) - 2.0).abs() < 1e-5, "{}", mass(&own));
    // Without it: the union of the leaves (one disc of radius 0.5).
    assert!((mass(&union) - std::f32::consts::PI * 0.25).abs() < 1e-4);
    let problems = Scene::check(
        &with_mass("(area: -2, centroid: (NaN, 0), inertia: 0)"),
        "bad.ron",
    );
    let found: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(problems.len(), 3, "{found:#?}");
    assert!(
        found[0].starts_with("bad.ron:3:18: bodies[0].shape.mass.area: expected a number > 0"),
        "{found:#?}"
    );
    assert!(found[1].starts_with("bad.ron:3:33: bodies[0].shape.mass.centroid.x"));
    assert!(found[2].starts_with("bad.ron:3:51: bodies[0].shape.mass.inertia"));

    let no_epsilon = r#"(
    bodies: [
        (shape: FittedTree(outline: Circle(radius: 1), epsilon: -0.1)),
    ],
)"#;
    let message = Scene::from_str(no_epsilon, "bad.ron")
        .unwrap_err()
        .to_string();
    assert!(message.contains("epsilon"), "{message}");
}

#[test]
fn a_mask_fitted_tree_covers_the_opaque_pixels_within_epsilon_and_keeps_its_part() {
    use circlet::math::Vec2;
    use circlet::shape::Shape;
    // As written in nordenfelt.ron.
    let (pixel, epsilon, threshold) = (0.05f32, 0.05f32, 128u8);
    let loaded = load("nordenfelt");
    let raider = loaded.names["raider"];
    let colliders = loaded.world.body(raider).unwrap().colliders().to_vec();
    assert_eq!(colliders.len(), 1);
    assert_eq!(loaded.parts[&colliders[0]], "hull");
    let Shape::Tree(tree) = loaded.world.collider(colliders[0]).unwrap().shape() else {
        panic!("the raider is a circle tree");
    };
    let leaves: Vec<_> = tree.leaf_circles().collect();
    assert!(
        leaves.len() > 4 && tree.depth() >= 1,
        "{} leaves",
        leaves.len()
    );

    // The sprite's solid pixels as squares of the collider's frame: the
    // image centred on the origin, row 0 at the top.
    let png = format!("{}/scenes/raider.png", env!("CARGO_MANIFEST_DIR"));
    let image = tiny_skia::Pixmap::load_png(png).unwrap();
    let (width, height) = (image.width() as usize, image.height() as usize);
    let solid: Vec<(Vec2, Vec2)> = (0..width * height)
        .filter(|&i| image.pixels()[i].alpha() >= threshold)
        .map(|i| {
            let (col, row) = ((i % width) as f32, (i / width) as f32);
            let left = (col - width as f32 / 2.0) * pixel;
            let top = (height as f32 / 2.0 - row) * pixel;
            (vec2(left, top - pixel), vec2(left + pixel, top))
        })
        .collect();
    assert!(solid.len() > 1000, "{} solid pixels", solid.len());
    // Some pixels are partly transparent (anti-aliased edges, the window).
    assert!(
        image
            .pixels()
            .iter()
            .any(|p| p.alpha() > 0 && p.alpha() < 255)
    );

    // Coverage: every corner, edge midpoint and centre of every solid pixel
    // lies in a leaf (leaves are rounded outwards, so no slack is needed
    // beyond f32 rounding of the distance itself).
    let in_a_leaf = |p: Vec2| {
        leaves
            .iter()
            .any(|c| (p - c.center()).norm() <= c.radius() * (1.0 + 1e-6))
    };
    for (lo, hi) in &solid {
        for (i, j) in (0..3).flat_map(|i| (0..3).map(move |j| (i, j))) {
            let p = vec2(
                lo.x + (hi.x - lo.x) * i as f32 / 2.0,
                lo.y + (hi.y - lo.y) * j as f32 / 2.0,
            );
            assert!(in_a_leaf(p), "uncovered point {p:?} of pixel {lo:?}");
        }
    }
    // Overhang: every point of every leaf (rings of samples, centre to rim)
    // lies within ε of a solid pixel.
    let distance_to_solid = |p: Vec2| {
        solid
            .iter()
            .map(|(lo, hi)| {
                let dx = (lo.x - p.x).max(p.x - hi.x).max(0.0);
                let dy = (lo.y - p.y).max(p.y - hi.y).max(0.0);
                dx.hypot(dy)
            })
            .fold(f32::INFINITY, f32::min)
    };
    let mut worst: f32 = 0.0;
    for leaf in &leaves {
        for ring in 0..=4 {
            let radius = leaf.radius() * ring as f32 / 4.0;
            let count = (8 * ring).max(1);
            for k in 0..count {
                let angle = std::f32::consts::TAU * k as f32 / count as f32;
                let p = leaf.center() + vec2(angle.cos(), angle.sin()) * radius;
                worst = worst.max(distance_to_solid(p));
            }
        }
    }
    assert!(
        worst <= epsilon * (1.0 + 1e-3),
        "a leaf overhangs by {worst}"
    );
    // The bound is used, not met by a cloud of pixel-sized circles.
    assert!(worst > epsilon * 0.25, "worst overhang {worst}");

    // Shots fired at the raider from four sides are reported by body and part.
    let mut sim = Simulation::new(loaded);
    let at = sim.world().body(raider).unwrap().center_of_mass();
    for from in [
        vec2(0.0, -4.0),
        vec2(0.0, 4.0),
        vec2(-5.0, 0.0),
        vec2(5.0, 0.0),
    ] {
        sim.shoot(at + from, at, 60.0, 0.12).unwrap();
    }
    for _ in 0..30 {
        sim.step().unwrap();
    }
    // Every one of the four projectiles hits, and every hit on the raider
    // is named by its collider's part, never by a leaf number.
    let stats = sim.stats();
    assert_eq!(stats.hits_by_gun.get(USER_GUN), Some(&4), "{stats:?}");
    let by_part = &stats.hits_by_part;
    assert!(by_part.get("raider/hull") >= Some(&4), "{by_part:?}");
    assert!(
        by_part
            .keys()
            .filter(|key| key.starts_with("raider"))
            .all(|key| key == "raider/hull"),
        "{by_part:?}"
    );
}

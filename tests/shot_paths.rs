//! The three ways `World::cast_thick` answers a shot give one answer.
//!
//! Locks, on random worlds (circles, points, capsules, boxes, turned boxes,
//! convex polygons and circle trees; sizes from centimetres to metres, some
//! bodies scaled, several colliders per body, sensors, filter groups, a few
//! huge static floors and walls) and random shots (rays and thick shots,
//! starting inside shapes, zero-length, axis-parallel, with a sub-range):
//! - the shot grid (`World::prepare_shot_grid`), the broadphase trees read
//!   through their flattened copies, and the trees read node by node return
//!   the same `Ok(hit)`: the same collider and body, and the same fraction,
//!   point and normal bit for bit;
//! - all three equal a brute-force cast over every collider with the
//!   documented rules (closest fraction, then smallest handle; touching
//!   counts; a shot starting inside hits at fraction 0), which is what the
//!   tree cast this replaced returned.

use circlet::broadphase::{FLATTEN_CASTS_PER_PROXY, FLATTEN_MIN_CASTS};
use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::cast::{Shot, cast};
use circlet::shape::{
    Aabb, Capsule, Circle, ConvexPolygon, OrientedRect, PartId, Point, Shape, TreeBuilder,
};
use circlet::world::{
    BodyDef, BodyHandle, ColliderDef, ColliderHandle, Filter, QueryFilter, SceneHit, World,
    WorldSettings,
};
use proptest::prelude::*;

/// A tiny deterministic generator for the bulk of a world (proptest draws
/// the seed and the shots).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: Real, hi: Real) -> Real {
        lo + (self.next() >> 40) as Real / (1u64 << 24) as Real * (hi - lo)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Side of the square the small colliders are scattered over (m).
const FIELD: Real = 24.0;

fn shape(mix: &mut Mix) -> Shape {
    // Mostly metre-sized, some tiny, some a few metres.
    let size = match mix.below(10) {
        0 => mix.range(0.03, 0.1),
        1 => mix.range(1.5, 3.0),
        _ => mix.range(0.2, 1.0),
    };
    match mix.below(9) {
        0..=2 => Circle::new(vec2(mix.range(-0.2, 0.2), 0.0), size)
            .unwrap()
            .into(),
        3 => Aabb::from_center(vec2(0.1, -0.1), vec2(size, size * mix.range(0.3, 1.0)))
            .unwrap()
            .into(),
        4 => OrientedRect::new(vec2(0.0, 0.0), vec2(size, size * 0.5), mix.range(0.0, 3.0))
            .unwrap()
            .into(),
        5 => ConvexPolygon::regular(3 + mix.below(6) as usize, size, mix.range(0.0, 1.0))
            .unwrap()
            .into(),
        6 => Capsule::new(vec2(-size, 0.0), vec2(size, 0.2), size * 0.3)
            .unwrap()
            .into(),
        7 => Point::new(vec2(0.0, 0.0)).unwrap().into(),
        _ => {
            // Building a tree (with its fit report) is slow: a few are built
            // once and shared.
            static TREES: std::sync::OnceLock<Vec<Shape>> = std::sync::OnceLock::new();
            let trees = TREES.get_or_init(|| {
                [0.05, 0.3, 0.7, 2.0]
                    .into_iter()
                    .map(|size: Real| {
                        let leaf = |x: Real, y: Real| TreeBuilder::node(vec2(x, y), size * 0.5);
                        let (tree, _) = TreeBuilder::node(vec2(0.0, 0.0), size * 2.0)
                            .children([
                                leaf(-size, 0.0),
                                leaf(size * 0.9, size * 0.1),
                                leaf(0.0, size),
                            ])
                            .build()
                            .unwrap();
                        Shape::Tree(std::sync::Arc::new(tree))
                    })
                    .collect()
            });
            trees[mix.below(trees.len() as u64) as usize].clone()
        }
    }
}

/// A world of 64 to 210 colliders with a few huge statics.
fn world(seed: u64) -> World {
    let mut mix = Mix(seed);
    let mut world = World::new(WorldSettings::default()).unwrap();
    let bodies = 64 + mix.below(40);
    for _ in 0..bodies {
        let at = vec2(mix.range(-FIELD, FIELD), mix.range(-FIELD, FIELD));
        let mut pose = Pose::new(at, mix.range(-3.0, 3.0));
        if mix.below(5) == 0 {
            pose = pose.with_scale(mix.range(0.5, 2.0));
        }
        let def = if mix.below(4) == 0 {
            BodyDef::fixed(pose)
        } else {
            BodyDef::dynamic(pose)
        };
        let body = world.add_body(def).unwrap();
        for _ in 0..1 + mix.below(2) {
            let local = Pose::new(vec2(mix.range(-1.0, 1.0), mix.range(-1.0, 1.0)), 0.3);
            let mut collider = ColliderDef::new(shape(&mut mix)).at(local);
            if mix.below(8) == 0 {
                collider = collider.sensor();
            }
            if mix.below(6) == 0 {
                collider = collider.with_filter(Filter {
                    groups: 2,
                    mask: u32::MAX,
                });
            }
            world.add_collider(body, collider).unwrap();
        }
    }
    // Huge statics: a floor, a wall, sometimes a slab through the field.
    for _ in 0..1 + mix.below(3) {
        let center = vec2(mix.range(-40.0, 40.0), mix.range(-40.0, 40.0));
        let half = if mix.below(2) == 0 {
            vec2(400.0, mix.range(1.0, 5.0))
        } else {
            vec2(mix.range(1.0, 5.0), 300.0)
        };
        let body = world
            .add_body(BodyDef::fixed(Pose::from_translation(center)))
            .unwrap();
        let floor = Aabb::from_center(Vec2::zeros(), half).unwrap();
        world.add_collider(body, ColliderDef::new(floor)).unwrap();
    }
    world
}

/// Shot parameters drawn by proptest: start kind, direction, length,
/// radius, range.
#[derive(Clone, Debug)]
struct ShotDraw {
    /// 0..: the centre of the collider with this index (mod count), so the
    /// shot starts inside (or in) a shape; `None`: anywhere.
    from_collider: Option<usize>,
    start: (Real, Real),
    /// 0: free, 1: along x, 2: along y, 3: zero length.
    kind: u8,
    angle: Real,
    length: Real,
    radius: Real,
    range: Option<(Real, Real)>,
}

fn shot_draw() -> impl Strategy<Value = ShotDraw> {
    (
        prop::option::weighted(0.4, 0usize..10_000),
        (-30.0..30.0f32, -30.0..30.0f32),
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
        0.0..std::f32::consts::TAU,
        prop_oneof![Just(0.0f32), 0.1..60.0f32],
        prop_oneof![2 => Just(0.0f32), 3 => 0.001..0.6f32],
        prop::option::weighted(0.15, (0.0..0.5f32, 0.5..1.0f32)),
    )
        .prop_map(
            |(from_collider, start, kind, angle, length, radius, range)| ShotDraw {
                from_collider,
                start,
                kind,
                angle,
                length,
                radius,
                range,
            },
        )
}

fn make_shot(world: &World, draw: &ShotDraw) -> Shot {
    let handles: Vec<ColliderHandle> = world.colliders().map(|(h, _)| h).collect();
    let start = match draw.from_collider {
        Some(i) => {
            world
                .collider_pose(handles[i % handles.len()])
                .unwrap()
                .translation
        }
        None => vec2(draw.start.0, draw.start.1),
    };
    let delta = match draw.kind {
        0 => vec2(draw.angle.cos(), draw.angle.sin()) * draw.length,
        1 => vec2(if draw.angle < 3.0 { 1.0 } else { -1.0 } * draw.length, 0.0),
        2 => vec2(0.0, if draw.angle < 3.0 { 1.0 } else { -1.0 } * draw.length),
        _ => Vec2::zeros(),
    };
    let shot = Shot::new(start, start + delta, draw.radius).unwrap();
    match draw.range {
        Some((lo, hi)) => shot.with_range(lo, hi).unwrap(),
        None => shot,
    }
}

fn filters(world: &World, pick: u8) -> QueryFilter {
    match pick % 4 {
        0 => QueryFilter::default(),
        1 => QueryFilter::default().with_sensors(),
        2 => QueryFilter::default()
            .with_filter(Filter {
                groups: u32::MAX,
                mask: 2,
            })
            .with_sensors(),
        _ => QueryFilter::excluding(world.bodies().nth(3).unwrap().0).with_sensors(),
    }
}

/// The closest hit over every collider, by the documented rules.
fn brute_force(world: &World, shot: &Shot, filter: &QueryFilter) -> Option<SceneHit> {
    let mut best: Option<SceneHit> = None;
    for (handle, collider) in world.colliders() {
        if (collider.is_sensor() && !filter.include_sensors)
            || Some(collider.body()) == filter.exclude_body
            || !filter.filter.allows(&collider.filter())
        {
            continue;
        }
        let pose = world.collider_pose(handle).unwrap();
        let Some(hit) = cast(shot, collider.shape(), &pose).unwrap() else {
            continue;
        };
        let better = best.is_none_or(|b| {
            hit.fraction
                .total_cmp(&b.fraction)
                .then(handle.cmp(&b.collider))
                .is_lt()
        });
        if better {
            best = Some(SceneHit {
                collider: handle,
                body: collider.body(),
                fraction: hit.fraction,
                point: hit.point,
                normal: hit.normal,
                part: hit.part,
            });
        }
    }
    best
}

/// The hit as exact bits, so `-0.0` and `0.0` (or any rounding) differ.
type HitBits = (ColliderHandle, BodyHandle, u32, [u32; 4], Option<PartId>);

fn bits(hit: Option<SceneHit>) -> Option<HitBits> {
    hit.map(|h| {
        (
            h.collider,
            h.body,
            h.fraction.to_bits(),
            [
                h.point.x.to_bits(),
                h.point.y.to_bits(),
                h.normal.x.to_bits(),
                h.normal.y.to_bits(),
            ],
            h.part,
        )
    })
}

/// Casts that flatten both trees of a world of `colliders` and stay below
/// what builds its shot grid (see `FLATTEN_CASTS_PER_PROXY` and
/// `GRID_CASTS_PER_COLLIDER`).
fn warm_casts(colliders: usize) -> usize {
    let casts = FLATTEN_MIN_CASTS + 2 + (colliders as Real * FLATTEN_CASTS_PER_PROXY) as usize;
    assert!(
        casts + 8 < colliders.max(64),
        "the warm-up would build the grid"
    );
    casts
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn grid_flattened_trees_and_tree_nodes_agree_with_brute_force(
        seed in any::<u64>(),
        draws in prop::collection::vec(shot_draw(), 6),
        pick in any::<u8>(),
    ) {
        let grid = world(seed);
        prop_assert!(grid.prepare_shot_grid(), "the world suits a grid");
        // The clones start without a grid or flattened trees.
        let nodes = grid.clone();
        let flat = grid.clone();
        let warm = Shot::new(vec2(-30.0, -30.0), vec2(30.0, 31.0), 0.1).unwrap();
        for _ in 0..warm_casts(grid.collider_count()) {
            flat.cast_thick(&warm, &QueryFilter::default()).unwrap();
        }
        let filter = filters(&grid, pick);
        for draw in &draws {
            let shot = make_shot(&grid, draw);
            let expected = brute_force(&grid, &shot, &filter);
            let by_grid = grid.cast_thick(&shot, &filter).unwrap();
            let by_nodes = nodes.cast_thick(&shot, &filter).unwrap();
            let by_flat = flat.cast_thick(&shot, &filter).unwrap();
            prop_assert_eq!(by_grid, expected);
            prop_assert_eq!(bits(by_grid), bits(expected), "grid {:?}", shot);
            prop_assert_eq!(bits(by_nodes), bits(expected), "nodes {:?}", shot);
            prop_assert_eq!(bits(by_flat), bits(expected), "flattened {:?}", shot);
        }
    }
}

#[test]
fn shots_inside_tie_to_the_smallest_handle_on_every_path() {
    // Three discs over one point: every path reports the first added.
    let mut world = World::new(WorldSettings::default()).unwrap();
    let mut handles = Vec::new();
    for i in 0..80 {
        let at = if i < 3 {
            vec2(0.0, 0.0)
        } else {
            vec2(3.0 + (i % 9) as Real * 2.0, (i / 9) as Real * 2.0)
        };
        let body = world
            .add_body(BodyDef::fixed(Pose::from_translation(at)))
            .unwrap();
        let disc = Circle::new(Vec2::zeros(), 0.5).unwrap();
        handles.push(world.add_collider(body, ColliderDef::new(disc)).unwrap());
    }
    let shot = Shot::new(vec2(0.1, 0.0), vec2(5.0, 0.0), 0.05).unwrap();
    let nodes = world.clone();
    assert!(world.prepare_shot_grid());
    for w in [&world, &nodes] {
        let hit = w
            .cast_thick(&shot, &QueryFilter::default())
            .unwrap()
            .unwrap();
        assert_eq!((hit.collider, hit.fraction), (handles[0], 0.0));
    }
}

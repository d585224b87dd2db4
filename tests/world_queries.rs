//! Scene queries on the world's broadphase.
//!
//! Locks:
//! - `cast_ray`, `cast_ray_all`, `cast_thick` and `cast_thick_all` agree
//!   with a brute-force cast over every collider (same colliders, same
//!   fractions, sorted by fraction then handle), in a pile of mixed shapes
//!   that has been stepped (moving and sleeping proxies alike);
//! - `overlap_point` and `overlap_aabb` agree with brute force;
//! - filters: groups and mask, an excluded body, sensors only on request;
//! - hits carry the collider, its body, point, normal and part.

use circlet::math::{Pose, Real, Vec2, vec2};
use circlet::query::cast::{Shot, cast};
use circlet::query::{intersects, point_inside};
use circlet::shape::{Aabb, Circle, Shape};
use circlet::world::scenes::{jitter, mixed_pile};
use circlet::world::{
    BodyDef, ColliderDef, ColliderHandle, Filter, QueryFilter, SceneHit, World, WorldSettings,
};

fn pile() -> World {
    let (mut world, _) = mixed_pile(WorldSettings::default(), 300).unwrap();
    for _ in 0..90 {
        world.step(1.0 / 60.0).unwrap();
    }
    world
}

fn brute_force_casts(
    world: &World,
    shot: &Shot,
    filter: &QueryFilter,
) -> Vec<(ColliderHandle, Real)> {
    let mut hits: Vec<(ColliderHandle, Real)> = world
        .colliders()
        .filter(|(_, c)| {
            (filter.include_sensors || !c.is_sensor())
                && Some(c.body()) != filter.exclude_body
                && filter.filter.allows(&c.filter())
        })
        .filter_map(|(handle, c)| {
            let pose = world.collider_pose(handle).unwrap();
            cast(shot, c.shape(), &pose)
                .unwrap()
                .map(|hit| (handle, hit.fraction))
        })
        .collect();
    hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    hits
}

fn shots() -> Vec<Shot> {
    (0..300)
        .map(|i| {
            let i = i as u32;
            let start = vec2(jitter(4 * i) * 60.0 - 30.0, jitter(4 * i + 1) * 40.0);
            let end = vec2(jitter(4 * i + 2) * 60.0 - 30.0, jitter(4 * i + 3) * 40.0);
            Shot::new(start, end, if i.is_multiple_of(2) { 0.0 } else { 0.1 }).unwrap()
        })
        .collect()
}

fn check_hit(world: &World, hit: &SceneHit) {
    let collider = world.collider(hit.collider).unwrap();
    assert_eq!(collider.body(), hit.body);
    assert!((hit.normal.norm() - 1.0).abs() < 1e-4);
    assert_eq!(hit.part, None);
}

#[test]
fn casts_agree_with_brute_force() {
    let world = pile();
    let filter = QueryFilter::default();
    let mut hit_count = 0;
    for shot in shots() {
        let expected = brute_force_casts(&world, &shot, &filter);
        let all = world.cast_thick_all(&shot, &filter).unwrap();
        let got: Vec<(ColliderHandle, Real)> =
            all.iter().map(|h| (h.collider, h.fraction)).collect();
        assert_eq!(got, expected);
        all.iter().for_each(|hit| check_hit(&world, hit));
        let closest = world.cast_thick(&shot, &filter).unwrap();
        assert_eq!(
            closest.map(|h| (h.collider, h.fraction)),
            expected.first().copied()
        );
        if shot.radius() == 0.0 {
            let ray = world.cast_ray(shot.start(), shot.delta(), &filter).unwrap();
            assert_eq!(ray, closest);
            let ray_all = world
                .cast_ray_all(shot.start(), shot.delta(), &filter)
                .unwrap();
            assert_eq!(ray_all, all);
        }
        hit_count += expected.len();
    }
    assert!(
        hit_count > 300,
        "only {hit_count} hits: the scene is too sparse to test"
    );
}

#[test]
fn overlaps_agree_with_brute_force() {
    let world = pile();
    let filter = QueryFilter::default();
    let mut found = 0;
    for i in 0..300u32 {
        let point = vec2(jitter(2 * i) * 60.0 - 30.0, jitter(2 * i + 1) * 20.0);
        let got: Vec<ColliderHandle> = world
            .overlap_point(point, &filter)
            .unwrap()
            .iter()
            .map(|o| o.collider)
            .collect();
        let mut expected: Vec<ColliderHandle> = world
            .colliders()
            .filter(|(h, c)| point_inside(c.shape(), &world.collider_pose(*h).unwrap(), point))
            .map(|(h, _)| h)
            .collect();
        expected.sort();
        assert_eq!(got, expected);
        found += got.len();

        let size = vec2(0.2 + jitter(3 * i) * 3.0, 0.2 + jitter(3 * i + 1) * 3.0);
        let aabb = Aabb::new(point, point + size).unwrap();
        let region = Shape::from(aabb);
        let got: Vec<ColliderHandle> = world
            .overlap_aabb(&aabb, &filter)
            .unwrap()
            .iter()
            .map(|o| o.collider)
            .collect();
        let mut expected: Vec<ColliderHandle> = world
            .colliders()
            .filter(|(h, c)| {
                intersects(
                    c.shape(),
                    &world.collider_pose(*h).unwrap(),
                    &region,
                    &Pose::IDENTITY,
                )
            })
            .map(|(h, _)| h)
            .collect();
        expected.sort();
        assert_eq!(got, expected);
        found += got.len();
    }
    assert!(found > 100, "only {found} overlaps found");
}

#[test]
fn filters_select_what_a_query_sees() {
    let mut world = World::new(WorldSettings::default()).unwrap();
    let disc = |world: &mut World, x: Real, def: fn(ColliderDef) -> ColliderDef| {
        let body = world
            .add_body(BodyDef::fixed(Pose::from_translation(vec2(x, 0.0))))
            .unwrap();
        let collider = world
            .add_collider(
                body,
                def(ColliderDef::new(Circle::new(Vec2::zeros(), 0.5).unwrap())),
            )
            .unwrap();
        (body, collider)
    };
    let (near_body, near) = disc(&mut world, 2.0, |d| d);
    let (_, sensor) = disc(&mut world, 4.0, |d| d.sensor());
    let (_, grouped) = disc(&mut world, 6.0, |d| {
        d.with_filter(Filter {
            groups: 4,
            mask: u32::MAX,
        })
    });
    let (origin, translation) = (vec2(0.0, 0.0), vec2(10.0, 0.0));
    let seen = |filter: QueryFilter| -> Vec<ColliderHandle> {
        world
            .cast_ray_all(origin, translation, &filter)
            .unwrap()
            .iter()
            .map(|h| h.collider)
            .collect()
    };
    assert_eq!(seen(QueryFilter::default()), vec![near, grouped]);
    assert_eq!(
        seen(QueryFilter::default().with_sensors()),
        vec![near, sensor, grouped]
    );
    assert_eq!(seen(QueryFilter::excluding(near_body)), vec![grouped]);
    let not_four = Filter {
        groups: u32::MAX,
        mask: !4,
    };
    assert_eq!(
        seen(QueryFilter::default().with_filter(not_four)),
        vec![near]
    );
    let first = world
        .cast_ray(origin, translation, &QueryFilter::excluding(near_body))
        .unwrap()
        .unwrap();
    assert_eq!(first.collider, grouped);
    assert!((first.point - vec2(5.5, 0.0)).norm() < 1e-5);
    assert_eq!(first.normal, vec2(-1.0, 0.0));
    assert!((first.fraction - 0.55).abs() < 1e-6);
    let at_sensor = world
        .overlap_point(vec2(4.0, 0.2), &QueryFilter::default().with_sensors())
        .unwrap();
    assert_eq!(at_sensor.len(), 1);
    assert_eq!(at_sensor[0].collider, sensor);
    assert!(
        world
            .overlap_point(vec2(4.0, 0.2), &QueryFilter::default())
            .unwrap()
            .is_empty()
    );
}

//! The step's solver gives the same world whether it solves a batch's
//! eight lanes at once in AVX registers or four at a time in SSE ones
//! (`dynamics::WideContacts::use_avx`): a ball pit (round batches), a
//! pyramid of boxes (two-point batches) and a mixed pile (every kind of
//! batch) stepped both ways have the same state hash after every step.

use crate::math::Real;
use crate::world::scenes::{ball_pit, mixed_pile, pyramid};
use crate::world::{World, WorldSettings};

const DT: Real = 1.0 / 60.0;

/// Steps `world` and a copy that solves four lanes at a time for `steps`
/// steps, comparing their state hashes after each.
fn same_with_either_width(mut world: World, steps: usize, scene: &str) {
    let mut narrow = world.clone();
    let wide_on = world.scratch.wide.use_avx(true);
    assert!(!narrow.scratch.wide.use_avx(false));
    if !wide_on {
        // No AVX here: both worlds solve four lanes at a time.
        eprintln!("{scene}: this processor has no AVX, both widths are the same passes");
    }
    for step in 0..steps {
        world.step(DT).unwrap();
        narrow.step(DT).unwrap();
        assert_eq!(
            world.state_hash(),
            narrow.state_hash(),
            "{scene}, step {step}"
        );
        assert_eq!(world.events(), narrow.events(), "{scene}, step {step}");
    }
}

#[test]
fn a_ball_pit_steps_the_same_eight_or_four_lanes_at_a_time() {
    let (world, _) = ball_pit(WorldSettings::default(), 600, 0.5, 20.0).unwrap();
    same_with_either_width(world, 300, "ball pit");
}

#[test]
fn a_pyramid_steps_the_same_eight_or_four_lanes_at_a_time() {
    let settings = WorldSettings {
        sleeping: false,
        ..WorldSettings::default()
    };
    let (world, _) = pyramid(settings, 20, 1.0).unwrap();
    same_with_either_width(world, 300, "pyramid");
}

#[test]
fn a_mixed_pile_steps_the_same_eight_or_four_lanes_at_a_time() {
    let (world, _) = mixed_pile(WorldSettings::default(), 200).unwrap();
    same_with_either_width(world, 400, "mixed pile");
}

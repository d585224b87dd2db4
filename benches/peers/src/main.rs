//! Peer comparison: the same scenes in circlet and rapier2d, one thread
//! each, in one process, alternating (the stepping scenes side by side,
//! taking turns of a few steps); prints a table of medians and the ratio
//! circlet ÷ rapier2d.
//!
//! `cargo run --release -p circlet-peers -- [--scenes ballpit,pyramid,shots,trees,scaling,memory]
//! [--rounds N] [--quick] [--markdown]`
//!
//! `... -- time --engine circlet --scene pyramid --runs 5` times one engine
//! alone on one stepping scene (`--scene pit --bodies N`: a scaling row's
//! pit): the quiet view of a change, where the full table's alternation
//! doubles the time a run is exposed to a noisy machine.

mod circlet_engine;
mod engine;
mod measure;
mod mem;
mod rapier_engine;
mod report;
mod rng;
mod run;
mod scenes;
mod shots;

use clap::{Parser, Subcommand, ValueEnum};
use report::Report;
use run::{Layout, Plan};

/// Seed of the scenes and shots unless `--seed` says otherwise.
const SEED: u64 = 0x00c1_4c1e;

/// Body count of the memory comparison.
const MEM_BODIES: usize = 32_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SceneName {
    Ballpit,
    Pyramid,
    Shots,
    Trees,
    Scaling,
    Memory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LayoutName {
    Deep,
    Wide,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineName {
    Circlet,
    Rapier,
}

/// circlet vs rapier2d on the same scenes.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// Scenes to run, comma separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "ballpit,pyramid,shots,trees,scaling,memory"
    )]
    scenes: Vec<SceneName>,
    /// Rounds per scene (each runs both engines; the order swaps every round).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Smoke test: one round, 120 steps, 10,000 shots.
    #[arg(long)]
    quick: bool,
    /// Print the table as markdown.
    #[arg(long)]
    markdown: bool,
    /// Let bodies sleep in the scaling pits and the memory run (off by
    /// default: a small pit would sleep through the timed steps).
    #[arg(long)]
    scaling_sleeping: bool,
    /// How the scaling pits (and the memory run's) hold more balls: `wide`
    /// repeats the 1k pit side by side (the same pile at every size),
    /// `deep` keeps the 100 m box and 80 per row (at 32k the grid is still
    /// falling through the timed steps).
    #[arg(long, value_enum, default_value = "wide")]
    scaling_layout: LayoutName,
    /// Seed of the generated scenes and shots.
    #[arg(long, default_value_t = SEED)]
    seed: u64,
    /// rapier2d's contact recycling (its default, on; given before a
    /// subcommand): `off` collides every awake pair afresh each step, as
    /// circlet does.
    #[arg(long, value_enum, default_value = "on")]
    rapier_recycling: Switch,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Switch {
    On,
    Off,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Peak resident memory of one engine's ball pit (used by the table run).
    Mem {
        /// Which engine.
        #[arg(long, value_enum)]
        engine: EngineName,
        /// Number of balls.
        #[arg(long, default_value_t = MEM_BODIES)]
        bodies: usize,
        /// Steps to run.
        #[arg(long, default_value_t = 600)]
        steps: usize,
        /// Let bodies sleep.
        #[arg(long)]
        sleeping: bool,
        /// The pit's layout.
        #[arg(long, value_enum, default_value = "deep")]
        layout: LayoutName,
        /// Seed of the ball pit.
        #[arg(long, default_value_t = SEED)]
        seed: u64,
    },
    /// One engine alone on one stepping scene: each run's median ms/step
    /// of its last 300 steps, then the median of the runs.
    Time {
        /// Which engine.
        #[arg(long, value_enum)]
        engine: EngineName,
        /// Which scene.
        #[arg(long, value_enum)]
        scene: TimedScene,
        /// Runs of 600 steps each.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Seed of the scene.
        #[arg(long, default_value_t = SEED)]
        seed: u64,
        /// One run with the engine's step profile on, printing the median
        /// time of each stage of the step instead (rapier2d's needs the
        /// `rapier-profiler` feature).
        #[arg(long)]
        stages: bool,
        /// `pit` only: its number of balls.
        #[arg(long, default_value_t = 32_000)]
        bodies: usize,
        /// Fragment the heap first, as a long-running process's is: two
        /// million small allocations of 16 to 215 bytes, two in three of
        /// them freed again, the rest kept for the whole run.
        #[arg(long)]
        fragment_heap: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TimedScene {
    Ballpit,
    Pyramid,
    Trees,
    /// A scaling row's pit of `--bodies` balls, laid out and sleeping as
    /// `--scaling-layout` and `--scaling-sleeping` say (given before `time`).
    Pit,
}

/// Allocations that leave the heap fragmented (see `time --fragment-heap`):
/// the survivors, to keep until the runs end.
fn fragmented_heap() -> Vec<Box<[u8]>> {
    let mut rng = rng::SplitMix64::new(SEED);
    let mut kept: Vec<Box<[u8]>> = (0..2_000_000)
        .map(|_| vec![1u8; 16 + (rng.next_u64() % 200) as usize].into_boxed_slice())
        .collect();
    let mut count = 0;
    kept.retain(|_| {
        count += 1;
        count % 3 == 0
    });
    kept
}

fn layout_of(name: LayoutName) -> Layout {
    match name {
        LayoutName::Deep => Layout::Deep,
        LayoutName::Wide => Layout::Wide,
    }
}

/// The scene `time` runs: the table's scene of that name, or for `pit` a
/// scaling row's pit of `bodies` balls.
fn timed_scene(
    scene: TimedScene,
    pit: Layout,
    sleeping: bool,
    bodies: usize,
    seed: u64,
) -> scenes::SceneDef {
    match scene {
        TimedScene::Ballpit => scenes::ball_pit(5_000, true, seed),
        TimedScene::Pit => pit.pit(bodies, sleeping, seed),
        TimedScene::Pyramid => scenes::pyramid(100),
        TimedScene::Trees => scenes::trees(circlet_engine::union_mass(&scenes::hull_balls()), seed),
    }
}

fn main() {
    let cli = Cli::parse();
    rapier_engine::set_contact_recycling(cli.rapier_recycling == Switch::On);
    if let Some(Cmd::Time {
        engine,
        scene,
        runs,
        seed,
        stages,
        bodies,
        fragment_heap,
    }) = cli.command
    {
        // Kept until the runs are over.
        let _fragments = fragment_heap.then(fragmented_heap);
        let pit = layout_of(cli.scaling_layout);
        let scene = timed_scene(scene, pit, cli.scaling_sleeping, bodies, seed);
        let plan = Plan::full(runs.max(1), false, Layout::Wide, seed);
        if stages {
            match engine {
                EngineName::Circlet => run::stages_alone(&plan, &scene),
                #[cfg(feature = "rapier-profiler")]
                EngineName::Rapier => run::rapier_stages_alone(&plan, &scene),
                #[cfg(not(feature = "rapier-profiler"))]
                EngineName::Rapier => {
                    eprintln!(
                        "--stages with --engine rapier reads rapier2d's own stage timers: \
                         build with --features rapier-profiler"
                    );
                    std::process::exit(2);
                }
            }
            return;
        }
        match engine {
            EngineName::Circlet => run::time_alone::<circlet_engine::Circlet>(&plan, &scene),
            EngineName::Rapier => run::time_alone::<rapier_engine::Rapier>(&plan, &scene),
        }
        return;
    }
    if let Some(Cmd::Mem {
        engine,
        bodies,
        steps,
        sleeping,
        layout,
        seed,
    }) = cli.command
    {
        let name = match engine {
            EngineName::Circlet => "circlet",
            EngineName::Rapier => "rapier",
        };
        let scene = layout_of(layout).pit(bodies, sleeping, seed);
        println!("{}", mem::measure(name, scene, steps).line());
        return;
    }
    let layout = layout_of(cli.scaling_layout);
    let plan = if cli.quick {
        Plan::quick(cli.scaling_sleeping, layout, cli.seed)
    } else {
        Plan::full(cli.rounds.max(1), cli.scaling_sleeping, layout, cli.seed)
    };
    let load_before = measure::load_average();
    let wants = |s: SceneName| cli.scenes.contains(&s);
    let mut report = Report::default();
    let mut pile = None;
    if wants(SceneName::Ballpit) {
        pile = Some(run::ballpit(&plan, &mut report));
    }
    if wants(SceneName::Pyramid) {
        run::pyramid(&plan, &mut report);
    }
    if wants(SceneName::Shots) {
        let pile = pile.unwrap_or_else(|| {
            eprintln!("shots: settling the ball pit in circlet");
            let scene = scenes::ball_pit(5_000, true, plan.seed);
            run::run_steps::<circlet_engine::Circlet>(&scene, plan.steps, 1, &[]).last
        });
        shots::run(&plan, &mut report, &pile);
    }
    if wants(SceneName::Trees) {
        run::trees(&plan, &mut report);
    }
    if wants(SceneName::Scaling) {
        run::scaling(&plan, &mut report);
    }
    if wants(SceneName::Memory) {
        mem::memory(&plan, &mut report, MEM_BODIES);
    }
    let header = vec![
        format!(
            "circlet vs rapier2d {} ({}, no `parallel`), one thread each; circlet's lane solver {}",
            rapier2d::VERSION,
            if cfg!(feature = "rapier-simd8") {
                "features `simd8`: 8-lane SIMD"
            } else {
                "default features: 4-lane SIMD"
            },
            circlet_engine::lane_width(),
        ),
        format!(
            "rapier2d's integration parameters: its defaults{}",
            if rapier_engine::contact_recycling() {
                " (contact recycling on)"
            } else {
                ", but contact recycling off (`--rapier-recycling off`)"
            }
        ),
        format!(
            "machine: {}; 1-minute load average {} before and {} after the run; date {}",
            measure::machine(),
            load_before.map_or("n/a".to_string(), |l| format!("{l:.2}")),
            measure::load_average().map_or("n/a".to_string(), |l| format!("{l:.2}")),
            measure::today()
        ),
        format!(
            "{} round(s), {} steps per run, median ms/step of the last {}; dt 1/60, gravity -9.81, \
             friction {}, restitution {}, density {}; ratio = circlet ÷ rapier2d",
            plan.rounds,
            plan.steps,
            plan.measured,
            scenes::FRICTION,
            scenes::RESTITUTION,
            scenes::DENSITY
        ),
    ];
    print!("{}", report.render(&header, cli.markdown));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fragmented_heap_keeps_one_small_allocation_in_three() {
        let kept = fragmented_heap();
        assert_eq!(kept.len(), 2_000_000 / 3);
        assert!(kept.iter().all(|b| (16..216).contains(&b.len())));
        // Sizes spread over the whole range, not one size class.
        let (least, most) = kept.iter().fold((usize::MAX, 0), |(l, m), b| {
            (l.min(b.len()), m.max(b.len()))
        });
        assert!(least < 20 && most > 210, "{least}..{most}");
        let cli = Cli::try_parse_from([
            "circlet-peers",
            "time",
            "--engine",
            "circlet",
            "--scene",
            "pit",
            "--fragment-heap",
        ])
        .expect("a valid command line");
        assert!(matches!(
            cli.command,
            Some(Cmd::Time {
                fragment_heap: true,
                ..
            })
        ));
    }

    #[test]
    fn rapier_recycling_is_on_unless_turned_off() {
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("circlet-peers").chain(args.iter().copied()))
                .expect("a valid command line")
                .rapier_recycling
        };
        assert_eq!(parse(&[]), Switch::On);
        assert_eq!(
            parse(&["--rapier-recycling", "off", "--quick"]),
            Switch::Off
        );
        assert_eq!(
            parse(&[
                "--rapier-recycling",
                "off",
                "time",
                "--engine",
                "rapier",
                "--scene",
                "trees"
            ]),
            Switch::Off
        );
        assert!(Cli::try_parse_from(["circlet-peers", "--rapier-recycling", "maybe"]).is_err());
    }

    #[test]
    fn time_runs_a_scaling_pit_of_the_asked_size() {
        let cli = Cli::try_parse_from([
            "circlet-peers",
            "--scaling-layout",
            "deep",
            "time",
            "--engine",
            "circlet",
            "--scene",
            "pit",
            "--bodies",
            "2000",
        ])
        .expect("a valid command line");
        let Some(Cmd::Time {
            scene,
            bodies,
            seed,
            ..
        }) = cli.command
        else {
            panic!("parsed as the time subcommand");
        };
        let pit = layout_of(cli.scaling_layout);
        let def = timed_scene(scene, pit, cli.scaling_sleeping, bodies, seed);
        assert_eq!(def.dynamic_count(), 2_000);
        assert_eq!(def, pit.pit(2_000, false, SEED));
        assert_eq!(pit, Layout::Deep);
    }
}

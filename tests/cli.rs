//! The `circlet` command line.
//!
//! Locks:
//! - exit codes: 0 success, 1 a scene with problems, 2 a usage error;
//! - `check` lists every problem with `file:line:column` and takes scene
//!   files or built-in names; built-in scenes carry their mask images, a
//!   scene file finds its own beside it;
//! - `run` prints a summary, writes the PNG (and one every K steps) and a
//!   JSON summary with hits by body, part and gun; no progress bar off a
//!   terminal; `--tree-depth N` (with `--png`) draws circle trees at that
//!   level;
//! - `run` on `scenes/shooter.ron` for 600 steps reports hits on at least
//!   three named parts of its circle-tree ships, and ends with exactly the
//!   bodies the scene declares (shots are projectiles, not bodies);
//! - a reader that closes standard output early (`circlet run … | head`)
//!   ends the run quietly, with no panic;
//! - `view` without a display says how to get a window;
//! - `circlet` with no arguments and no display runs the showcase headless,
//!   writes a PNG and says how to get a window (needs contact manifolds).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn circlet(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_circlet"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the circlet binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("circlet-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn help_lists_the_commands_and_exits_0() {
    let out = circlet(&["--help"], &repo());
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for command in ["view", "run", "check"] {
        assert!(help.contains(command), "{help}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["frobnicate"][..],
        &["run", "scenes/showcase.ron"],
        &["run", "scenes/showcase.ron", "--steps", "ten"],
        &["run", "scenes/showcase.ron", "--steps", "5", "--every", "2"],
        &[
            "run",
            "scenes/showcase.ron",
            "--steps",
            "5",
            "--tree-depth",
            "1",
        ],
        &[
            "run",
            "scenes/showcase.ron",
            "--steps",
            "5",
            "--png",
            "x.png",
            "--tree-depth",
            "-1",
        ],
        &["check"],
    ] {
        let out = circlet(args, &repo());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn check_accepts_every_scene_file_and_built_in_name() {
    let out = circlet(
        &[
            "check",
            "scenes/showcase.ron",
            "scenes/shooter.ron",
            "scenes/minigolf.ron",
            "scenes/pyramid.ron",
            "scenes/ballpit.ron",
            "scenes/nordenfelt.ron",
            "scenes/tunnelling.ron",
            "scenes/polygons.ron",
            "showcase",
        ],
        &repo(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).matches(": ok (").count(), 9);
}

#[test]
fn built_in_scenes_carry_their_mask_images() {
    // Far from `scenes/`: nordenfelt's raider.png comes from the binary.
    let dir = scratch("built-in-images");
    let out = circlet(&["check", "nordenfelt"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("nordenfelt (built in): ok ("));
    // A copy of the file without its image names the missing image, located.
    let scene = std::fs::read_to_string(repo().join("scenes/nordenfelt.ron")).unwrap();
    std::fs::write(dir.join("copy.ron"), &scene).unwrap();
    let out = circlet(&["check", "copy.ron"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let errors = text(&out.stderr);
    let line = scene
        .lines()
        .position(|l| l.contains("path: \"raider.png\""))
        .unwrap()
        + 1;
    assert!(
        errors.contains(&format!(
            "copy.ron:{line}:37: bodies[4].colliders[0].shape.outline.path: \
             mask image `raider.png` not found (looked for `raider.png`)"
        )),
        "{errors}"
    );
}

#[test]
fn run_draws_circle_trees_at_the_depth_asked_for() {
    let dir = scratch("tree-depth");
    let picture = |depth: Option<&str>| {
        let mut args = vec![
            "run",
            "nordenfelt",
            "--steps",
            "1",
            "--png",
            "trees.png",
            "--width",
            "640",
            "--height",
            "360",
        ];
        if let Some(depth) = depth {
            args.extend(["--tree-depth", depth]);
        }
        let out = circlet(&args, &dir);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let png = std::fs::read(dir.join("trees.png")).unwrap();
        let pixmap = tiny_skia::Pixmap::decode_png(&png).unwrap();
        // Below the HUD (whose text names the depth): the bodies only.
        pixmap.data()[640 * 4 * 100..].to_vec()
    };
    let differing = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count();
    let leaves = picture(None);
    let root = picture(Some("0"));
    assert!(
        differing(&leaves, &root) > 4_000,
        "the envelopes are drawn at depth 0"
    );
    // Deeper than any tree: the leaves again, in their levels' colours.
    let deepest = picture(Some("200"));
    assert!(differing(&leaves, &deepest) > 1_000);
    assert!(differing(&root, &deepest) > 4_000);
}

#[test]
fn check_lists_every_problem_and_exits_1() {
    let dir = scratch("check");
    let bad = "(\n  bodies: [\n    (shape: Circle(radius: -1)),\n    (position: (NaN, 0), shape: Box(half_extents: (1, 1))),\n  ],\n  tile_maps: [(rows: [\"#?#\"])],\n)\n";
    std::fs::write(dir.join("bad.ron"), bad).unwrap();
    let out = circlet(&["check", "bad.ron"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let errors = text(&out.stderr);
    for expected in [
        "bad.ron:3:28: bodies[0].shape.radius: expected a number > 0, found -1",
        "bad.ron:4:17: bodies[1].position.x: expected a finite number, found NaN",
        "bad.ron:6:25: tile_maps[0].rows[0]: expected a tile character",
        "3 problems found",
    ] {
        assert!(
            errors.contains(expected),
            "{expected:?} missing from:\n{errors}"
        );
    }
    let out = circlet(&["check", "no-such-scene.ron"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("built-in scenes: showcase"));
}

#[test]
fn run_profile_prints_the_median_of_every_stage() {
    let out = circlet(&["run", "ballpit", "--steps", "60", "--profile"], &repo());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|line| line.starts_with("median step "))
        .unwrap_or_else(|| panic!("no profile line in {stdout}"));
    assert!(line.contains("over 60 steps"), "{line}");
    for stage in circlet::world::StepProfile::STAGE_NAMES {
        assert!(
            line.contains(&format!(" {stage} ")),
            "{stage} missing: {line}"
        );
    }
    // In the JSON summary too, and without the flag in neither.
    let dir = scratch("profile");
    let json = dir.join("profile.json");
    let json_arg = json.to_string_lossy().into_owned();
    for (profile, expected) in [(true, true), (false, false)] {
        let mut args = vec!["run", "ballpit", "--steps", "20", "--json", &json_arg];
        if profile {
            args.push("--profile");
        }
        let out = circlet(&args, &repo());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout).contains("median step"), expected);
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let medians = &summary["stage_medians_us"];
        assert_eq!(medians.is_object(), expected, "{summary}");
        if expected {
            for stage in [
                "step",
                "pairs",
                "setup",
                "contacts",
                "solve",
                "continuous",
                "islands",
            ] {
                assert!(
                    medians[stage].as_f64().is_some_and(|us| us >= 0.0),
                    "{stage}: {medians}"
                );
            }
        }
    }
}

#[test]
fn run_writes_a_summary_pictures_and_json() {
    let dir = scratch("run");
    // Nothing touches (no gravity, far apart), so this runs with or without
    // contact manifolds; the gun fires into empty space.
    let scene = "(settings: (gravity: (0, 0)),
        bodies: [
            (name: \"left\", position: (-5, 0), velocity: (0, 1), shape: Circle(radius: 1)),
            (name: \"right\", position: (5, 0), spin: 1, shape: Box(half_extents: (1, 1))),
        ],
        guns: [(name: \"gun\", position: (0, -5), aim: Angle(-1.57), rate: 10, speed: 20)],
    )";
    std::fs::write(dir.join("calm.ron"), scene).unwrap();
    let out = circlet(
        &[
            "run",
            "calm.ron",
            "--steps",
            "120",
            "--png",
            "calm.png",
            "--every",
            "60",
            "--json",
            "calm.json",
            "--width",
            "320",
            "--height",
            "200",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary = text(&out.stdout);
    assert!(summary.contains("calm: 120 steps"), "{summary}");
    assert!(summary.contains("steps/s"), "{summary}");
    assert!(summary.contains("bodies "), "{summary}");
    assert!(summary.contains("state hash 0x"), "{summary}");
    assert!(
        !text(&out.stderr).contains("steps  "),
        "no progress bar off a terminal"
    );
    for png in ["calm.png", "calm-000060.png", "calm-000120.png"] {
        let bytes = std::fs::read(dir.join(png)).unwrap_or_else(|_| panic!("{png} written"));
        assert_eq!(&bytes[1..4], b"PNG");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("calm.json")).unwrap()).unwrap();
    assert_eq!(json["steps"], 120);
    assert_eq!(json["scene"], "calm");
    assert_eq!(json["finite"], true);
    assert!(json["shots"].as_u64().unwrap() >= 19, "{json}");
    assert!(json["bodies"].as_u64().unwrap() >= 2);
    assert!(json["hits_by_body"].is_object());
    assert!(json["hits_by_part"].is_object());
    assert!(json["hits_by_gun"].is_object());
    assert!(json["shots_in_flight"].as_u64().unwrap() >= 1, "{json}");
    assert!(json["state_hash"].as_str().unwrap().starts_with("0x"));
    // The same run twice gives the same hash.
    let again = circlet(
        &["run", "calm.ron", "--steps", "120", "--json", "again.json"],
        &dir,
    );
    assert_eq!(again.status.code(), Some(0));
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("again.json")).unwrap()).unwrap();
    assert_eq!(again["state_hash"], json["state_hash"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_on_the_shooter_reports_hits_on_several_named_parts() {
    let dir = scratch("shooter");
    let scene = repo().join("scenes/shooter.ron");
    let out = circlet(
        &[
            "run",
            scene.to_str().unwrap(),
            "--steps",
            "600",
            "--png",
            "out.png",
            "--json",
            "out.json",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out.json")).unwrap()).unwrap();
    let by_part = json["hits_by_part"].as_object().unwrap();
    // Keys are `body/part` for named parts, the body's name otherwise.
    let parts: std::collections::BTreeSet<&str> = by_part
        .keys()
        .filter_map(|key| key.split_once('/').map(|(_, part)| part))
        .collect();
    assert!(parts.len() >= 3, "three named parts or more: {by_part:?}");
    let ships = ["cruiser/", "frigate/", "scout/"];
    assert!(
        ships
            .iter()
            .filter(|ship| by_part.keys().any(|k| k.starts_with(**ship)))
            .count()
            >= 2,
        "two ships or more hit by part: {by_part:?}"
    );
    let total = |field: &str| -> u64 {
        json[field]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum()
    };
    let hits = json["hits"].as_u64().unwrap();
    assert!(hits > 0);
    for field in ["hits_by_body", "hits_by_part", "hits_by_gun"] {
        assert_eq!(total(field), hits, "{field}");
    }
    // No shot became a body: the world holds what the scene declares.
    let declared = circlet::scene::Scene::load(&scene)
        .unwrap()
        .world
        .body_count();
    assert_eq!(json["bodies"].as_u64().unwrap(), declared as u64);
    let bytes = std::fs::read(dir.join("out.png")).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_closed_standard_output_is_no_panic() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_circlet"))
        .args(["run", "ballpit", "--steps", "60"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the circlet binary runs");
    // The reader goes away before the summary is printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("circlet ends");
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}

#[test]
fn run_refuses_a_scene_with_problems() {
    let dir = scratch("run-bad");
    std::fs::write(
        dir.join("bad.ron"),
        "(bodies: [(shape: Circle(radius: 0))])",
    )
    .unwrap();
    let out = circlet(&["run", "bad.ron", "--steps", "10"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("bad.ron:1:34: bodies[0].shape.radius"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "viewer")]
#[test]
fn view_without_a_display_says_how_to_get_a_window() {
    let out = circlet(&["view", "scenes/showcase.ron", "--frames", "1"], &repo());
    assert_eq!(out.status.code(), Some(1));
    let errors = text(&out.stderr);
    assert!(errors.contains("no display"), "{errors}");
    assert!(errors.contains("xvfb-run"), "{errors}");
}

#[test]
fn no_arguments_without_a_display_runs_the_showcase_headless() {
    let dir = scratch("default");
    let out = circlet(&[], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("circlet-showcase.png"), "{said}");
    assert!(said.contains("xvfb-run"), "{said}");
    let bytes = std::fs::read(dir.join("circlet-showcase.png")).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let _ = std::fs::remove_dir_all(&dir);
}

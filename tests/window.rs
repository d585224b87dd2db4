//! The real window, under a real X display (CI runs the tests under
//! `xvfb-run`; without a display this test says so and passes).
//!
//! Locks: `circlet view scenes/showcase.ron --frames 120 --screenshot FILE`
//! opens a window, runs 120 frames, closes by itself and saves a screenshot
//! that is not blank and shows bodies in their colours.
//!
//! Built only with the `viewer` feature (the window and its command).
#![cfg(feature = "viewer")]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long the window may take for 120 frames (about 2 s at 60 fps).
const DEADLINE: Duration = Duration::from_secs(120);

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}

/// Strongly coloured pixels (saturated, not background or grey HUD text),
/// counted per hue sextant.
fn coloured_pixels(png: &[u8]) -> (usize, [usize; 6], usize) {
    let pixmap = tiny_skia::Pixmap::decode_png(png).expect("a PNG");
    let mut by_hue = [0usize; 6];
    let mut total = 0;
    for p in pixmap.pixels() {
        let p = p.demultiply();
        let (r, g, b) = (p.red() as i32, p.green() as i32, p.blue() as i32);
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        if max < 50 || max - min < 35 {
            continue;
        }
        total += 1;
        let sextant = if max == r {
            if g >= b { 0 } else { 5 }
        } else if max == g {
            if b >= r { 2 } else { 1 }
        } else if r >= g {
            4
        } else {
            3
        };
        by_hue[sextant] += 1;
    }
    (total, by_hue, (pixmap.width() * pixmap.height()) as usize)
}

#[test]
fn the_window_shows_the_showcase_and_saves_a_screenshot() {
    if !has_display() {
        // CI installs Xvfb and runs the tests under it: there, no display is a failure.
        assert!(
            std::env::var_os("CI").is_none(),
            "no display under CI: .ci/run must run the tests under xvfb-run"
        );
        eprintln!(
            "SKIPPED: no display (DISPLAY and WAYLAND_DISPLAY are unset); \
             run the tests under `xvfb-run -a cargo test` to open the window"
        );
        return;
    }
    let shot: PathBuf =
        std::env::temp_dir().join(format!("circlet-window-{}.png", std::process::id()));
    let _ = std::fs::remove_file(&shot);
    let mut child = Command::new(env!("CARGO_BIN_EXE_circlet"))
        .args([
            "view",
            "scenes/showcase.ron",
            "--frames",
            "120",
            "--screenshot",
        ])
        .arg(&shot)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the circlet binary starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("the window did not close by itself within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output().expect("output");
    assert!(
        status.success(),
        "circlet view failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let png = std::fs::read(&shot).expect("the screenshot was written");
    let (coloured, by_hue, total) = coloured_pixels(&png);
    // Bodies cover over 1 % of the frame (a blank frame or the HUD alone
    // has none of these pixels), in several palette hues.
    assert!(
        coloured * 100 > total,
        "only {coloured} of {total} pixels show bodies"
    );
    let hues = by_hue.iter().filter(|&&n| n > 200).count();
    assert!(hues >= 3, "bodies in too few colours: {by_hue:?}");
    let _ = std::fs::remove_file(&shot);
}

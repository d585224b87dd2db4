//! Prints the fit quality of the circle-tree builders (the tables of
//! `docs/fit_report.md`): for each sample outline and relative bound ε, the
//! leaf count, worst and mean leaf overhang, coverage and depth, then every
//! level of every fit (node count, worst and mean overhang, coverage, area).
//!
//! Run with `cargo run --release --example fit_report`; pass `--summary` to
//! print the first table only.

use circlet::shape::circle_tree::samples;
use circlet::shape::{CircleTree, FitOptions, FitReport, Shape, TreeError};
use std::time::Instant;

const EPSILONS: [f32; 4] = [0.1, 0.05, 0.02, 0.01];

fn main() -> Result<(), TreeError> {
    let levels = !std::env::args().any(|a| a == "--summary");
    type Fit = Box<dyn Fn(&FitOptions) -> Result<(CircleTree, FitReport), TreeError>>;
    let outlines: Vec<(&str, f32, Fit)> = vec![
        (
            "unit disc (256-gon)",
            1.0,
            Box::new(|o| CircleTree::fit_convex_polygon(&samples::unit_disc(), o)),
        ),
        (
            "ellipse 2:1 (256-gon)",
            1.0,
            Box::new(|o| CircleTree::fit_convex_polygon(&samples::ellipse(), o)),
        ),
        (
            "capsule 3:1",
            1.5,
            Box::new(|o| CircleTree::fit_shape(&Shape::Capsule(samples::capsule()), o)),
        ),
        (
            "bar 4:1",
            2.0,
            Box::new(|o| CircleTree::fit_aabb(&samples::bar(), o)),
        ),
        (
            "L-shape",
            1.0,
            Box::new(|o| CircleTree::fit_simple_polygon(&samples::l_shape(), o)),
        ),
        (
            "star (5 points)",
            1.0,
            Box::new(|o| CircleTree::fit_simple_polygon(&samples::star(), o)),
        ),
        (
            "ship sprite 256x128",
            1.0,
            Box::new(|o| CircleTree::fit_mask(&samples::ship_mask(256), o)),
        ),
    ];
    println!(
        "ε is relative to the outline's size (half the larger bounding-box side); overhangs are in units of that size.\n"
    );
    println!(
        "| outline | ε | leaves | growth per halving of ε | worst overhang | mean overhang | coverage | depth | fit time |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut details = Vec::new();
    for (name, size, fit) in &outlines {
        let mut previous: Option<(f32, usize)> = None;
        for epsilon in EPSILONS {
            let start = Instant::now();
            let (tree, report) = fit(&FitOptions::new(epsilon * size))?;
            let elapsed = start.elapsed();
            let leaf = report
                .leaf_level()
                .cloned()
                .unwrap_or_else(|| unreachable!());
            // Leaves ∝ ε^-k between two rows; halving ε then costs 2^k.
            let growth = previous.map_or(String::new(), |(e, n)| {
                let k =
                    (report.leaf_count as f64 / n as f64).ln() / (e as f64 / epsilon as f64).ln();
                format!("{:.2}x", 2f64.powf(k))
            });
            println!(
                "| {name} | {epsilon} | {} | {growth} | {:.4} | {:.4} | {:.4} | {} | {:.1} ms |",
                report.leaf_count,
                leaf.worst_overhang / size,
                leaf.mean_overhang / size,
                leaf.coverage,
                tree.depth(),
                elapsed.as_secs_f64() * 1e3,
            );
            previous = Some((epsilon, report.leaf_count));
            details.push((name.to_string(), epsilon, report));
        }
    }
    if levels {
        println!("\nPer level (the cut at each depth); overhangs in local units.");
        for (name, epsilon, report) in details {
            println!("\n### {name}, ε = {epsilon}\n\n{report}");
        }
    }
    Ok(())
}

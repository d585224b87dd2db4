//! Fuzz-style robustness of the scene loader and the renderer.
//!
//! Locks: 2,400 random mutations of the valid scenes (byte flips, cuts,
//! duplications, swapped lines, inserted RON tokens, NaN, huge and negative
//! numbers, other mask images) each give a scene or a list of problems with
//! a place in the file, never a panic; every scene that does load also
//! draws a frame without panicking. The scenes' mask images are read from
//! `scenes/`, as when the files themselves are loaded; mutations of a mask
//! path, and mask paths naming other files (text, a directory, a PNG too
//! large to be a mask), each give one located image problem.

use circlet::render::{Canvas, Overlays, draw_world, fit_world};
use circlet::scene::{ImageSource, ProblemKind, Scene};

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

const MUTATIONS: usize = 2_400;

/// Tokens spliced into scenes: RON syntax, bad numbers, shapes, names.
const TOKENS: [&str; 35] = [
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "'",
    "NaN",
    "inf",
    "-inf",
    "-1",
    "0",
    "1e39",
    "-0.0",
    "4294967296",
    "0xFFFFFFFF",
    "Some(",
    "None",
    "//",
    "/*",
    "r#\"",
    "Circle(radius: 1)",
    "Regular(sides: 4000000000, radius: 1)",
    "Target(\"nobody\")",
    "rows: [\"#LJF7x\"]",
    "kind: Static",
    "pulse: (amplitude: 2, period: 0)",
    "name: \"ground\"",
    "é",
    "FittedTree(outline: Mask(path: \"raider.png\", pixel_size: 0.05), epsilon: 0.1)",
    "Mask(path: \"raider.png\", pixel_size: 0.1)",
    "../",
];

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 if !bytes.is_empty() => {
                let i = at.min(bytes.len() - 1);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => {
                let end = (at + 1 + rng.below(40)).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            2 => {
                let end = (at + 1 + rng.below(60)).min(bytes.len());
                let copy: Vec<u8> = bytes[at.min(end)..end].to_vec();
                let to = rng.below(bytes.len() + 1);
                bytes.splice(to..to, copy);
            }
            3 => {
                let lines: Vec<&str> = std::str::from_utf8(&bytes).unwrap_or("").lines().collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    lines.swap(a, b);
                    bytes = lines.join("\n").into_bytes();
                }
            }
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_scenes_give_problems_never_panics() {
    let texts: Vec<String> = SCENES
        .iter()
        .map(|name| {
            std::fs::read_to_string(format!("{}/scenes/{name}.ron", env!("CARGO_MANIFEST_DIR")))
                .unwrap()
        })
        .collect();
    let images = ImageSource::Dir(scenes_dir());
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut canvas = Canvas::new(64, 48).unwrap();
    let (mut loaded, mut refused) = (0, 0);
    for round in 0..MUTATIONS {
        let text = mutate(&texts[round % texts.len()], &mut rng);
        let outcome = std::panic::catch_unwind(|| Scene::from_str_with(&text, "fuzz.ron", &images));
        let result = match outcome {
            Ok(result) => result,
            Err(_) => panic!("round {round}: the loader panicked on:\n{text}"),
        };
        match result {
            Ok(scene) => {
                loaded += 1;
                assert!(scene.world.is_finite(), "round {round}");
                fit_world(canvas.camera_mut(), &scene.world);
                canvas.clear();
                draw_world(&mut canvas, &scene.world, &Overlays::default());
            }
            Err(error) => {
                refused += 1;
                let problems = error.problems();
                assert!(!problems.is_empty(), "round {round}: {error}");
                for problem in problems {
                    assert!(problem.location.line >= 1, "round {round}: {problem}");
                    assert!(problem.location.column >= 1, "round {round}: {problem}");
                    assert!(!problem.message.is_empty(), "round {round}");
                }
            }
        }
    }
    // Both outcomes are exercised.
    assert!(
        loaded > 100 && refused > 1000,
        "loaded {loaded}, refused {refused}"
    );
}

fn scenes_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

#[test]
fn mutated_mask_paths_give_one_image_problem_never_panics() {
    let text = std::fs::read_to_string(scenes_dir().join("nordenfelt.ron")).unwrap();
    let written = "\"raider.png\"";
    let at = text.find(written).expect("nordenfelt names its mask image");
    let images = ImageSource::Dir(scenes_dir());
    let mut paths: Vec<String> = vec![
        String::new(),
        " ".into(),
        ".".into(),
        "/".into(),
        "..".into(),
        "raider.png/".into(),
        "nordenfelt.ron".into(),
        "../Cargo.toml".into(),
        "../docs/screenshot.png".into(),
        "../scenes".into(),
        "raider.png\\u{0}".into(),
        "é.png".into(),
    ];
    let mut rng = Rng(0x6a5c_0000_0000_0001);
    for _ in 0..60 {
        let mut bytes = b"raider.png".to_vec();
        let i = rng.below(bytes.len());
        bytes[i] = b"abcxyz./_-~"[rng.below(11)];
        paths.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    let mut problems_seen = 0;
    for path in &paths {
        let mutated = format!("{}\"{path}\"{}", &text[..at], &text[at + written.len()..]);
        let outcome =
            std::panic::catch_unwind(|| Scene::from_str_with(&mutated, "fuzz.ron", &images));
        let Ok(result) = outcome else {
            panic!("the loader panicked on mask path {path:?}");
        };
        if path == "raider.png" {
            assert!(result.is_ok(), "{path:?}");
            continue;
        }
        let error = result.expect_err(path);
        let problems = error.problems();
        assert_eq!(problems.len(), 1, "{path:?}: {error}");
        let problem = &problems[0];
        assert_eq!(problem.kind, ProblemKind::BadImage, "{problem}");
        assert!(problem.field.ends_with("shape.outline.path"), "{problem}");
        assert!(problem.location.line > 1, "{problem}");
        problems_seen += 1;
    }
    assert!(problems_seen >= 60, "{problems_seen}");
}

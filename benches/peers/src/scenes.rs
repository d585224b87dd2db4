//! The scenes of the comparison as plain data, written once and built by
//! both engines' adapters: shapes, bodies, material, sleeping, time step and
//! gravity. Units are metres, seconds and kilograms; positions are world
//! coordinates of each body's origin.

use crate::rng::SplitMix64;

/// Time step of every scene (s).
pub const DT: f32 = 1.0 / 60.0;
/// Gravity of every scene (m/s², world).
pub const GRAVITY: [f32; 2] = [0.0, -9.81];
/// Coulomb friction of every collider in both engines (circlet's default).
pub const FRICTION: f32 = 0.6;
/// Restitution of every collider: no bounce.
pub const RESTITUTION: f32 = 0.0;
/// Mass per area of every collider (kg/m²), both engines' default.
pub const DENSITY: f32 = 1.0;
/// Thickness of the floor and walls (m).
pub const WALL: f32 = 1.0;

/// Inner width of the ball-pit and tree box (m).
pub const PIT_WIDTH: f32 = 100.0;
/// Wall height of the ball-pit and tree box (m), raised only for a grid
/// that starts taller than this.
pub const PIT_WALL_HEIGHT: f32 = 200.0;
/// Balls per grid row in every ball pit.
pub const PIT_PER_ROW: usize = 80;
/// Distance between grid points of a ball pit (m).
pub const PIT_SPACING: f32 = 1.2;
/// Ball radius of every ball pit (m).
pub const PIT_RADIUS: f32 = 0.5;
/// Largest sideways offset of a grid point (m): breaks the columns' symmetry.
pub const PIT_JITTER: f32 = 0.05;
/// Gap between the floor and the lowest row at the start (m).
pub const PIT_FLOOR_GAP: f32 = 0.1;
/// Headroom kept between the top of a grid and the top of the walls (m).
pub const PIT_HEADROOM: f32 = 5.0;

/// Bodies in the `trees` scene.
pub const TREE_BODIES: usize = 1_000;
/// Tree bodies per grid row: 28 hulls of 3 m fit the 100 m box with room.
pub const TREE_PER_ROW: usize = 28;
/// Grid spacing of the tree bodies (m, x then y).
pub const TREE_SPACING: [f32; 2] = [3.5, 1.6];
/// Largest initial turn of a tree body (rad), either way.
pub const TREE_MAX_ANGLE: f32 = 0.15;

/// One ball of a compound (body frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallDef {
    /// Centre (m, body frame).
    pub offset: [f32; 2],
    /// Radius (m).
    pub radius: f32,
}

/// Mass properties per unit density (body frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitMass {
    /// Area (m²): the mass at density 1.
    pub area: f32,
    /// Centre of mass (m, body frame).
    pub centroid: [f32; 2],
    /// Polar moment of inertia about the centroid at density 1 (m⁴).
    pub inertia: f32,
}

/// A collision shape, in the body frame.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeDef {
    /// A disc of this radius (m) centred on the body origin.
    Circle(f32),
    /// A box of these half extents (m) centred on the body origin.
    Box([f32; 2]),
    /// A union of balls, listed group by group (four consecutive balls form
    /// one node of the two-level circle tree circlet builds). Both engines
    /// get `mass`: a compound of overlapping balls would otherwise count the
    /// overlaps twice in one engine and once in the other.
    Balls {
        /// The leaf balls.
        balls: Vec<BallDef>,
        /// Mass properties of the union of the balls, per unit density.
        mass: UnitMass,
    },
}

/// A body: which shape (an index into [`SceneDef::shapes`]), where, and
/// whether it moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyDef {
    /// Index of the shape in [`SceneDef::shapes`].
    pub shape: usize,
    /// Position of the body origin (m, world).
    pub pos: [f32; 2],
    /// Counter-clockwise turn (rad).
    pub angle: f32,
    /// Moves under gravity and contacts; otherwise static.
    pub dynamic: bool,
}

/// Everything both engines need to build one scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneDef {
    /// Shapes shared by the bodies (each built once per engine).
    pub shapes: Vec<ShapeDef>,
    /// Bodies, static ones first.
    pub bodies: Vec<BodyDef>,
    /// Friction of every collider.
    pub friction: f32,
    /// Restitution of every collider.
    pub restitution: f32,
    /// Density of every collider (kg/m²); [`ShapeDef::Balls`] scale their unit mass by it.
    pub density: f32,
    /// Whether bodies may fall asleep.
    pub sleeping: bool,
    /// Time step (s).
    pub dt: f32,
    /// Gravity (m/s², world).
    pub gravity: [f32; 2],
    /// The inside of the container (`[min_x, min_y, max_x, max_y]`, m):
    /// dynamic bodies found outside it at the end have escaped.
    pub container: [f32; 4],
}

impl SceneDef {
    fn empty(sleeping: bool, container: [f32; 4]) -> SceneDef {
        SceneDef {
            shapes: Vec::new(),
            bodies: Vec::new(),
            friction: FRICTION,
            restitution: RESTITUTION,
            density: DENSITY,
            sleeping,
            dt: DT,
            gravity: GRAVITY,
            container,
        }
    }

    /// Number of dynamic bodies.
    pub fn dynamic_count(&self) -> usize {
        self.bodies.iter().filter(|b| b.dynamic).count()
    }

    /// Initial positions of the dynamic bodies, in order.
    pub fn dynamic_positions(&self) -> Vec<[f32; 2]> {
        self.bodies
            .iter()
            .filter(|b| b.dynamic)
            .map(|b| b.pos)
            .collect()
    }

    /// Adds a shape and returns its index.
    fn shape(&mut self, shape: ShapeDef) -> usize {
        self.shapes.push(shape);
        self.shapes.len() - 1
    }

    /// Adds a static box from `min` to `max` (world).
    fn static_box(&mut self, min: [f32; 2], max: [f32; 2]) {
        let half = [(max[0] - min[0]) * 0.5, (max[1] - min[1]) * 0.5];
        let shape = self.shape(ShapeDef::Box(half));
        self.bodies.push(BodyDef {
            shape,
            pos: [min[0] + half[0], min[1] + half[1]],
            angle: 0.0,
            dynamic: false,
        });
    }

    /// A floor and two walls around `[-half_width, half_width] × [0, height]`.
    fn open_box(&mut self, half_width: f32, height: f32) {
        let (w, t) = (half_width, WALL);
        self.static_box([-w - t, -t], [w + t, 0.0]);
        self.static_box([-w - t, 0.0], [-w, height]);
        self.static_box([w, 0.0], [w + t, height]);
    }
}

/// Wall height for a grid whose top row is at `top` (m).
fn wall_height(top: f32) -> f32 {
    PIT_WALL_HEIGHT.max(top + PIT_HEADROOM)
}

/// `count` balls of radius 0.5 on a jittered grid (80 per row, spacing
/// 1.2, centred) dropped into a static box 100 m wide with walls 200 m tall
/// (taller only if the grid is).
pub fn ball_pit(count: usize, sleeping: bool, seed: u64) -> SceneDef {
    ball_pit_in(count, PIT_PER_ROW, PIT_WIDTH, sleeping, seed)
}

/// Bodies of the pit that [`ball_pit_wide`] repeats side by side.
pub const WIDE_UNIT: usize = 1_000;

/// The 1,000-ball pit repeated side by side: 80 balls per row and 100 m of
/// box width per 1,000 balls, so the pile is as deep at any count and each
/// ball sees the same neighbourhood; only the number of balls grows.
pub fn ball_pit_wide(count: usize, sleeping: bool, seed: u64) -> SceneDef {
    let units = count.div_ceil(WIDE_UNIT).max(1);
    ball_pit_in(
        count,
        PIT_PER_ROW * units,
        PIT_WIDTH * units as f32,
        sleeping,
        seed,
    )
}

/// `count` balls, `per_row` to a grid row, centred in a box `width` wide.
fn ball_pit_in(count: usize, per_row: usize, width: f32, sleeping: bool, seed: u64) -> SceneDef {
    let rows = count.div_ceil(per_row);
    let first_y = PIT_RADIUS + PIT_FLOOR_GAP;
    let top = first_y + PIT_SPACING * rows.saturating_sub(1) as f32 + PIT_RADIUS;
    let half = width * 0.5;
    let height = wall_height(top);
    let mut scene = SceneDef::empty(sleeping, [-half, -WALL, half, f32::INFINITY]);
    scene.open_box(half, height);
    let disc = scene.shape(ShapeDef::Circle(PIT_RADIUS));
    let mut rng = SplitMix64::new(seed);
    let centre = (per_row - 1) as f32 * 0.5;
    for i in 0..count {
        let (column, row) = (i % per_row, i / per_row);
        let x = (column as f32 - centre) * PIT_SPACING + rng.symmetric(PIT_JITTER);
        let y = first_y + PIT_SPACING * row as f32;
        scene.bodies.push(BodyDef {
            shape: disc,
            pos: [x, y],
            angle: 0.0,
            dynamic: true,
        });
    }
    scene
}

/// A pyramid of one-metre boxes with `base` boxes in the bottom row
/// (`base (base + 1) / 2` in all), resting side by side and on each other on
/// a static floor, sleeping off. The last body is the top box.
pub fn pyramid(base: usize) -> SceneDef {
    let size = 1.0;
    let reach = base as f32 * size + 10.0;
    let mut scene = SceneDef::empty(false, [-reach, -WALL, reach, f32::INFINITY]);
    scene.static_box([-reach, -WALL], [reach, 0.0]);
    let half = size * 0.5;
    let square = scene.shape(ShapeDef::Box([half, half]));
    for row in 0..base {
        let in_row = base - row;
        for i in 0..in_row {
            let x = (i as f32 - in_row as f32 * 0.5 + 0.5) * size;
            let y = half + row as f32 * size;
            scene.bodies.push(BodyDef {
                shape: square,
                pos: [x, y],
                angle: 0.0,
                dynamic: true,
            });
        }
    }
    scene
}

/// The 16 leaves of a small hull, 3 m long and 1 m wide: four groups of
/// four overlapping balls along the x axis, the end groups thinner.
pub fn hull_balls() -> Vec<BallDef> {
    let mut balls = Vec::with_capacity(16);
    for (x, r) in [(-1.05, 0.25), (-0.35, 0.3), (0.35, 0.3), (1.05, 0.25)] {
        for (dx, dy) in [(-0.2, -0.2), (0.2, -0.2), (-0.2, 0.2), (0.2, 0.2)] {
            balls.push(BallDef {
                offset: [x + dx, dy],
                radius: r,
            });
        }
    }
    balls
}

/// 1,000 bodies, each the 16-ball hull of [`hull_balls`] (with the mass of
/// the balls' union, `mass`), on a jittered grid with small turns, dropped
/// into the ball pit's box.
pub fn trees(mass: UnitMass, seed: u64) -> SceneDef {
    let rows = TREE_BODIES.div_ceil(TREE_PER_ROW);
    let first_y = 1.0;
    let top = first_y + TREE_SPACING[1] * rows as f32;
    let half = PIT_WIDTH * 0.5;
    let mut scene = SceneDef::empty(true, [-half, -WALL, half, f32::INFINITY]);
    scene.open_box(half, wall_height(top));
    let hull = scene.shape(ShapeDef::Balls {
        balls: hull_balls(),
        mass,
    });
    let mut rng = SplitMix64::new(seed);
    let centre = (TREE_PER_ROW - 1) as f32 * 0.5;
    for i in 0..TREE_BODIES {
        let (column, row) = (i % TREE_PER_ROW, i / TREE_PER_ROW);
        let x = (column as f32 - centre) * TREE_SPACING[0] + rng.symmetric(PIT_JITTER);
        let y = first_y + TREE_SPACING[1] * row as f32;
        scene.bodies.push(BodyDef {
            shape: hull,
            pos: [x, y],
            angle: rng.symmetric(TREE_MAX_ANGLE),
            dynamic: true,
        });
    }
    scene
}

/// The settled ball pit rebuilt from `positions` (the 5,000 balls where one
/// engine left them), so both engines answer shots against the same geometry.
pub fn settled_pit(positions: &[[f32; 2]], sleeping: bool) -> SceneDef {
    let mut scene = ball_pit(positions.len(), sleeping, 0);
    for (body, pos) in scene.bodies.iter_mut().filter(|b| b.dynamic).zip(positions) {
        body.pos = *pos;
    }
    scene
}

/// One shot: a segment from `origin` along the unit `dir` for `length` (m),
/// swept by a disc of `radius` (m) or, for a ray, by a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShotDef {
    /// Start (m, world).
    pub origin: [f32; 2],
    /// Unit direction (world).
    pub dir: [f32; 2],
}

/// Length of every shot (m).
pub const SHOT_LENGTH: f32 = 33.0;
/// Radius of a thick shot (m).
pub const SHOT_RADIUS: f32 = 0.05;
/// Origins are drawn over the pile's bounds grown by this much on every
/// side (m, half a shot): shots then start inside balls, in gaps, and
/// outside the pile heading in or away, not only inside a ball.
pub const SHOT_MARGIN: f32 = SHOT_LENGTH * 0.5;

/// `count` shots with origins uniform over the bounds of `positions` (grown
/// by the balls' radius and [`SHOT_MARGIN`]) and uniform directions.
pub fn shots(positions: &[[f32; 2]], count: usize, seed: u64) -> Vec<ShotDef> {
    let (mut min, mut max) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for p in positions {
        for k in 0..2 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    let grow = PIT_RADIUS + SHOT_MARGIN;
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let x = min[0] - grow + rng.unit() * (max[0] - min[0] + 2.0 * grow);
            let y = min[1] - grow + rng.unit() * (max[1] - min[1] + 2.0 * grow);
            let angle = rng.unit() * std::f32::consts::TAU;
            ShotDef {
                origin: [x, y],
                dir: [angle.cos(), angle.sin()],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statics(scene: &SceneDef) -> Vec<&BodyDef> {
        scene.bodies.iter().filter(|b| !b.dynamic).collect()
    }

    #[test]
    fn ball_pit_matches_the_spec() {
        let scene = ball_pit(5_000, true, 1);
        assert_eq!(scene.dynamic_count(), 5_000);
        assert_eq!(statics(&scene).len(), 3, "floor and two walls");
        assert_eq!(scene.dt, 1.0 / 60.0);
        assert_eq!(scene.gravity, [0.0, -9.81]);
        assert!(scene.sleeping);
        let balls: Vec<_> = scene.dynamic_positions();
        // 80 per row: ball 80 starts the second row, 1.2 m up.
        assert!((balls[80][1] - balls[0][1] - 1.2).abs() < 1e-5);
        assert!((balls[79][1] - balls[0][1]).abs() < 1e-6);
        assert!(((balls[1][0] - balls[0][0]) - 1.2).abs() <= 2.0 * PIT_JITTER + 1e-5);
        // Walls: inner faces at ±50, 200 m tall.
        let walls: Vec<_> = statics(&scene)
            .into_iter()
            .filter(|b| b.pos[1] > 0.0)
            .collect();
        assert_eq!(walls.len(), 2);
        for wall in walls {
            let ShapeDef::Box(half) = scene.shapes[wall.shape] else {
                panic!("walls are boxes");
            };
            assert!((wall.pos[0].abs() - half[0] - 50.0).abs() < 1e-4);
            assert!((2.0 * half[1] - 200.0).abs() < 1e-3);
        }
        // Every ball starts inside the box, none overlapping a wall or floor.
        for p in &balls {
            assert!(p[0].abs() + PIT_RADIUS < 50.0 && p[1] - PIT_RADIUS > 0.0);
        }
    }

    #[test]
    fn tall_pits_raise_their_walls() {
        let scene = ball_pit(32_000, false, 1);
        let top = scene
            .dynamic_positions()
            .iter()
            .fold(0.0f32, |t, p| t.max(p[1]));
        let wall = statics(&scene)[1];
        let ShapeDef::Box(half) = scene.shapes[wall.shape] else {
            panic!("walls are boxes");
        };
        assert!(2.0 * half[1] > top + PIT_RADIUS);
    }

    #[test]
    fn wide_pits_repeat_the_1k_pit() {
        let one = ball_pit(1_000, false, 1);
        assert_eq!(ball_pit_wide(1_000, false, 1), one);
        let wide = ball_pit_wide(32_000, false, 1);
        assert_eq!(wide.dynamic_count(), 32_000);
        let depth = |s: &SceneDef| {
            s.dynamic_positions()
                .iter()
                .fold(0.0f32, |t, p| t.max(p[1]))
        };
        assert_eq!(depth(&wide), depth(&one));
        assert!((wide.container[2] - 32.0 * one.container[2]).abs() < 1e-3);
    }

    #[test]
    fn pyramid_has_5050_boxes_and_the_top_one_last() {
        let scene = pyramid(100);
        assert_eq!(scene.dynamic_count(), 5_050);
        assert!(!scene.sleeping);
        let top = scene.bodies.last().unwrap();
        assert!((top.pos[1] - 99.5).abs() < 1e-4 && top.pos[0].abs() < 1e-4);
    }

    #[test]
    fn trees_have_1000_hulls_of_16_balls() {
        let mass = UnitMass {
            area: 1.0,
            centroid: [0.0, 0.0],
            inertia: 1.0,
        };
        let scene = trees(mass, 3);
        assert_eq!(scene.dynamic_count(), 1_000);
        let hull = scene.bodies.iter().find(|b| b.dynamic).unwrap().shape;
        let ShapeDef::Balls { balls, .. } = &scene.shapes[hull] else {
            panic!("hulls are balls");
        };
        assert_eq!(balls.len(), 16);
        // Neighbouring hulls never start overlapping: the grid spacing
        // exceeds the hull's extent in x and in y (with its largest turn).
        let reach_x = balls
            .iter()
            .map(|b| b.offset[0].abs() + b.radius)
            .fold(0.0, f32::max);
        let reach_y = balls
            .iter()
            .map(|b| b.offset[1].abs() + b.radius)
            .fold(0.0, f32::max);
        assert!(2.0 * reach_x + 2.0 * PIT_JITTER < TREE_SPACING[0]);
        let turned_y = reach_y + reach_x * TREE_MAX_ANGLE.sin();
        assert!(2.0 * turned_y < TREE_SPACING[1]);
    }

    #[test]
    fn shots_are_seeded_and_unit() {
        let pile = ball_pit(500, true, 1).dynamic_positions();
        let a = shots(&pile, 1_000, 7);
        assert_eq!(a, shots(&pile, 1_000, 7));
        assert_ne!(a, shots(&pile, 1_000, 8));
        for s in &a {
            let n = (s.dir[0] * s.dir[0] + s.dir[1] * s.dir[1]).sqrt();
            assert!((n - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn settled_pit_moves_only_the_balls() {
        let pit = ball_pit(100, true, 1);
        let moved: Vec<_> = (0..100).map(|i| [i as f32 - 50.0, 3.0]).collect();
        let settled = settled_pit(&moved, true);
        assert_eq!(settled.dynamic_positions(), moved);
        assert_eq!(statics(&settled), statics(&pit));
    }
}

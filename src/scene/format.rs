//! The data types of a scene file, exactly as they are written in RON.
//!
//! Every struct rejects unknown fields; every field but the few that have no
//! sensible default may be left out. Vectors are written `(x, y)` in metres
//! (or m/s), angles in radians counter-clockwise, y up. Optional values may
//! be written bare (`name: "ball"`) or as `Some("ball")`.

use serde::{Deserialize, Serialize};

/// A 2D vector as written in a scene file: `(x, y)`.
pub type Xy = (f32, f32);

/// A whole scene: settings, bodies, tile maps and guns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scene")]
pub struct Scene {
    /// Gravity, time step, substeps, sleeping.
    #[serde(default)]
    pub settings: SceneSettings,
    /// Where the window looks at first; fitted to the bodies when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<View>,
    /// The bodies, in the order they are added to the world.
    #[serde(default)]
    pub bodies: Vec<BodyDesc>,
    /// Grids of solid and triangle tiles, each one static body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tile_maps: Vec<TileMapDesc>,
    /// Projectile emitters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guns: Vec<GunDesc>,
}

/// World settings of a scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SceneSettings {
    /// Acceleration of gravity (m/s², world). Default `(0, -9.81)`.
    pub gravity: Xy,
    /// Time step (s). Default 1/60.
    pub dt: f32,
    /// Solver substeps per step (≥ 1). Default 4.
    pub substeps: u32,
    /// Let resting bodies sleep. Default true.
    pub sleeping: bool,
}

impl Default for SceneSettings {
    fn default() -> Self {
        SceneSettings {
            gravity: (0.0, -9.81),
            dt: 1.0 / 60.0,
            substeps: 4,
            sleeping: true,
        }
    }
}

/// The initial camera: the world point at the centre of the window and how
/// many metres the window shows from bottom to top.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// World point at the centre of the window (m).
    pub center: Xy,
    /// Visible height (m, > 0).
    pub height: f32,
}

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum KindDesc {
    /// Never moves.
    Static,
    /// Moves by its velocity only.
    Kinematic,
    /// Moved by gravity and contacts (the default).
    #[default]
    Dynamic,
}

/// A body: where it is, how it moves, and its colliders.
///
/// A body with one collider at its origin writes it as `shape` (with
/// `material`, `filter` and `sensor` beside it); a compound body lists
/// `colliders`. Both may be given: `shape` is then the first collider.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDesc {
    /// A unique name, used by guns (`Target`) and in hit reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Static, kinematic or dynamic (default).
    #[serde(default, skip_serializing_if = "is_default")]
    pub kind: KindDesc,
    /// World position of the body origin (m).
    #[serde(default)]
    pub position: Xy,
    /// Rotation (rad, counter-clockwise).
    #[serde(default, skip_serializing_if = "is_default")]
    pub angle: f32,
    /// Uniform scale of the whole body (> 0). Default 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale: f32,
    /// Initial velocity of the origin (m/s, world).
    #[serde(default, skip_serializing_if = "is_default")]
    pub velocity: Xy,
    /// Initial spin (rad/s, counter-clockwise).
    #[serde(default, skip_serializing_if = "is_default")]
    pub spin: f32,
    /// Multiplies gravity for this body. Default 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub gravity_scale: f32,
    /// Linear damping (1/s, ≥ 0).
    #[serde(default, skip_serializing_if = "is_default")]
    pub linear_damping: f32,
    /// Angular damping (1/s, ≥ 0).
    #[serde(default, skip_serializing_if = "is_default")]
    pub angular_damping: f32,
    /// Swept for continuous collision at any speed.
    #[serde(default, skip_serializing_if = "is_default")]
    pub bullet: bool,
    /// May fall asleep when at rest. Default true.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub can_sleep: bool,
    /// The single collider at the body origin, if written this way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<ShapeDesc>,
    /// Material of `shape`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub material: MaterialDesc,
    /// Collision filter of `shape`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub filter: FilterDesc,
    /// `shape` is a sensor: it reports overlaps and never pushes.
    #[serde(default, skip_serializing_if = "is_default")]
    pub sensor: bool,
    /// Further colliders, each placed in the body frame.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colliders: Vec<ColliderDesc>,
    /// Rescale the body over time (seed 004's run-time rescaling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pulse: Option<PulseDesc>,
}

impl Default for BodyDesc {
    /// A dynamic body at the origin, at rest, scale 1, without colliders.
    fn default() -> Self {
        BodyDesc {
            name: None,
            kind: KindDesc::Dynamic,
            position: (0.0, 0.0),
            angle: 0.0,
            scale: 1.0,
            velocity: (0.0, 0.0),
            spin: 0.0,
            gravity_scale: 1.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            bullet: false,
            can_sleep: true,
            shape: None,
            material: MaterialDesc::default(),
            filter: FilterDesc::default(),
            sensor: false,
            colliders: Vec::new(),
            pulse: None,
        }
    }
}

impl Default for Scene {
    /// No bodies, default settings.
    fn default() -> Self {
        Scene {
            settings: SceneSettings::default(),
            view: None,
            bodies: Vec::new(),
            tile_maps: Vec::new(),
            guns: Vec::new(),
        }
    }
}

/// A body's scale oscillating over time:
/// `scale(t) = scale · (1 + amplitude · sin(2π · t / period))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PulseDesc {
    /// Relative amplitude, in [0, 0.9].
    pub amplitude: f32,
    /// Period (s, > 0).
    pub period: f32,
}

/// A collider placed in its body's frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColliderDesc {
    /// The part's name, reported with hits (`body/part`); unique in its body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The shape, in the collider's frame.
    pub shape: ShapeDesc,
    /// Position of the collider frame in the body frame (m).
    #[serde(default, skip_serializing_if = "is_default")]
    pub offset: Xy,
    /// Rotation of the collider frame in the body frame (rad).
    #[serde(default, skip_serializing_if = "is_default")]
    pub angle: f32,
    /// Uniform scale of the collider (> 0). Default 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale: f32,
    /// Density, friction, restitution.
    #[serde(default, skip_serializing_if = "is_default")]
    pub material: MaterialDesc,
    /// Collision groups and mask.
    #[serde(default, skip_serializing_if = "is_default")]
    pub filter: FilterDesc,
    /// A sensor reports overlaps and never pushes.
    #[serde(default, skip_serializing_if = "is_default")]
    pub sensor: bool,
}

/// A shape in its local frame. Every kind the world accepts as a collider.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDesc {
    /// A disc: `Circle(radius: 0.5)`, optionally `center: (x, y)`.
    Circle {
        /// Radius (m, > 0).
        radius: f32,
        /// Centre (m, local).
        #[serde(default, skip_serializing_if = "is_default")]
        center: Xy,
    },
    /// A segment with round caps: `Capsule(a: (-1, 0), b: (1, 0), radius: 0.2)`.
    Capsule {
        /// First end point (m, local).
        a: Xy,
        /// Second end point (m, local).
        b: Xy,
        /// Radius of the caps (m, > 0).
        radius: f32,
    },
    /// A segment without thickness (a thin wall): `Segment(a: .., b: ..)`.
    Segment {
        /// First end point (m, local).
        a: Xy,
        /// Second end point (m, local).
        b: Xy,
    },
    /// A single point (no area, no mass): `Point(at: (0, 0))`.
    Point {
        /// The point (m, local).
        at: Xy,
    },
    /// A box by its corners: `Aabb(min: (-1, -1), max: (1, 1))`.
    Aabb {
        /// Lower-left corner (m, local).
        min: Xy,
        /// Upper-right corner (m, local).
        max: Xy,
    },
    /// A box by its size: `Box(half_extents: (1, 0.5))`, optionally `center`.
    Box {
        /// Half width and half height (m, > 0).
        half_extents: Xy,
        /// Centre (m, local).
        #[serde(default, skip_serializing_if = "is_default")]
        center: Xy,
    },
    /// A rotated rectangle: `Rect(half_extents: (1, 0.1), angle: 0.3)`.
    Rect {
        /// Half width and half height along its own axes (m, > 0).
        half_extents: Xy,
        /// Centre (m, local).
        #[serde(default, skip_serializing_if = "is_default")]
        center: Xy,
        /// Rotation of the rectangle within the collider frame (rad).
        #[serde(default, skip_serializing_if = "is_default")]
        angle: f32,
    },
    /// A convex polygon: `Polygon(points: [(0, 0), (1, 0), (0, 1)])`.
    Polygon {
        /// The outline, either winding (m, local).
        points: Vec<Xy>,
    },
    /// A regular convex polygon: `Regular(sides: 6, radius: 1)`.
    Regular {
        /// Number of corners (3 to 256).
        sides: u32,
        /// Distance from the centre to each corner (m, > 0).
        radius: f32,
        /// Angle of the first corner (rad).
        #[serde(default, skip_serializing_if = "is_default")]
        phase: f32,
    },
    /// A right-triangle tile: the box `min`–`max` without its `missing` corner.
    Tile {
        /// Lower-left corner of the tile's box (m, local).
        min: Xy,
        /// Upper-right corner of the tile's box (m, local).
        max: Xy,
        /// Which corner is cut away.
        missing: CornerDesc,
    },
    /// A simple (possibly non-convex) polygon: `SimplePolygon(points: [...])`.
    SimplePolygon {
        /// The outline, either winding, no crossing edges (m, local).
        points: Vec<Xy>,
    },
    /// A circle tree given node by node, each child inside its parent:
    /// `Tree(root: (radius: 2, part: Some("hull"), children: [(center: (1, 0), radius: 0.5)]))`.
    Tree {
        /// The root (envelope) circle and its descendants.
        root: TreeNodeDesc,
        /// The mass of the outline the tree stands for, per unit density
        /// (`Scene::from_world` writes it for fitted trees); when absent, the
        /// mass is that of the union of the leaves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mass: Option<TreeMassDesc>,
    },
    /// A circle tree fitted to an outline so that no leaf sticks out of it by
    /// more than `epsilon` metres: `FittedTree(outline: Polygon(points: [...]), epsilon: 0.05)`.
    /// Written back by `Scene::from_world` as the explicit `Tree` it produced.
    FittedTree {
        /// The outline to fit: a solid shape description (not a tree) or a `Mask`.
        outline: Box<ShapeDesc>,
        /// Largest overhang of a leaf beyond the outline (m, > 0).
        epsilon: f32,
        /// Children per node (2 to 16; 4 when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        branching: Option<u32>,
    },
    /// The opaque pixels of a PNG image, as the outline of a `FittedTree` only:
    /// `Mask(path: "raider.png", threshold: 0.5, pixel_size: 0.05)`. The image
    /// is centred on the collider's origin, x to the right, its top row up.
    Mask {
        /// The PNG file, relative to the scene file's directory (text without
        /// a file: relative to the current directory).
        path: String,
        /// Smallest alpha of a solid pixel, as a fraction of opaque, in (0, 1]. Default 0.5.
        #[serde(default = "half", skip_serializing_if = "is_half")]
        threshold: f32,
        /// Side of one pixel (m, > 0).
        pixel_size: f32,
    },
}

/// One node of an explicit circle tree (local frame, metres).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeNodeDesc {
    /// Centre (m, local).
    #[serde(default, skip_serializing_if = "is_default")]
    pub center: Xy,
    /// Radius (m, > 0); must contain every child circle.
    pub radius: f32,
    /// Name of the part this node and its descendants belong to (hit reports name it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// Nested circles; none for a leaf.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TreeNodeDesc>,
}

/// Mass properties per unit density of the outline a tree stands for:
/// `mass: (area: 4.1, centroid: (0.2, 0), inertia: 3.5)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeMassDesc {
    /// Area (m², > 0).
    pub area: f32,
    /// Centre of mass (m, local).
    pub centroid: Xy,
    /// Polar moment of inertia about the centroid per unit density (m⁴, > 0).
    pub inertia: f32,
}

/// Which corner of a tile's box is missing ("upper" is +y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CornerDesc {
    /// The (min.x, max.y) corner.
    UpperLeft,
    /// The (max.x, max.y) corner.
    UpperRight,
    /// The (min.x, min.y) corner.
    LowerLeft,
    /// The (max.x, min.y) corner.
    LowerRight,
}

/// Density, friction and restitution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MaterialDesc {
    /// Mass per area (kg/m², > 0). Default 1.
    pub density: f32,
    /// Coulomb friction (≥ 0). Default 0.6.
    pub friction: f32,
    /// Bounciness in [0, 1]. Default 0.
    pub restitution: f32,
}

impl Default for MaterialDesc {
    fn default() -> Self {
        MaterialDesc {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
        }
    }
}

/// Collision groups: two colliders interact when each one's `groups` meets
/// the other's `mask`. Hex literals work: `mask: 0xFFFF`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FilterDesc {
    /// Groups this collider belongs to (bit set). Default 1.
    pub groups: u32,
    /// Groups this collider interacts with (bit set). Default all.
    pub mask: u32,
}

impl Default for FilterDesc {
    fn default() -> Self {
        FilterDesc {
            groups: 1,
            mask: u32::MAX,
        }
    }
}

/// A grid of tiles made into one static body.
///
/// `rows[0]` is the top row. Characters: `#` a solid square; `L`, `J`, `F`,
/// `7` the four right triangles of seed 001, each drawn by where its solid
/// right-angle corner is (`L` lower-left, `J` lower-right, `F` upper-left,
/// `7` upper-right); `.` or a space is empty. The lower-left corner of the
/// bottom-left tile is at `origin`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileMapDesc {
    /// Name of the tile map's body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// World position of the lower-left corner of the bottom-left tile (m).
    #[serde(default)]
    pub origin: Xy,
    /// Side of a square tile (m, > 0). Default 1.
    #[serde(default = "one")]
    pub tile_size: f32,
    /// The grid, top row first.
    pub rows: Vec<String>,
    /// Material of every tile.
    #[serde(default, skip_serializing_if = "is_default")]
    pub material: MaterialDesc,
    /// Collision filter of every tile.
    #[serde(default, skip_serializing_if = "is_default")]
    pub filter: FilterDesc,
}

/// Where a gun points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum AimDesc {
    /// A fixed direction of fire (need not be unit length): `Direction((1, 0))`.
    Direction(Xy),
    /// A fixed angle of fire (rad, counter-clockwise from +x): `Angle(0.3)`.
    Angle(f32),
    /// At a named body, leading it by its current velocity: `Target("ship")`.
    Target(String),
}

/// A projectile emitter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GunDesc {
    /// Name used in reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Muzzle position (m): world, or local to `mount` when there is one.
    pub position: Xy,
    /// Direction or target; a direction turns with `mount` when there is one.
    pub aim: AimDesc,
    /// Name of a body the gun rides on: the muzzle moves and turns with it
    /// and its shots never hit it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount: Option<String>,
    /// Shots per second (> 0).
    pub rate: f32,
    /// Muzzle speed (m/s, > 0).
    pub speed: f32,
    /// Largest deviation from the aim (rad, in [0, π/2]); each shot is
    /// turned by a deterministic pseudo-random angle in ±`spread`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub spread: f32,
    /// Diameter of a shot (m, ≥ 0; 0 is a ray).
    #[serde(default, skip_serializing_if = "is_default")]
    pub thickness: f32,
    /// How many bodies a shot passes through before it stops (0: the first hit stops it).
    #[serde(default, skip_serializing_if = "is_default")]
    pub pierce: u32,
    /// Time of the first shot (s, ≥ 0).
    #[serde(default, skip_serializing_if = "is_default")]
    pub start: f32,
    /// How long a shot lives (s, > 0). Default 2.
    #[serde(default = "two", skip_serializing_if = "is_two")]
    pub lifetime: f32,
    /// Seed of the spread sequence.
    #[serde(default, skip_serializing_if = "is_default")]
    pub seed: u64,
}

fn one() -> f32 {
    1.0
}

fn two() -> f32 {
    2.0
}

fn half() -> f32 {
    0.5
}

fn is_half(value: &f32) -> bool {
    *value == 0.5
}

fn yes() -> bool {
    true
}

fn is_one(value: &f32) -> bool {
    *value == 1.0
}

fn is_two(value: &f32) -> bool {
    *value == 2.0
}

fn is_true(value: &bool) -> bool {
    *value
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

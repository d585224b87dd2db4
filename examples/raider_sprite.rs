//! Draws `scenes/raider.png`, the sprite whose alpha channel is the raider's
//! outline in `scenes/nordenfelt.ron`: a 96 × 48 ship pointing along +x with
//! swept wings, tail fins, a gun turret on its upper side and a cockpit
//! window cut out of the hull, anti-aliased (so its edge pixels are partly
//! transparent).
//!
//! Run: `cargo run --example raider_sprite [-- out.png]`

use tiny_skia::{BlendMode, Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Transform};

const WIDTH: u32 = 96;
const HEIGHT: u32 = 48;

fn polygon(points: &[(f32, f32)]) -> Option<tiny_skia::Path> {
    let mut path = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    path.move_to(first.0, first.1);
    for &(x, y) in rest {
        path.line_to(x, y);
    }
    path.close();
    path.finish()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/raider.png").into());
    let mut pixmap = Pixmap::new(WIDTH, HEIGHT).ok_or("bad size")?;
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba8(200, 210, 230, 255));
    paint.anti_alias = true;
    let mid = HEIGHT as f32 / 2.0;
    // Image y runs down; the ship is symmetric about the middle row.
    let hull = polygon(&[
        (4.0, mid - 3.0),
        (18.0, mid - 7.0),
        (70.0, mid - 7.0),
        (92.0, mid - 1.5),
        (92.0, mid + 1.5),
        (70.0, mid + 7.0),
        (18.0, mid + 7.0),
        (4.0, mid + 3.0),
    ])
    .ok_or("hull")?;
    let wings = [
        polygon(&[(36.0, mid), (22.0, 2.0), (34.0, 2.0), (62.0, mid)]).ok_or("wing")?,
        polygon(&[(36.0, mid), (22.0, 46.0), (34.0, 46.0), (62.0, mid)]).ok_or("wing")?,
    ];
    let fins = [
        polygon(&[(6.0, mid), (2.0, 10.0), (10.0, 10.0), (20.0, mid)]).ok_or("fin")?,
        polygon(&[(6.0, mid), (2.0, 38.0), (10.0, 38.0), (20.0, mid)]).ok_or("fin")?,
    ];
    // A gun turret on the upper side only, so the sprite is not symmetric
    // top to bottom (a flipped image would not fit).
    let turret = polygon(&[
        (66.0, mid - 6.0),
        (68.0, mid - 10.0),
        (76.0, mid - 10.0),
        (78.0, mid - 6.0),
    ])
    .ok_or("turret")?;
    let barrel =
        PathBuilder::from_rect(Rect::from_xywh(76.0, mid - 9.5, 12.0, 2.0).ok_or("barrel")?);
    for path in std::iter::once(&hull)
        .chain(&wings)
        .chain(&fins)
        .chain([&turret, &barrel])
    {
        pixmap.fill_path(path, &paint, FillRule::Winding, Transform::identity(), None);
    }
    // The cockpit window: a hole in the hull (cleared back to transparent).
    let window = PathBuilder::from_oval(Rect::from_xywh(64.0, mid - 3.0, 12.0, 6.0).ok_or("oval")?)
        .ok_or("window")?;
    paint.blend_mode = BlendMode::Clear;
    pixmap.fill_path(
        &window,
        &paint,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    pixmap.save_png(&out)?;
    println!("wrote {out}");
    Ok(())
}

//! [`Rgba`] colours and the debug palette.

/// A colour, 8 bits per channel, straight (not premultiplied) alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity (255 opaque).
    pub a: u8,
}

impl Rgba {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r, g, b, a: 255 }
    }

    /// From `0xRRGGBB`, opaque.
    pub const fn hex(rgb: u32) -> Rgba {
        Rgba::rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
    }

    /// This colour with opacity `alpha` in [0, 1] (clamped; NaN is 0).
    pub fn with_alpha(self, alpha: f32) -> Rgba {
        let a = (alpha.clamp(0.0, 1.0) * 255.0).round();
        Rgba {
            a: if a.is_nan() { 0 } else { a as u8 },
            ..self
        }
    }

    /// This colour mixed towards `other` by `t` in [0, 1] (alpha kept).
    pub fn mix(self, other: Rgba, t: f32) -> Rgba {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        let lerp = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        Rgba {
            r: lerp(self.r, other.r),
            g: lerp(self.g, other.g),
            b: lerp(self.b, other.b),
            a: self.a,
        }
    }

    /// As `0x00RRGGBB` (the window's pixel format), ignoring alpha.
    pub fn to_u32(self) -> u32 {
        ((self.r as u32) << 16) | ((self.g as u32) << 8) | self.b as u32
    }
}

/// Background of the canvas.
pub const BACKGROUND: Rgba = Rgba::hex(0x16181d);
/// Static bodies.
pub const STATIC: Rgba = Rgba::hex(0x718096);
/// Kinematic bodies.
pub const KINEMATIC: Rgba = Rgba::hex(0xb794f4);
/// Dynamic bodies, chosen by body index.
pub const DYNAMIC_COLORS: [Rgba; 8] = [
    Rgba::hex(0x63b3ed),
    Rgba::hex(0xf6ad55),
    Rgba::hex(0x68d391),
    Rgba::hex(0xfc8181),
    Rgba::hex(0xf6e05e),
    Rgba::hex(0x9f7aea),
    Rgba::hex(0x4fd1c5),
    Rgba::hex(0xed64a6),
];
/// Shots in flight and their traces.
pub const SHOT: Rgba = Rgba::hex(0xffffff);
/// The mark where a shot hit.
pub const HIT: Rgba = Rgba::hex(0xffa94d);
/// Guns.
pub const GUN: Rgba = Rgba::hex(0xe53e3e);
/// Sensor outlines.
pub const SENSOR: Rgba = Rgba::hex(0x9ae6b4);
/// Contact points.
pub const CONTACT: Rgba = Rgba::hex(0xff4d4d);
/// Contact normals.
pub const NORMAL: Rgba = Rgba::hex(0xffd166);
/// Collider AABBs.
pub const AABB: Rgba = Rgba::hex(0x48bb78);
/// Circle-tree levels when the viewer shows a chosen depth: level `k` (the
/// root is level 0) in `LEVEL_COLORS[k % 6]`, warm at the top, cool below.
pub const LEVEL_COLORS: [Rgba; 6] = [
    Rgba::hex(0xff6b6b),
    Rgba::hex(0xffa94d),
    Rgba::hex(0xffd43b),
    Rgba::hex(0x69db7c),
    Rgba::hex(0x4dabf7),
    Rgba::hex(0xb197fc),
];
/// HUD text.
pub const TEXT: Rgba = Rgba::hex(0xe2e8f0);
/// HUD warnings and errors.
pub const WARNING: Rgba = Rgba::hex(0xff8a65);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixing_and_alpha_stay_in_range() {
        let white = Rgba::rgb(255, 255, 255);
        assert_eq!(BACKGROUND.mix(white, 1.0), white);
        assert_eq!(BACKGROUND.mix(white, f32::NAN), BACKGROUND);
        assert_eq!(white.with_alpha(2.0).a, 255);
        assert_eq!(white.with_alpha(f32::NAN).a, 0);
        assert_eq!(Rgba::hex(0x123456).to_u32(), 0x123456);
    }
}

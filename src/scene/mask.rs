//! `Mask` outlines: a PNG image's alpha channel read into an [`AlphaMask`],
//! and [`ImageSource`], where a scene's images are found.
//!
//! Invariants:
//! - no image is allocated before its size is known: a file larger than
//!   [`MAX_MASK_BYTES`] is not read, and an image wider or higher than
//!   [`MAX_MASK_SIDE`] pixels is refused from its PNG header, before decoding;
//! - every way an image can fail (missing, a directory, unreadable, not a
//!   PNG, corrupt, empty, too large, all transparent at the threshold) is one
//!   [`ProblemKind::BadImage`] problem naming the path as the scene writes it.

use super::check::Checker;
use super::error::ProblemKind;
use super::locate::FieldPath;
use crate::shape::AlphaMask;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest mask image file read (bytes): a sprite, not a photograph.
pub const MAX_MASK_BYTES: u64 = 4 * 1024 * 1024;

/// Most pixels a mask image may have along either side. A 512 × 512 mask
/// decodes into at most 2 MiB, and fitting it stays well under a second.
pub const MAX_MASK_SIDE: u32 = 512;

/// The eight bytes every PNG file starts with.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// A threshold `t` solid from alpha `ceil(255 t)`; `t = k / 255` written in
/// f32 lands within 1e-5 of `k` once multiplied, so this slack keeps it `k`
/// and not `k + 1` (and is far below the 1/255 between two alpha levels).
const THRESHOLD_SLACK: f64 = 1e-3;

/// Where the mask images named by a scene are read from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ImageSource {
    /// Files; a relative path is taken from the current directory (scene
    /// text that has no file of its own).
    #[default]
    CurrentDir,
    /// Files; a relative path is taken from this directory (the scene file's own).
    Dir(PathBuf),
    /// Images held by the program, found by their path exactly as the scene
    /// writes it; nothing is read from disk. Each entry is (path, PNG bytes).
    Embedded(&'static [(&'static str, &'static [u8])]),
}

impl ImageSource {
    /// The images beside the scene file `file`: relative paths from its directory.
    pub fn beside(file: &Path) -> ImageSource {
        ImageSource::Dir(file.parent().map(Path::to_path_buf).unwrap_or_default())
    }

    /// The bytes of the image `written` (the path as the scene writes it),
    /// or what went wrong in words (naming the path as `shown`).
    fn read(&self, written: &str, shown: &str) -> Result<Vec<u8>, String> {
        let (full, looked) = match self {
            ImageSource::Embedded(images) => {
                return match images.iter().find(|(name, _)| *name == written) {
                    Some((_, bytes)) => Ok(bytes.to_vec()),
                    None => {
                        let names: Vec<&str> = images.iter().map(|(name, _)| *name).collect();
                        Err(format!(
                            "mask image `{shown}` is not built in (built-in images: {})",
                            if names.is_empty() {
                                "none".to_string()
                            } else {
                                names.join(", ")
                            }
                        ))
                    }
                };
            }
            ImageSource::CurrentDir => (
                PathBuf::from(written),
                format!("looked for `{shown}` from the current directory"),
            ),
            ImageSource::Dir(dir) => {
                let full = dir.join(written);
                let looked = format!("looked for `{}`", full.display().to_string().escape_debug());
                (full, looked)
            }
        };
        let metadata = std::fs::metadata(&full).map_err(|error| match error.kind() {
            std::io::ErrorKind::NotFound => format!("mask image `{shown}` not found ({looked})"),
            _ => format!("mask image `{shown}` cannot be read: {error} ({looked})"),
        })?;
        if metadata.is_dir() {
            return Err(format!(
                "mask image `{shown}` is a directory, expected a PNG file ({looked})"
            ));
        }
        let too_big = |size: u64| {
            format!(
                "mask image `{shown}` has {size} bytes, more than the {MAX_MASK_BYTES} \
                 a mask image may have"
            )
        };
        if metadata.len() > MAX_MASK_BYTES {
            return Err(too_big(metadata.len()));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&full)
            .and_then(|file| file.take(MAX_MASK_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|error| format!("mask image `{shown}` cannot be read: {error} ({looked})"))?;
        if bytes.len() as u64 > MAX_MASK_BYTES {
            return Err(too_big(bytes.len() as u64));
        }
        Ok(bytes)
    }
}

/// An image's alpha channel, row 0 at the top.
struct Alpha {
    width: u32,
    height: u32,
    alpha: Vec<u8>,
}

/// Width and height from a PNG's header (the IHDR chunk that must come
/// first), without decoding anything.
fn png_size(shown: &str, bytes: &[u8]) -> Result<(u32, u32), String> {
    if !bytes.starts_with(&PNG_SIGNATURE) {
        return Err(format!(
            "mask image `{shown}` is not a PNG image (it does not start with the PNG signature)"
        ));
    }
    // Signature (8), chunk length (4), chunk type (4), width (4), height (4).
    let header = bytes.get(12..24).filter(|h| &h[..4] == b"IHDR");
    let Some(header) = header else {
        return Err(format!(
            "mask image `{shown}` is not a valid PNG image (its header chunk is missing)"
        ));
    };
    let word = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    Ok((word(4), word(8)))
}

/// The alpha channel of the PNG `bytes`, refusing empty and huge images
/// before decoding them.
fn decode_alpha(shown: &str, bytes: &[u8]) -> Result<Alpha, String> {
    let (width, height) = png_size(shown, bytes)?;
    if width == 0 || height == 0 {
        return Err(format!(
            "mask image `{shown}` is empty ({width} x {height} pixels)"
        ));
    }
    if width > MAX_MASK_SIDE || height > MAX_MASK_SIDE {
        return Err(format!(
            "mask image `{shown}` is {width} x {height} pixels, expected at most \
             {MAX_MASK_SIDE} on each side"
        ));
    }
    let pixmap = tiny_skia::Pixmap::decode_png(bytes)
        .map_err(|error| format!("mask image `{shown}` is not a readable PNG image: {error}"))?;
    if (pixmap.width(), pixmap.height()) != (width, height) {
        return Err(format!(
            "mask image `{shown}` is not a valid PNG image (its header says {width} x {height} \
             pixels, its data {} x {})",
            pixmap.width(),
            pixmap.height()
        ));
    }
    // Premultiplied colour keeps alpha as it was stored.
    let alpha = pixmap.pixels().iter().map(|p| p.alpha()).collect();
    Ok(Alpha {
        width,
        height,
        alpha,
    })
}

/// The 8-bit alpha from which a pixel is solid, for a threshold in (0, 1].
fn alpha_threshold(threshold: f32) -> u8 {
    let level = (threshold as f64 * 255.0 - THRESHOLD_SLACK).ceil();
    level.clamp(1.0, 255.0) as u8
}

impl Checker {
    /// The alpha mask of a `Mask` outline at `path`: its threshold and pixel
    /// size checked, its image read and decoded; `None` with every problem
    /// recorded.
    pub(crate) fn mask(
        &mut self,
        path: FieldPath,
        written: &str,
        threshold: f32,
        pixel_size: f32,
    ) -> Option<AlphaMask> {
        let threshold_path = path.field("threshold");
        let threshold = self.ranged(threshold_path.clone(), threshold, "in (0, 1]", |v| {
            v > 0.0 && v <= 1.0
        });
        let pixel_path = path.field("pixel_size");
        let pixel_size = self.positive(pixel_path.clone(), pixel_size);
        if written.trim().is_empty() {
            self.report(
                path.field("path"),
                ProblemKind::BadImage,
                "expected the path of a PNG image, found an empty string".into(),
            );
            return None;
        }
        // Control characters in a path would break the message's line.
        let shown = written.escape_debug().to_string();
        let image = self
            .images
            .read(written, &shown)
            .and_then(|bytes| decode_alpha(&shown, &bytes));
        let image = match image {
            Ok(image) => image,
            Err(message) => {
                self.report(path.field("path"), ProblemKind::BadImage, message);
                return None;
            }
        };
        let (threshold, pixel_size) = (threshold?, pixel_size?);
        let span = image.width.max(image.height) as f32 * pixel_size;
        if span > super::MAX_MAGNITUDE {
            self.report(
                pixel_path,
                ProblemKind::OutOfRange,
                format!(
                    "expected the image to span at most {:.0} m, found {} pixels of {pixel_size} m",
                    super::MAX_MAGNITUDE,
                    image.width.max(image.height)
                ),
            );
            return None;
        }
        let level = alpha_threshold(threshold);
        match AlphaMask::new(
            image.width as usize,
            image.height as usize,
            image.alpha,
            level,
            pixel_size,
        ) {
            Ok(mask) => Some(mask),
            Err(crate::shape::TreeError::AllTransparent { .. }) => {
                self.report(
                    threshold_path,
                    ProblemKind::BadImage,
                    format!(
                        "expected mask image `{shown}` to have a pixel with alpha >= {threshold} \
                         (of opaque), found it all transparent at that threshold"
                    ),
                );
                None
            }
            Err(error) => {
                self.report(path.field("path"), ProblemKind::BadImage, error.to_string());
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `width × height` PNG whose pixel (x, y) has alpha `alpha(x, y)`.
    fn png(width: u32, height: u32, alpha: impl Fn(u32, u32) -> u8) -> Vec<u8> {
        let mut pixmap = tiny_skia::Pixmap::new(width, height).unwrap();
        for (i, pixel) in pixmap.pixels_mut().iter_mut().enumerate() {
            let (x, y) = (i as u32 % width, i as u32 / width);
            let a = alpha(x, y);
            *pixel = tiny_skia::PremultipliedColorU8::from_rgba(a, a, a, a).unwrap();
        }
        pixmap.encode_png().unwrap()
    }

    #[test]
    fn thresholds_map_to_the_alpha_levels_they_name() {
        assert_eq!(alpha_threshold(0.5), 128);
        assert_eq!(alpha_threshold(1.0), 255);
        assert_eq!(alpha_threshold(1e-9), 1);
        for k in 1..=255u8 {
            assert_eq!(alpha_threshold(k as f32 / 255.0), k, "{k}");
        }
    }

    #[test]
    fn the_alpha_channel_is_read_row_by_row_from_the_top() {
        let bytes = png(3, 2, |x, y| if (x, y) == (2, 0) { 255 } else { 0 });
        let image = decode_alpha("a.png", &bytes).unwrap();
        assert_eq!((image.width, image.height), (3, 2));
        assert_eq!(image.alpha, [0, 0, 255, 0, 0, 0]);
    }

    #[test]
    fn huge_and_broken_images_are_refused_from_their_header() {
        let mut bytes = png(2, 2, |_, _| 255);
        // Claim 100000 × 2 pixels: refused before any decoding.
        bytes[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        let message = decode_alpha("big.png", &bytes).err().unwrap();
        assert!(message.contains("100000 x 2 pixels"), "{message}");
        bytes[16..20].copy_from_slice(&0u32.to_be_bytes());
        assert!(
            decode_alpha("e.png", &bytes)
                .err()
                .unwrap()
                .contains("empty")
        );
        assert!(
            decode_alpha("t.png", b"hello")
                .err()
                .unwrap()
                .contains("not a PNG image")
        );
        assert!(
            decode_alpha("h.png", &PNG_SIGNATURE)
                .err()
                .unwrap()
                .contains("header chunk is missing")
        );
        // A good header over corrupt data.
        let mut cut = png(4, 4, |x, _| x as u8 * 60);
        cut.truncate(40);
        let message = decode_alpha("cut.png", &cut).err().unwrap();
        assert!(message.contains("not a readable PNG image"), "{message}");
    }

    #[test]
    fn embedded_images_are_found_by_their_written_path_only() {
        static IMAGES: [(&str, &[u8]); 1] = [("ship.png", b"bytes")];
        let images = ImageSource::Embedded(&IMAGES);
        assert_eq!(images.read("ship.png", "ship.png").unwrap(), b"bytes");
        let message = images.read("./ship.png", "./ship.png").err().unwrap();
        assert!(message.contains("built-in images: ship.png"), "{message}");
    }
}

//! Headless scene builders.

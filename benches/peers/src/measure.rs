//! Statistics and facts about the run: medians, the log-log slope, resident
//! memory read from the OS, the machine and the date.

use std::fs;

/// The median of `values` (the mean of the middle two for an even count);
/// NaN for none.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        0.5 * (sorted[mid - 1] + sorted[mid])
    }
}

/// The `q` quantile of `values` (`0 <= q <= 1`), nearest rank: the
/// smallest value that at least a share `q` of them do not exceed; NaN
/// for none.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() || !(0.0..=1.0).contains(&q) {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Least-squares slope of `ln y` against `ln x`: the exponent `k` of the
/// best fit `y ≈ c · x^k`. NaN for fewer than two distinct x or any value ≤ 0.
pub fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    if points.iter().any(|&(x, y)| !(x > 0.0 && y > 0.0)) {
        return f64::NAN;
    }
    let logs: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x.ln(), y.ln())).collect();
    let n = logs.len() as f64;
    let mean_x = logs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if sxx > 0.0 { sxy / sxx } else { f64::NAN }
}

/// A `kB` field of `/proc/self/status` (e.g. `VmRSS`, `VmHWM`), in bytes.
pub fn status_bytes(field: &str) -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(field)?.strip_prefix(':')?;
        let kib: u64 = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
        Some(kib * 1024)
    })
}

/// The CPU model (from `/proc/cpuinfo`) and the number of logical cores.
pub fn machine() -> String {
    let model = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{model}, {cores} logical cores")
}

/// The 1-minute load average (from `/proc/loadavg`): how busy the machine
/// was besides this run.
pub fn load_average() -> Option<f64> {
    fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (the
/// era-based conversion: 400-year eras of 146,097 days, years starting in
/// March so the leap day is last).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097; // day of era, [0, 146096]
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of March-based year
    let mp = (5 * doy + 2) / 153; // March = 0
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let values: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        assert_eq!(quantile(&values, 0.95), 19.0);
        assert_eq!(quantile(&values, 0.5), 10.0);
        assert_eq!(quantile(&values, 1.0), 20.0);
        assert_eq!(quantile(&values, 0.0), 1.0);
        assert_eq!(quantile(&[3.0], 0.95), 3.0);
        assert!(quantile(&[], 0.5).is_nan());
        assert!(quantile(&values, 1.5).is_nan());
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn slope_recovers_a_power_law() {
        let linear: Vec<_> = [1e3, 4e3, 16e3, 32e3]
            .iter()
            .map(|&n| (n, 2e-3 * n))
            .collect();
        assert!((log_log_slope(&linear) - 1.0).abs() < 1e-9);
        let quadratic: Vec<_> = [1.0, 2.0, 8.0].iter().map(|&n| (n, 5.0 * n * n)).collect();
        assert!((log_log_slope(&quadratic) - 2.0).abs() < 1e-9);
        assert!(log_log_slope(&[(1.0, 1.0), (1.0, 2.0)]).is_nan());
        assert!(log_log_slope(&[(1.0, 0.0), (2.0, 2.0)]).is_nan());
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn load_average_is_read() {
        assert!(load_average().is_some_and(|l| l >= 0.0));
    }

    #[test]
    fn resident_memory_is_read() {
        let rss = status_bytes("VmRSS").unwrap();
        let peak = status_bytes("VmHWM").unwrap();
        assert!(rss > 0 && peak >= rss);
    }
}

//! Validation rows: one checked quantity of one experiment, with where the expected value
//! comes from. The `validate` example prints them; tests assert on the same experiments.

use serde::Serialize;

/// How a measured value is compared with the expected one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tolerance {
    /// |measured − expected| ≤ tol
    Abs(f64),
    /// |measured − expected| ≤ tol·|expected|
    Rel(f64),
    /// measured ≤ expected (`expected` is an upper bound)
    AtMost,
    /// measured ≥ expected (`expected` is a lower bound)
    AtLeast,
}

impl Tolerance {
    /// Whether `measured` passes against `expected`. A NaN measurement never passes; an
    /// infinite one passes only if it equals `expected`.
    pub fn check(self, expected: f64, measured: f64) -> bool {
        if !measured.is_finite() && measured != expected {
            return false;
        }
        match self {
            Tolerance::Abs(t) => (measured - expected).abs() <= t,
            Tolerance::Rel(t) => (measured - expected).abs() <= t * expected.abs(),
            Tolerance::AtMost => measured <= expected,
            Tolerance::AtLeast => measured >= expected,
        }
    }
}

impl std::fmt::Display for Tolerance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tolerance::Abs(t) => write!(f, "±{t:.1e}"),
            Tolerance::Rel(t) if *t >= 1e-3 => write!(f, "±{:.3}%", t * 100.0),
            Tolerance::Rel(t) => write!(f, "±{t:.0e} rel"),
            Tolerance::AtMost => write!(f, "≤"),
            Tolerance::AtLeast => write!(f, "≥"),
        }
    }
}

/// One row of the validation table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Experiment id, e.g. `"T1b brick α=0.25"`.
    pub case: String,
    /// What is measured, e.g. `"acceleration [m/s²]"`.
    pub quantity: String,
    /// Expected value (paper, analytic formula or model notes).
    pub expected: f64,
    /// Measured value.
    pub measured: f64,
    /// Comparison rule.
    pub tolerance: Tolerance,
    /// Where the expected value comes from (e.g. `"docs/tracking.md T1b: g(sin α − μk cos α)"`).
    pub source: String,
    /// Whether the row passes.
    pub pass: bool,
}

impl Row {
    /// Builds a row and evaluates `pass`.
    pub fn new(
        case: impl Into<String>,
        quantity: impl Into<String>,
        expected: f64,
        measured: f64,
        tolerance: Tolerance,
        source: impl Into<String>,
    ) -> Self {
        let pass = tolerance.check(expected, measured);
        Row {
            case: case.into(),
            quantity: quantity.into(),
            expected,
            measured,
            tolerance,
            source: source.into(),
            pass,
        }
    }

    /// A boolean check (expected 1 = true).
    pub fn flag(
        case: impl Into<String>,
        quantity: impl Into<String>,
        ok: bool,
        source: impl Into<String>,
    ) -> Self {
        Row::new(case, quantity, 1.0, if ok { 1.0 } else { 0.0 }, Tolerance::Abs(0.0), source)
    }
}

/// Writes one titled section of rows to `out`: a table (header, one line per row), or with
/// `json` one JSON object per row and no header. An error of `out` (a closed pipe, as in
/// `validate --json | head`) is returned, not panicked on.
pub fn write_section(
    out: &mut impl std::io::Write,
    name: &str,
    rows: &[Row],
    json: bool,
) -> std::io::Result<()> {
    if json {
        for r in rows {
            let line = serde_json::to_string(r).map_err(std::io::Error::other)?;
            writeln!(out, "{line}")?;
        }
        return Ok(());
    }
    if rows.is_empty() {
        return Ok(());
    }
    let wc = rows.iter().map(|r| r.case.chars().count()).max().unwrap_or(4).max(4);
    let wq = rows.iter().map(|r| r.quantity.chars().count()).max().unwrap_or(8).max(8);
    writeln!(out, "\n== {name} ==")?;
    writeln!(
        out,
        "{:<wc$} {:<wq$} {:>14} {:>14} {:>10} {:>5}",
        "case", "quantity", "expected", "measured", "tol", "pass"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<wc$} {:<wq$} {:>14.7} {:>14.7} {:>10} {:>5}",
            r.case,
            r.quantity,
            r.expected,
            r.measured,
            r.tolerance.to_string(),
            if r.pass { "ok" } else { "FAIL" }
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that went away after `room` bytes: every later write fails as a closed pipe does.
    struct ClosedAfter {
        room: usize,
    }
    impl std::io::Write for ClosedAfter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn closed_pipe_is_an_error_not_a_panic() {
        let rows = vec![Row::new("a", "q", 1.0, 1.0, Tolerance::Abs(0.0), "s"); 50];
        for json in [false, true] {
            let e = write_section(&mut ClosedAfter { room: 100 }, "s", &rows, json).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe);
            let mut all = Vec::new();
            write_section(&mut all, "s", &rows, json).unwrap();
            // 50 rows, each one line; the table adds a blank line, the title and a header
            assert_eq!(String::from_utf8(all).unwrap().lines().count(), if json { 50 } else { 53 });
        }
    }

    #[test]
    fn tolerance_rules() {
        assert!(Tolerance::Rel(0.01).check(100.0, 100.9));
        assert!(!Tolerance::Rel(0.01).check(100.0, 101.1));
        assert!(Tolerance::Abs(1e-3).check(0.0, -9e-4));
        assert!(!Tolerance::Abs(1e-3).check(0.0, f64::NAN));
        assert!(Tolerance::AtMost.check(1.0, 0.5));
        assert!(!Tolerance::AtLeast.check(1.0, 0.5));
    }
}

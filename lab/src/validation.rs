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

#[cfg(test)]
mod tests {
    use super::*;

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

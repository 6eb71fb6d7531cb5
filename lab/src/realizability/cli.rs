//! Line evaluator behind the `trough` binary (ball in a right-angle trough, docs/realizability.md §4).
//!
//! Input line: `MU MX MY MZ` — friction coefficient and the dimensionless torques
//! `m = √2 M/(m g r)` of \[004\] (79), for a solid ball (`j = 2/5`). Output: one JSON object,
//! `{"realizable":bool,"transitions":[..],"margin":x}` where `transitions` lists the
//! transitions that can start (`"RS"`: the wall-`P⁻` contact starts to slip, `"SR"`: the
//! wall-`P⁺` contact, `"SS"`: both, `"LIFT+"`/`"LIFT-"`: the ball leaves the wall at `P⁺`/`P⁻`,
//! docs/realizability.md §3.11) and `margin` is the signed margin in units of `g` (positive ⇔
//! realizable). Every finite input with `μ ≥ 0` gets a verdict; malformed or out-of-range lines
//! give `{"error":"...","line":n}`.

use super::trough::{Trough, J_SOLID};
use serde_json::json;
use tribo::realizability::Status;

/// Parses `MU MX MY MZ` into `(μ, [m_x, m_y, m_z])`.
pub fn parse_trough_line(line: &str) -> Result<(f64, [f64; 3]), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(format!("expected 4 numbers `MU MX MY MZ`, got {} field(s)", fields.len()));
    }
    let mut v = [0.0; 4];
    for (i, f) in fields.iter().enumerate() {
        let x: f64 = f.parse().map_err(|_| format!("field {} ({f:?}) is not a number", i + 1))?;
        if !x.is_finite() {
            return Err(format!("field {} is not finite", i + 1));
        }
        v[i] = x;
    }
    if v[0] < 0.0 {
        return Err("friction coefficient must be non-negative".into());
    }
    Ok((v[0], [v[1], v[2], v[3]]))
}

/// Evaluates one input line (`line_no` is echoed in error objects) and returns one JSON
/// object without a trailing newline.
pub fn eval_trough_line(line: &str, line_no: usize) -> String {
    let err = |msg: String| json!({ "error": msg, "line": line_no }).to_string();
    let (mu, m) = match parse_trough_line(line) {
        Ok(x) => x,
        Err(e) => return err(e),
    };
    let t = Trough::new(mu, J_SOLID);
    let rep = match t.problem(m).realizability() {
        Ok(r) => r,
        Err(e) => return err(e.to_string()),
    };
    if rep.status == Status::IllPosed {
        return err(format!("ill-posed (no verdict): {}", rep.ill_posed_reasons.join("; ")));
    }
    let transitions: Vec<&str> = rep.transitions.iter().map(|t| t.as_str()).collect();
    // Fixed key order: realizable, transitions, margin.
    format!(
        "{{\"realizable\":{},\"transitions\":{},\"margin\":{}}}",
        rep.realizable,
        json!(transitions),
        json!(rep.margin / t.g)
    )
}

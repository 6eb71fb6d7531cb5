//! Line evaluator of the `contensou` example: `PRESSURE R MU P UX UY W [MODEL]` →
//! one JSON object per line.
//!
//! * `PRESSURE`: `uniform` | `hertz`
//! * `R`: patch radius (m) · `MU`: friction coefficient · `P`: normal force (N)
//! * `UX UY`: slip velocity of the body point at the patch centre (m/s) · `W`: spin (rad/s)
//! * `MODEL` (optional): `exact` (default) | `linear` | `harmonic1` … `harmonic6` |
//!   `pade` (\[B\]'s `m = 2, b = 1`) | `pade:M:B` | `smooth` (`eps_reg = 1e-4` m/s, `η = 1`)
//!   | `smooth:EPS:ETA`
//!
//! Output: `{"qx":..,"qy":..,"tz":..}` — force (N) and torque (N·m) on the body. At zero slip
//! and spin with a non-smooth model the law is set-valued; the output is then zero with
//! `"stick":true`. Errors: `{"error":"...","line":n}`.

use tribo::contensou::{ContensouError, Model, Patch, Pressure, Smooth};

/// Minimal JSON string escaping.
fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// JSON number (finite values only reach here; `-0` is printed as `0`). Rust's `Debug`
/// form of `f64` (shortest round-trip, exponent for very large/small) is valid JSON.
fn json_num(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else {
        format!("{x:?}")
    }
}

fn error_json(msg: &str, line: usize) -> String {
    format!("{{\"error\":{},\"line\":{line}}}", json_str(msg))
}

/// Parses a model name (see the module docs).
pub fn parse_model(s: &str) -> Result<Model, String> {
    let lower = s.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split(':').collect();
    let num = |t: &str, what: &str| t.parse::<f64>().map_err(|_| format!("bad {what} '{t}' in model '{s}'"));
    let m = match parts.as_slice() {
        ["exact"] => Model::Exact,
        ["linear"] => Model::Linear,
        ["pade"] => Model::PADE_KUDRA,
        ["pade", m, b] => Model::Pade { m: num(m, "m")?, b: num(b, "b")? },
        ["smooth"] => Model::Smooth(Smooth::new(1e-4, 1.0).map_err(|e| e.to_string())?),
        ["smooth", e, eta] => {
            Model::Smooth(Smooth::new(num(e, "eps_reg")?, num(eta, "eta")?).map_err(|e| e.to_string())?)
        }
        [h] if h.starts_with("harmonic") => {
            let n: u8 = h["harmonic".len()..].parse().map_err(|_| format!("bad harmonic degree in '{s}'"))?;
            Model::Harmonic(n)
        }
        _ => return Err(format!("unknown model '{s}'")),
    };
    m.validate().map_err(|e: ContensouError| e.to_string())?;
    Ok(m)
}

/// Evaluates one input line (1-based number `line_no` for error reports) and returns one JSON
/// object (without a trailing newline). Empty lines and lines starting with `#` return `None`.
pub fn eval_line_numbered(input: &str, line_no: usize) -> Option<String> {
    let t = input.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    Some(match eval_inner(t) {
        Ok(s) => s,
        Err(e) => error_json(&e, line_no),
    })
}

/// Evaluates one input line (reported as line 1 on error). See the module docs for the format.
pub fn eval_line(input: &str) -> String {
    eval_line_numbered(input, 1).unwrap_or_else(|| error_json("empty line", 1))
}

fn eval_inner(t: &str) -> Result<String, String> {
    let f: Vec<&str> = t.split_whitespace().collect();
    if f.len() < 7 || f.len() > 8 {
        return Err(format!("expected 'PRESSURE R MU P UX UY W [MODEL]', got {} fields", f.len()));
    }
    let pressure = match f[0].to_ascii_lowercase().as_str() {
        "uniform" => Pressure::Uniform,
        "hertz" => Pressure::Hertz,
        other => return Err(format!("unknown pressure '{other}' (uniform|hertz)")),
    };
    let names = ["R", "MU", "P", "UX", "UY", "W"];
    let mut v = [0.0; 6];
    for i in 0..6 {
        v[i] =
            f[i + 1].parse::<f64>().map_err(|_| format!("{} is not a number: '{}'", names[i], f[i + 1]))?;
    }
    let model = if f.len() == 8 { parse_model(f[7])? } else { Model::Exact };
    let patch = Patch::new(v[0], v[1], v[2], pressure).map_err(|e| e.to_string())?;
    match patch.resultant(&model, [v[3], v[4]], v[5]) {
        Ok(l) if !(l.force[0].is_finite() && l.force[1].is_finite() && l.torque.is_finite()) => {
            Err("result overflows f64".to_string())
        }
        Ok(l) => Ok(format!(
            "{{\"qx\":{},\"qy\":{},\"tz\":{}}}",
            json_num(l.force[0]),
            json_num(l.force[1]),
            json_num(l.torque)
        )),
        Err(ContensouError::Stick) => Ok("{\"qx\":0,\"qy\":0,\"tz\":0,\"stick\":true}".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

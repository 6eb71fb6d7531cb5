//! The `trough` example's line evaluator (`MU MX MY MZ` → JSON).

use serde_json::Value;
use tribo_lab::realizability::cli::{eval_trough_line, parse_trough_line};

fn eval(line: &str) -> Value {
    serde_json::from_str(&eval_trough_line(line, 7)).expect("valid JSON")
}

fn transitions(v: &Value) -> Vec<String> {
    v["transitions"].as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect()
}

#[test]
fn verdicts_match_spec_table() {
    // docs/realizability.md §7.2 B5/B9 rows (μ = 0.3, j = 2/5).
    let v = eval("0.3 0.2 0.1 0.3");
    assert_eq!(v["realizable"], Value::Bool(true));
    assert!(transitions(&v).is_empty());
    assert!(v["margin"].as_f64().unwrap() > 0.0);
    let v = eval("0.3 0.5 -0.5 0.2");
    assert_eq!(v["realizable"], Value::Bool(false));
    assert_eq!(transitions(&v), vec!["SR", "SS"]);
    assert!(v["margin"].as_f64().unwrap() < 0.0);
    assert_eq!(transitions(&eval("0.3 0 0 0.6")), vec!["SS"]);
    assert_eq!(transitions(&eval("0.3 0.1 0.3 -0.2")), vec!["RS"]);
    assert_eq!(transitions(&eval("0.3 -0.124 0.434 0")), vec!["RS"]);
    // Fixed key order.
    assert!(eval_trough_line("  0.3\t0.2 0.1 0.3 ", 1)
        .starts_with("{\"realizable\":true,\"transitions\":[],\"margin\":"));
}

#[test]
fn margin_sign_matches_verdict() {
    let mut s: u64 = 0xfeed_beef_dead_c0de;
    for _ in 0..300 {
        let mut r = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let line = format!("{} {} {} {}", 0.1 + 0.8 * r(), 2.0 * r() - 1.0, 2.0 * r() - 1.0, 1.8 * r() - 0.9);
        let v = eval(&line);
        let real = v["realizable"].as_bool().unwrap();
        let m = v["margin"].as_f64().unwrap();
        assert_eq!(real, m > 0.0, "{line}: {v}");
        assert_eq!(real, transitions(&v).is_empty());
    }
}

#[test]
fn malformed_lines_give_error_objects() {
    for bad in
        ["", "foo", "0.3 1 2", "0.3 1 2 3 4", "0.3 nan 0 0", "0.3 inf 0 0", "-0.1 0 0 0", "0.3 0x1 0 0"]
    {
        let v = eval(bad);
        assert!(v["error"].is_string(), "{bad:?}: {v}");
        assert_eq!(v["line"], Value::from(7));
    }
    assert_eq!(parse_trough_line("0.5 1e-3 -2 0.25"), Ok((0.5, [1e-3, -2.0, 0.25])));
}

/// Every finite input with 0 < μ ≤ 2 gets a verdict (docs/realizability.md §3.11): μ ≥ 1 (normal
/// forces vanishing or negative in some two-point slip limits) and |m_z| ≥ 1 (a one-point slip
/// would need a pulling normal force) included. The margin's sign matches the verdict.
#[test]
fn every_physical_input_gets_a_verdict() {
    let mut s: u64 = 0x0123_4567_89ab_cdef;
    let mut lines: Vec<String> = vec![
        "1 0 0 0".into(),
        "1.2 0 0 0".into(),
        "2 0 0 0".into(),
        "0.3 0 0 1.5".into(),
        "0.5 0 0 1.05".into(),
        "0.5 0 0 -1.05".into(),
        "1.2 0 0 -1.05".into(),
        "1 0 0 1".into(),
        "1 0 0 -1".into(),
        "0.001 3 -2 0.5".into(),
    ];
    for _ in 0..400 {
        let mut r = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let mu = 1e-3 + (2.0 - 1e-3) * r();
        lines.push(format!("{mu} {} {} {}", 6.0 * r() - 3.0, 6.0 * r() - 3.0, 4.0 * r() - 2.0));
    }
    for line in &lines {
        let v = eval(line);
        let real = v["realizable"].as_bool().unwrap_or_else(|| panic!("{line}: {v}"));
        let m = v["margin"].as_f64().unwrap_or_else(|| panic!("{line}: {v}"));
        assert!(m.is_finite());
        if m != 0.0 {
            assert_eq!(real, m > 0.0, "{line}: {v}");
        }
        if real {
            assert!(transitions(&v).is_empty(), "{line}: {v}");
        } else {
            assert!(!transitions(&v).is_empty(), "{line}: {v}");
        }
        for t in transitions(&v) {
            assert!(["RS", "SR", "SS", "LIFT+", "LIFT-"].contains(&t.as_str()), "{line}: {v}");
        }
    }
    // Lift-off: with μ = 1.2 and m_z = ∓1.05 the ball rolls up one wall and leaves the other
    // (docs/realizability.md §3.11); the torque about the trough axis must exceed the weight's
    // moment, |m_z| > 1, and the kept wall must hold the rolling friction (j + |m_z|)/(1 + j)·G.
    assert_eq!(transitions(&eval("1.2 0 0 -1.05")), vec!["LIFT-"]);
    assert_eq!(transitions(&eval("1.2 0 0 1.05")), vec!["LIFT+"]);
}

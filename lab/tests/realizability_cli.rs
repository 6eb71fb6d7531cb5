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
    // Ill-posed inputs (μ ≥ 1 makes a normal force vanish in an SS limit; |m_z| ≥ 1 lifts a
    // contact) are reported as errors, not verdicts.
    assert!(eval("1.2 0 0 0")["error"].as_str().unwrap().contains("ill-posed"));
    assert!(eval("0.3 0 0 1.5")["error"].is_string());
    assert_eq!(parse_trough_line("0.5 1e-3 -2 0.25"), Ok((0.5, [1e-3, -2.0, 0.25])));
}

//! The line evaluator behind the `contensou` binary (`tribo_lab::contensou::cli`).

use serde_json::Value;
use std::f64::consts::PI;
use tribo::contensou::Model;
use tribo_lab::contensou::cli::{eval_line, eval_line_numbered, parse_model};

fn parse(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("invalid JSON '{s}': {e}"))
}

#[test]
fn evaluates_exact_law_in_si_units() {
    // uniform, R = 0.05, μ = 0.5, P = 100: slip 0.1 m/s along x, ω = 2 rad/s ⇒ ε = 1:
    // Q = −μP·8/(3π) along x, T = −μPκ·4/(3π) with κ = 2R/3 (key results of the model notes).
    let v = parse(&eval_line("uniform 0.05 0.5 100 0.1 0 2"));
    let qx = v["qx"].as_f64().unwrap();
    let tz = v["tz"].as_f64().unwrap();
    assert!((qx + 50.0 * 8.0 / (3.0 * PI)).abs() < 1e-12);
    assert_eq!(v["qy"].as_f64().unwrap(), 0.0);
    assert!((tz + 50.0 * (0.1 / 3.0) * 4.0 / (3.0 * PI)).abs() < 1e-12);
    // explicit model names are accepted, case-insensitively
    let w = parse(&eval_line("UNIFORM 0.05 0.5 100 0.1 0 2 Exact"));
    assert_eq!(v, w);
    // Hertz pure slide along y: Coulomb −μP
    // harmonic N = 2 at pure slide gives C1 = 1.042465397 (Hertz, ρ = κ; docs/contensou.md §3.2 table)
    let v = parse(&eval_line("hertz 0.001 0.3 10 0 -0.5 0 harmonic2"));
    assert!((v["qy"].as_f64().unwrap() - 3.0 * 1.042465397).abs() < 1e-8);
    let v = parse(&eval_line("hertz 0.001 0.3 10 0 -0.5 0"));
    assert!((v["qy"].as_f64().unwrap() - 3.0).abs() < 1e-12);
}

#[test]
fn every_model_name_parses_and_gives_json() {
    for m in [
        "exact",
        "linear",
        "harmonic1",
        "harmonic2",
        "harmonic3",
        "harmonic4",
        "pade",
        "pade:1:0.664",
        "smooth",
        "smooth:1e-3:1.5",
    ] {
        let v = parse(&eval_line(&format!("uniform 0.05 0.5 100 0.1 0.02 2 {m}")));
        assert!(v["qx"].as_f64().unwrap() < 0.0 && v["tz"].as_f64().unwrap() < 0.0, "{m}");
    }
    assert_eq!(parse_model("pade").unwrap(), Model::PADE_KUDRA);
}

#[test]
fn stick_and_errors() {
    let v = parse(&eval_line("uniform 0.05 0.5 100 0 0 0"));
    assert_eq!(v["stick"], Value::Bool(true));
    let v = parse(&eval_line("uniform 0.05 0.5 100 0 0 0 smooth"));
    assert_eq!(v["qx"].as_f64(), Some(0.0));
    for (bad, what) in [
        ("granite 0.05 0.5 100 0.1 0 2", "pressure"),
        ("uniform 0.05 0.5 100 0.1 0", "fields"),
        ("uniform 0.05 zz 100 0.1 0 2", "MU"),
        ("uniform -1 0.5 100 0.1 0 2", "radius"),
        ("uniform 0.05 0.5 100 nan 0 2", "finite"),
        ("uniform 0.05 0.5 100 0.1 0 2 harmonic9", "harmonic"),
        ("uniform 0.05 0.5 100 0.1 0 2 cubic", "unknown model"),
        ("uniform 0.05 0.5 100 0.1 0 2 smooth:1e-3:0.5", "eta"),
        // μP overflows f64: an error object, never `inf`/`NaN` (invalid JSON) in the output
        ("uniform 0.05 1e200 1e200 0.1 0 2", "mu*normal_force"),
    ] {
        let s = eval_line_numbered(bad, 7).unwrap();
        let v = parse(&s);
        assert_eq!(v["line"].as_u64(), Some(7), "{bad}");
        assert!(v["error"].as_str().unwrap().contains(what), "{bad}: {s}");
    }
    assert_eq!(eval_line_numbered("   ", 3), None);
    assert_eq!(eval_line_numbered("# comment", 3), None);
}

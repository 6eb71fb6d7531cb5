//! Regression values of the two-contact realizability analysis (docs/realizability.md §3.8–3.9).
//!
//! These are **not** physics expectations (the physics is asserted against analytic values and
//! the paper in `realizability_two.rs`, `realizability_trough.rs` and the unit tests). They are
//! the verdicts and margins the analysis produced on a fixed sample of inputs before its torus
//! scan was optimised for speed, stored in `tests/data/realizability_regression.txt`, and they
//! pin that the optimisation changes no verdict and no margin by more than 1e-9: status,
//! transitions, the overall margin, the RS / SR / SS margins and the number of SS limit
//! directions of every sample.
//!
//! The sample: ball-in-trough problems (`Trough::problem`) over μ ∈ {0.1, …, 1.5} with random
//! torques `|m_i| ≤ 1.2`, and random two-contact bodies (V-shaped supports with random inertia,
//! loads, spin and curvature), all from fixed seeds.
//!
//! Regenerate (only when the analysis is meant to change its answers):
//! `TRIBO_REGEN_REGRESSION=1 cargo test --release -p tribo_lab --test realizability_regression`.

use tribo::realizability::TwoContactProblem;
use tribo_lab::realizability::trough::Trough;

mod common;
use common::{random_v_body, Rng};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/realizability_regression.txt");

/// A random body in a V-shaped support (as in `realizability_two.rs`), μ up to 1.2.
fn random_body(rng: &mut Rng) -> TwoContactProblem {
    random_v_body(rng, (0.05, 1.2), 0.6, 0.4)
}

fn samples() -> Vec<(String, TwoContactProblem)> {
    let mut out = Vec::new();
    let mut rng = Rng(0x5eed_16b0);
    for &mu in &[0.1, 0.3, 0.5, 0.8, 1.0, 1.5] {
        let trough = Trough::new(mu, 0.4);
        out.push((format!("trough mu={mu} m=0"), trough.problem([0.0; 3])));
        for i in 0..40 {
            let m = [rng.range(-1.2, 1.2), rng.range(-1.2, 1.2), rng.range(-1.2, 1.2)];
            out.push((format!("trough mu={mu} #{i}"), trough.problem(m)));
        }
    }
    out.push(("trough bench".into(), Trough::new(0.3, 0.4).problem([0.2, 0.1, 0.3])));
    for i in 0..300 {
        out.push((format!("body #{i}"), random_body(&mut rng)));
    }
    out
}

/// One record: `status transitions margin rs ss sr n_dirs` (floats in full precision).
fn record(pb: &TwoContactProblem) -> String {
    match pb.realizability() {
        Err(e) => format!("error {e:?}"),
        Ok(r) => {
            let tr: Vec<&str> = r.transitions.iter().map(|t| t.as_str()).collect();
            let tr = if tr.is_empty() { "-".to_string() } else { tr.join(",") };
            format!(
                "{:?} {} {:e} {:e} {:e} {:e} {}",
                r.status,
                tr,
                r.margin,
                r.rs.margin,
                r.sr.margin,
                r.ss.margin,
                r.ss.directions.len()
            )
        }
    }
}

fn close(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x == y || (x - y).abs() <= 1e-9 * y.abs().max(1.0),
        _ => false,
    }
}

#[test]
fn verdicts_and_margins_match_stored_values() {
    let got: Vec<(String, String)> = samples().into_iter().map(|(n, pb)| (n, record(&pb))).collect();
    if std::env::var_os("TRIBO_REGEN_REGRESSION").is_some() {
        let text: String = got.iter().map(|(n, r)| format!("{n}\t{r}\n")).collect();
        std::fs::create_dir_all(std::path::Path::new(DATA).parent().unwrap()).unwrap();
        std::fs::write(DATA, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(DATA).expect("reference data file");
    let want: Vec<(&str, &str)> =
        text.lines().map(|l| l.split_once('\t').expect("name<TAB>record")).collect();
    assert_eq!(want.len(), got.len(), "sample count");
    let mut bad = Vec::new();
    for ((wn, wr), (gn, gr)) in want.iter().zip(&got) {
        assert_eq!(*wn, gn.as_str(), "sample order");
        let (wf, gf): (Vec<&str>, Vec<&str>) = (wr.split(' ').collect(), gr.split(' ').collect());
        if wf.len() != gf.len() || !wf.iter().zip(&gf).all(|(w, g)| close(g, w)) {
            bad.push(format!("{wn}: want {wr}, got {gr}"));
        }
    }
    assert!(bad.is_empty(), "{} of {} samples differ:\n{}", bad.len(), got.len(), bad.join("\n"));
    // The sample covers every verdict.
    for s in ["Realizable", "NotRealizable"] {
        assert!(want.iter().any(|(_, r)| r.starts_with(s)), "no {s} sample");
    }
}

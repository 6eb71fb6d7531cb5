//! Key numbers of docs/realizability.md §7 as validation rows (the tests assert the same quantities).

use super::trough::{max_acceleration, mz1, mz3, to_paper_coords, Trough};
use crate::validation::{Row, Tolerance};
use glam::{DMat3, DVec3};
use std::f64::consts::SQRT_2;
use tribo::realizability::{BilateralConstraint, PlanarLimitField, SingleContactProblem};

const G: f64 = 9.81;

/// Bisection for the switch point of a monotone predicate (`ok(lo)`, `!ok(hi)`).
fn threshold(mut lo: f64, mut hi: f64, ok: impl Fn(f64) -> bool) -> f64 {
    for _ in 0..50 {
        let m = 0.5 * (lo + hi);
        if ok(m) {
            lo = m
        } else {
            hi = m
        }
    }
    0.5 * (lo + hi)
}

fn wheel() -> SingleContactProblem {
    let (m, rho, mu, md, ms, w2, w3) = (2.0, 0.3, 0.5, 0.7, 0.2, 4.0, 1.5);
    let (t1, t2, n) = (DVec3::X, DVec3::Y, DVec3::Z);
    SingleContactProblem::new(
        m,
        DMat3::from_diagonal(DVec3::new(m * rho * rho / 4.0, m * rho * rho / 2.0, m * rho * rho / 4.0)),
        n * rho,
        DVec3::ZERO,
        n,
        mu,
    )
    .with_tangent(t1)
    .with_omega(t2 * w2 + n * w3)
    .with_curvature_radius(DMat3::from_cols(t1 * rho, DVec3::ZERO, DVec3::ZERO))
    .with_loads(-n * (m * G), t2 * md + n * ms)
    .with_constraint(BilateralConstraint { lin: DVec3::ZERO, ang: t1, rhs: -w2 * w3 })
}

pub(crate) fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    // --- single contact -------------------------------------------------------------
    wheel_rows(&mut out);
    sphere_rows(&mut out);
    // --- ball in the trough ------------------------------------------------------------
    let t = Trough::new(0.3, 0.4);
    trough_direction_rows(&mut out, &t);
    trough_special_value_rows(&mut out, &t);
    out.push(trough_oracle_sweep_row());
    out
}

/// S3 wheel: the generic solve in SI units, the limit directions of the paper's table, and the
/// critical drive moment at ω = 0.
fn wheel_rows(out: &mut Vec<Row>) {
    let rel = Tolerance::Rel(1e-9);
    match wheel().analyze() {
        Ok(r) => {
            let f = r.uncoupled.unwrap_or(PlanarLimitField { m: [[f64::NAN; 2]; 2], c: [f64::NAN; 2] });
            let src = "docs/realizability.md §7.1 S3 / (003:68): A1 = −3μg, B2 = −μg, C1 = −2M_d/(mρ), C2 = −ρω2ω3, N = mg";
            out.push(Row::new("S3 wheel SI (generic solve)", "A1 [m/s²]", -14.715, f.m[0][0], rel, src));
            out.push(Row::new("S3 wheel SI (generic solve)", "B2 [m/s²]", -4.905, f.m[1][1], rel, src));
            out.push(Row::new("S3 wheel SI (generic solve)", "C1 [m/s²]", -7.0 / 3.0, f.c[0], rel, src));
            out.push(Row::new("S3 wheel SI (generic solve)", "C2 [m/s²]", -1.8, f.c[1], rel, src));
            out.push(Row::new(
                "S3 wheel SI (generic solve)",
                "N [N]",
                19.62,
                r.normal_force_rolling,
                rel,
                src,
            ));
        }
        Err(_) => out.push(Row::flag(
            "S3 wheel SI (generic solve)",
            "analysis ok",
            false,
            "docs/realizability.md §7.1 S3",
        )),
    }
    let tab = PlanarLimitField::principal(-3.0, -1.0, 0.3, 1.2).analyze();
    let rep = tab.directions.iter().find(|d| d.r > 0.0);
    out.push(Row::new(
        "S3 wheel (C1,C2)=(0.3,1.2), case IV",
        "repelling φ [deg]",
        84.62953,
        rep.map_or(f64::NAN, |d| d.phi.to_degrees()),
        Tolerance::Abs(1e-5),
        "docs/realizability.md §7.1 S3 table",
    ));
    out.push(Row::new(
        "S3 wheel (C1,C2)=(0.3,1.2), case IV",
        "repelling R [μg]",
        0.205291,
        rep.map_or(f64::NAN, |d| d.r),
        Tolerance::Abs(1e-6),
        "docs/realizability.md §7.1 S3 table",
    ));
    out.push(Row::new(
        "S3 wheel (C1,C2)=(0.3,1.2), case IV",
        "number of limit directions",
        4.0,
        tab.directions.len() as f64,
        Tolerance::Abs(0.0),
        "docs/realizability.md §7.1 S3 table",
    ));
    // Corrected special drive moment: rolling lost at |M_d| = 1.5 μ m g ρ (not 3).
    let md_crit = threshold(0.0, 3.0, |x| {
        let mut w = wheel();
        w.omega = DVec3::ZERO;
        w.applied_torque = DVec3::Y * (x * 0.5 * 2.0 * G * 0.3);
        w.constraints[0].rhs = 0.0;
        w.analyze().map(|r| r.rolling_realizable).unwrap_or(false)
    });
    out.push(Row::new(
        "S3 wheel ω = 0",
        "critical |M_d| [μ m g ρ]",
        1.5,
        md_crit,
        Tolerance::Abs(1e-7),
        "docs/realizability.md §5.2 (corrected from the paper's 3)",
    ));
}

/// S4 solid sphere: the principal sliding acceleration A1.
fn sphere_rows(out: &mut Vec<Row>) {
    let rel = Tolerance::Rel(1e-9);
    let (m, rho, mu) = (3.0, 0.2, 0.4);
    if let Ok(r) = SingleContactProblem::new(
        m,
        DMat3::IDENTITY * (0.4 * m * rho * rho),
        DVec3::Z * rho,
        DVec3::ZERO,
        DVec3::Z,
        mu,
    )
    .with_loads(DVec3::new(5.0, 0.0, -m * G), DVec3::ZERO)
    .analyze()
    {
        let a1 = r.principal.map_or(f64::NAN, |p| p.a1);
        out.push(Row::new(
            "S4 solid sphere",
            "A1 [m/s²]",
            -3.5 * mu * G,
            a1,
            rel,
            "docs/realizability.md §7.1 S4: −μg(1 + 1/j)",
        ));
    }
}

/// Ball in the trough (μ = 0.3, j = 0.4), B2–B5: the RR acceleration, the RS/SR slip
/// accelerations and the SS limit directions for three drive moments.
fn trough_direction_rows(out: &mut Vec<Row>, t: &Trough) {
    let rel = Tolerance::Rel(1e-9);
    let m = [0.2, 0.1, 0.3];
    match t.problem(m).realizability() {
        Ok(r) => {
            out.push(Row::new(
                "B2 trough RR m=(0.2,0.1,0.3)",
                "v̇ [m/s²]",
                0.385373195746668,
                r.rr.acc_com.z,
                rel,
                "docs/realizability.md §7.2 B2 / (004:78)",
            ));
            for (i, (q, v)) in
                [("u̇1⁻(σ=+1)", -5.970531868389457), ("u̇1⁻(σ=−1)", 11.42080992252091)].into_iter().enumerate()
            {
                out.push(Row::new(
                    "B3 trough RS m=(0.2,0.1,0.3)",
                    format!("{q} [m/s²]"),
                    v,
                    r.rs.slip_acc[i],
                    rel,
                    "docs/realizability.md §7.2 B3 (corrected §4.4)",
                ));
            }
            for (i, (q, v)) in
                [("u̇1⁺(σ=+1)", -8.646122913144897), ("u̇1⁺(σ=−1)", 0.7184457434991467)].into_iter().enumerate()
            {
                out.push(Row::new(
                    "B3 trough SR m=(0.2,0.1,0.3)",
                    format!("{q} [m/s²]"),
                    v,
                    r.sr.slip_acc[i],
                    rel,
                    "docs/realizability.md §7.2 B3 (corrected §4.4)",
                ));
            }
            let rt: Vec<f64> =
                r.ss.directions.iter().map(|d| to_paper_coords(d.d, d.r).1 * SQRT_2 / G).collect();
            let mx = rt.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            out.push(Row::new(
                "B5 trough m=(0.2,0.1,0.3)",
                "max R̃ of SS limit directions",
                -0.118206,
                mx,
                Tolerance::Abs(2e-6),
                "docs/realizability.md §7.2 B5",
            ));
        }
        Err(_) => out.push(Row::flag("B2 trough", "analysis ok", false, "docs/realizability.md §7.2")),
    }
    if let Ok(r) = t.problem([0.5, -0.5, 0.2]).realizability() {
        let top = r.ss.directions.first().map_or(f64::NAN, |d| to_paper_coords(d.d, d.r).1 * SQRT_2 / G);
        out.push(Row::new(
            "B5 trough m=(0.5,−0.5,0.2)",
            "repelling R̃",
            0.099782,
            top,
            Tolerance::Abs(2e-6),
            "docs/realizability.md §7.2 B5",
        ));
        out.push(Row::flag(
            "B5 trough m=(0.5,−0.5,0.2)",
            "not realizable, transitions SR+SS",
            !r.realizable && r.transitions.len() == 2,
            "docs/realizability.md §7.2 B5",
        ));
    }
    if let Ok(r) = t.problem([0.0, 0.0, 0.6]).realizability() {
        let top = r.ss.directions.first().map_or(f64::NAN, |d| to_paper_coords(d.d, d.r).1 * SQRT_2 / G);
        out.push(Row::new(
            "B5 trough m=(0,0,0.6)",
            "pole R̃ (repelling)",
            0.123853,
            top,
            Tolerance::Abs(2e-6),
            "docs/realizability.md §7.2 B5",
        ));
    }
}

/// Ball in the trough, B7–B12: special values by bisection with the generic method, and the B9
/// moment that is possible but not realizable.
fn trough_special_value_rows(out: &mut Vec<Row>, t: &Trough) {
    // Special values by bisection with the generic method.
    let ok = |m: [f64; 3]| t.problem(m).realizability().map(|r| r.realizable).unwrap_or(false);
    let z3 = threshold(0.3, 0.9, |z| ok([0.0, 0.0, z]));
    out.push(Row::new(
        "B7 trough apex (μ=0.3)",
        "m_z3 (bisection)",
        mz3(0.3),
        z3,
        Tolerance::Abs(1e-6),
        "(004:90) 2μ/(1+μ²)",
    ));
    let corner = |z: f64| {
        // corner (s_a, s_b) = (+, −) of the slice at height z, shrunk by 1e-5
        let (mu, j) = (0.3, 0.4);
        let s = mu * ((1.0 + z) - (1.0 - z));
        let dd = mu * (1.0 + 2.0 * j) * (-(1.0 - z) - (1.0 + z));
        [0.99999 * 0.5 * (s + dd), 0.99999 * 0.5 * (s - dd), z]
    };
    let z1 = threshold(0.0, 0.4, |z| ok(corner(z)));
    out.push(Row::new(
        "B7 trough slice corner (μ=0.3)",
        "m_z1 (bisection)",
        mz1(0.3),
        z1,
        Tolerance::Abs(1e-4),
        "(004:90) 2μ²/(1+μ²)",
    ));
    let s_max = threshold(0.0, 1.0, |s| ok([s, -s, 0.0]));
    let vmax = t.rr_acceleration([s_max, -s_max, 0.0]);
    out.push(Row::new(
        "B8 trough drive torque",
        "max realizable v̇ [m/s²]",
        max_acceleration(0.3, G),
        vmax,
        Tolerance::Rel(1e-6),
        "(004:91) √2 μ g",
    ));
    if let Ok(r) = t.problem([-0.124, 0.434, 0.0]).realizability() {
        out.push(Row::new(
            "B9 trough m=(−0.124,0.434,0)",
            "η_RS",
            0.558 / 0.54,
            r.rr.eta_rs,
            Tolerance::Rel(1e-9),
            "docs/realizability.md §7.2 B9",
        ));
        out.push(Row::flag(
            "B9 trough m=(−0.124,0.434,0)",
            "possible but not realizable",
            r.rr.possible_interval.is_some() && !r.realizable,
            "docs/realizability.md §7.2 B9",
        ));
    }
    let mu_c = threshold(0.5, 0.1, |mu| {
        Trough::new(mu, 0.4).problem([0.0, 0.0, 0.5]).realizability().map(|r| r.realizable).unwrap_or(false)
    });
    out.push(Row::new(
        "B12 trough spin torque m_z=0.5",
        "critical μ",
        2.0 - 3f64.sqrt(),
        mu_c,
        Tolerance::Abs(1e-6),
        "docs/realizability.md §4.6: (1 − √(1 − m_z²))/m_z",
    ));
}

/// B10: the generic method against the closed-form oracle on random troughs and moments.
fn trough_oracle_sweep_row() -> Row {
    // B10 oracle sweep (reduced: 400 samples).
    let mut s: u64 = 0x1234_5678_9abc_def0;
    let mut rnd = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut n, mut bad) = (0, 0);
    while n < 400 {
        let mu = 0.1 + 0.8 * rnd();
        let j = 0.1 + 0.9 * rnd();
        let lim = 1.5 * mu * (1.0 + 2.0 * j);
        let m = [lim * (2.0 * rnd() - 1.0), lim * (2.0 * rnd() - 1.0), 2.0 * rnd() - 1.0];
        let tt = Trough::new(mu, j);
        let Ok(r) = tt.problem(m).realizability() else { continue };
        if r.margin.abs() < 1e-6 * r.accel_ref || !r.well_posed {
            continue;
        }
        let rs_d = mu * (1.0 + 2.0 * j) * (1.0 + m[2]) - (j * m[0] + (1.0 + j) * m[1]).abs();
        let sr_d = mu * (1.0 + 2.0 * j) * (1.0 - m[2]) - ((1.0 + j) * m[0] + j * m[1]).abs();
        if rs_d.abs() < 1e-6 || sr_d.abs() < 1e-6 {
            continue;
        }
        n += 1;
        if r.realizable != (rs_d > 0.0 && sr_d > 0.0 && tt.possible(m)) {
            bad += 1;
        }
    }
    Row::new(
        "B10 trough oracle sweep (400 samples)",
        "disagreements",
        0.0,
        bad as f64,
        Tolerance::AtMost,
        "docs/realizability.md §7.2 B10",
    )
}

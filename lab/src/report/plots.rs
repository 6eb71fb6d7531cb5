//! The report's figures. Each re-runs an experiment of the lab (the same functions the
//! validation rows use) and draws its time history with the checked numbers marked.

use plotters::prelude::*;
use tribo::contensou::{Model, Patch, Pressure};
use tribo::tracking::{Damping, Mode};

use super::chart::{Chart, DrawResult, Series, Style, EXPECTED, PALETTE, STOCK, TRIBO};
use crate::rapier::scenarios::{self as sc, Friction, SceneSample};
use crate::rapier::trough::{self as tr, Outcome, TroughConfig};
use crate::tracking::experiments::{self as tk, PlanarSample};

const W: u32 = 760;
const H: u32 = 420;

/// One figure of the report.
#[derive(Clone, Debug)]
pub struct Figure {
    /// File stem (`<id>.svg`).
    pub id: &'static str,
    /// Heading.
    pub title: String,
    /// What is plotted (with units) and which validation numbers it checks.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

fn fig(id: &'static str, title: &str, caption: String, chart: &Chart) -> DrawResult<Figure> {
    Ok(Figure { id, title: title.to_string(), caption, svg: chart.svg(W, H)? })
}

/// Shaded bands where `mode` is kinetic.
fn kinetic_bands(samples: &[PlanarSample], mode: impl Fn(&PlanarSample) -> Mode) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut start = None;
    for s in samples {
        match (mode(s), start) {
            (Mode::Kinetic, None) => start = Some(s.t),
            (Mode::Static, Some(t0)) => {
                out.push((t0, s.t));
                start = None;
            }
            _ => {}
        }
    }
    if let (Some(t0), Some(l)) = (start, samples.last()) {
        out.push((t0, l.t));
    }
    out
}

fn planar(samples: &[PlanarSample], t1: f64, f: impl Fn(&PlanarSample) -> f64) -> Vec<(f64, f64)> {
    samples.iter().filter(|s| s.t <= t1).map(|s| (s.t, f(s))).collect()
}

/// Paper T1: the brick on an incline (docs/tracking.md §7 T1).
pub fn brick() -> DrawResult<Vec<Figure>> {
    let crit = Damping::Fixed(2.0 * (1e5f64).sqrt());
    let damped = tk::brick(0.18, crit, 1.0)?;
    let undamped = tk::brick(0.18, Damping::Fixed(0.0), 1.0)?;
    let t1 = 0.12;
    let mut c = Chart::new(
        "T1a/T1b brick at α = 0.18 rad: friction force E_f(t)",
        "time t [s]",
        "elastic friction force E_f [N]",
    )
    .series(Series::new("T1a critically damped", TRIBO, Style::Line, planar(&damped.samples, t1, |s| s.ef)))
    .series(Series::new("T1b undamped", PALETTE[1], Style::Line, planar(&undamped.samples, t1, |s| s.ef)))
    .hline(tk::G * 0.18f64.sin(), "expected m g sin α = 1.7545 N (T1a)", EXPECTED)
    .hline(0.25 * undamped.n, "μs N (static limit)", PALETTE[2]);
    for (a, b) in kinetic_bands(&undamped.samples, |s| s.slide) {
        c = c.band(a, b, "T1b kinetic", PALETTE[1]);
    }
    let f1 = fig(
        "t1_brick_force",
        "Paper T1a/T1b: brick holding on a 0.18 rad incline",
        "Friction force E_f [N] over time t [s] for a 1 kg brick on an incline below atan μs \
         (μs = 0.25, μk = 0.2, K_E = 1e5 N/m). Shaded: the slide mode of the undamped run is \
         kinetic. Checks the rows T1a \"final E_f\" (m g sin α = 1.75449 N, dashed) and T1b \
         \"s→k/k→s time\" and \"E_f band\": the undamped brick overshoots μs N, slips briefly and \
         ends static."
            .into(),
        &c,
    )?;
    let alpha: f64 = 0.25;
    let slide = tk::brick(alpha, crit, 1.0)?;
    let a = -tk::G * (alpha.sin() - 0.2 * alpha.cos());
    let t_sk = slide.switches().iter().find(|s| s.1 == Mode::Kinetic).map_or(0.0, |s| s.0);
    let mut c =
        Chart::new("T1e brick at α = 0.25 rad: sliding velocity v(t)", "time t [s]", "velocity v [m/s]")
            .series(Series::new(
                "tribo reference integrator",
                TRIBO,
                Style::Line,
                planar(&slide.samples, 1.0, |s| s.v),
            ))
            .series(Series::new(
                "expected v = a (t − t_sk), a = −g(sin α − μk cos α) = −0.525 m/s²",
                EXPECTED,
                Style::Dashed,
                (0..=50)
                    .map(|i| t_sk + (1.0 - t_sk) * i as f64 / 50.0)
                    .map(|t| (t, a * (t - t_sk)))
                    .collect(),
            ))
            .vline(t_sk, "static → kinetic", PALETTE[1]);
    for (x0, x1) in kinetic_bands(&slide.samples, |s| s.slide) {
        c = c.band(x0, x1, "kinetic slide", PALETTE[1]);
    }
    let f2 = fig(
        "t1_brick_slide",
        "Paper T1e: brick sliding on a 0.25 rad incline",
        format!(
            "Velocity v [m/s] along the incline over time t [s]; the incline is steeper than \
             atan μs, so the brick breaks away at t_sk = {t_sk:.4} s and slides with kinetic \
             friction. Checks the rows T1e \"acceleration\" (a = {a:.4} m/s², paper 0.525) and \
             \"kinetic E_f\" (μk m g cos α)."
        ),
        &c,
    )?;
    Ok(vec![f1, f2])
}

/// Paper T2a: the disk rolling to a stop (docs/tracking.md §7 T2).
pub fn disk() -> DrawResult<Figure> {
    let t_k = 1600.0 * 0.2 * 49.0 / (2.0 * 0.2 * 1e5);
    let (ts, tp, d) = tk::disk_analytic(5.0, t_k);
    let r = tk::disk(5.0, 1.0, 14.0)?;
    let t1 = (tp * 1.15).min(14.0);
    let mut c = Chart::new("T2a disk, v0 = 5 m/s: slide then roll to a stop", "time t [s]", "speed [m/s]")
        .series(Series::new("centre velocity v", TRIBO, Style::Line, planar(&r.samples, t1, |s| s.v)))
        .series(Series::new(
            "rim speed R ω",
            PALETTE[1],
            Style::Line,
            planar(&r.samples, t1, |s| s.omega.abs() * tk::DISK_R),
        ))
        .vline(ts, format!("expected t* = {ts:.3} s"), EXPECTED)
        .vline(tp, format!("expected t_stop = {tp:.3} s"), EXPECTED);
    for (a, b) in kinetic_bands(&r.samples, |s| s.slide) {
        c = c.band(a, b, "slide kinetic", PALETTE[1]);
    }
    fig(
        "t2_disk",
        "Paper T2a: disk rolling on a plane",
        format!(
            "Centre velocity v and rim speed Rω [m/s] over time t [s] for the disk (m = 5 kg, \
             R = 0.2 m) launched sliding at 5 m/s without spin. Friction spins it up until \
             rolling (v = Rω) at t*; then the rolling torque stops it. Dashed: the analytic \
             piecewise solution. Checks the rows T2a \"t*\" ({ts:.4} s), \"t_stop\" ({tp:.4} s) and \
             \"distance\" ({d:.4} m; measured {:.4} m).",
            r.last().x
        ),
        &c,
    )
}

/// Paper T3a: sphere up a 35° incline, its four phases (docs/tracking.md §7 T3a).
pub fn sphere35() -> DrawResult<Figure> {
    let r = tk::sphere_incline(35.0, 0.3, 1.0, 0.5, tk::DT, 1.0)?;
    let t1 = 0.3;
    let mut c = Chart::new(
        "T3a sphere rolling up a 35° incline (η_r = 0.3): phases I–IV",
        "time t [s]",
        "speed [m/s]",
    )
    .series(Series::new(
        "centre velocity v (up-slope +)",
        TRIBO,
        Style::Line,
        planar(&r.samples, t1, |s| s.v),
    ))
    .series(Series::new(
        "R ω",
        PALETTE[1],
        Style::Line,
        planar(&r.samples, t1, |s| s.omega * tk::SPHERE_R),
    ));
    for (a, b) in kinetic_bands(&r.samples, |s| s.slide) {
        c = c.band(a, b, "slide k", PALETTE[1]);
    }
    for (t, l) in [(0.0487, "I→II"), (0.0748, "roll→s"), (0.0833, "roll→k"), (0.0909, "III→IV")] {
        c = c.vline(t, l, EXPECTED);
    }
    fig(
        "t3_sphere35",
        "Paper T3a: sphere up a 35° incline",
        "Centre velocity v and Rω [m/s] over time t [s] for the sphere (m = 5 kg, R = 0.2 m) \
         launched up a 35° incline at 0.5 m/s without spin. Shaded: kinetic slide. Dashed \
         verticals: the expected switch times of the rows T3a \"I→II slide→s\" (0.0487 s), \
         \"roll→s (reversal)\" (0.0748 s), \"roll→k\" (0.0833 s) and \"III→IV slide→k\" (0.0909 s), \
         ±2 ms; the phase order I→II→III→IV is the row \"phase order\" (paper Fig. 11)."
            .into(),
        &c,
    )
}

/// Paper T4: spinning spheres spinning down (docs/tracking.md §7 T4).
pub fn spin_down() -> DrawResult<Figure> {
    let mut c = Chart::new("T4 spinning sphere: spin-down ω(t) for four η_ψ", "time t [s]", "spin ω [rad/s]");
    for (i, (eta, stop)) in
        [(0.012, 3.3029), (0.010, 3.9736), (0.008, 4.9811), (0.006, 6.6628)].iter().enumerate()
    {
        let r = tk::spinning_sphere_heuristic(*eta, 8.0)?;
        let col = PALETTE[i];
        c = c
            .series(Series::new(
                format!("η_ψ = {eta}"),
                col,
                Style::Line,
                r.samples.iter().map(|s| (s.t, s.omega)).collect(),
            ))
            .vline(*stop, format!("{stop} s"), col);
    }
    fig(
        "t4_spin_down",
        "Paper T4: spin-down of a spinning sphere",
        "Spin ω [rad/s] about the contact normal over time t [s] for the sphere of T3/T4 with the \
         heuristic spin model at four η_ψ. The kinetic slope is −η_ψ μk N/(𝒦 I) (rows T4 \"kinetic \
         slope\"); dashed verticals mark the expected first ω ≤ 0 of the rows T4 \"first ω ≤ 0\" \
         (±0.02 s), after which ω overshoots slightly below 0 and settles (row \"min ω\")."
            .into(),
        &c,
    )
}

/// RK4 trajectory of the disc's slip–spin ratio ε against the spin decay `ln(q0/q)` in the fast
/// time of docs/contensou.md §4.1 (`dε/dτ = kε𝒯 − a𝒬`, `d ln q/dτ = −k𝒯`).
fn eps_trajectory(model: &Model, eps0: f64, decades: f64) -> Vec<(f64, f64)> {
    let prob = crate::contensou::experiments::PlaneProblem::disc(*model);
    let (a, k) = (prob.a, prob.k);
    let qt = |e: f64| {
        if e > 1.0 {
            prob.patch.reduced(model, 1.0, 1.0 / e)
        } else {
            prob.patch.reduced(model, e.max(0.0), 1.0)
        }
    };
    let f = |e: f64| {
        let (q, t) = qt(e);
        (k * e * t - a * q, -k * t)
    };
    let (mut e, mut lnq) = (eps0, 0.0f64);
    let h = 2e-3;
    let mut out = vec![(0.0, e)];
    let mut i = 0;
    while -lnq < decades * std::f64::consts::LN_10 && i < 200_000 {
        let (k1, l1) = f(e);
        let (k2, l2) = f(e + 0.5 * h * k1);
        let (k3, l3) = f(e + 0.5 * h * k2);
        let (k4, l4) = f(e + h * k3);
        e += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        lnq += h / 6.0 * (l1 + 2.0 * l2 + 2.0 * l3 + l4);
        e = e.max(0.0);
        i += 1;
        if i % 10 == 0 {
            out.push((-lnq / std::f64::consts::LN_10, e));
        }
    }
    out
}

/// Contensou: the disc's ε-convergence and the approximations' accuracy (docs/contensou.md §3, §4.1).
pub fn contensou() -> DrawResult<Vec<Figure>> {
    let (eps_star, _) = crate::contensou::experiments::disc_terminal_ratio();
    let mut c = Chart::new(
        "Contensou disc: slip/spin ratio ε while slide and spin decay",
        "spin decay log10(q0/q) [decades]",
        "ε = |u|/(R|ω|) [-]",
    );
    c.y_range = Some((0.0, 2.05));
    for (i, e0) in [0.05, 0.3, 1.0, 2.0].iter().enumerate() {
        c = c.series(Series::new(
            if i == 0 { "exact law, ε0 = 0.05, 0.3, 1, 2".to_string() } else { String::new() },
            TRIBO,
            Style::Line,
            eps_trajectory(&Model::Exact, *e0, 4.0),
        ));
    }
    c = c
        .series(Series::new(
            "harmonic N=2, ε0 = 1",
            PALETTE[2],
            Style::Line,
            eps_trajectory(&Model::Harmonic(2), 1.0, 4.0),
        ))
        .series(Series::new(
            "linear ρ=κ, ε0 = 1",
            PALETTE[1],
            Style::Line,
            eps_trajectory(&Model::Linear, 1.0, 4.0),
        ))
        .hline(eps_star, format!("ε* = {eps_star:.6} (exact)"), EXPECTED)
        .hline(0.4939, "0.4939 (harmonic N=2)", PALETTE[2]);
    let f1 = fig(
        "contensou_eps",
        "Contensou disc: ε converges to ε* (slide and spin stop together)",
        format!(
            "Slip/spin ratio ε = |u|/(R|ω|) [-] of the free disc (uniform pressure) against the \
             spin decay log10(q0/q) [decades], integrated by RK4 in the fast time of \
             docs/contensou.md §4.1. With the exact law every start converges to \
             ε* = {eps_star:.6}, the root of 𝒬(ε) = (4/3)ε𝒯(ε) (row \"C-disc exact eps*\", \
             0.653001789, and \"terminal eps\" of the free stop); harmonic N = 2 goes to 0.4939; \
             the linear model drives ε to 0 (wrongly pure spin; row \"terminal eps → 0\")."
        ),
        &c,
    )?;
    let u = Patch::new(1.0, 1.0, 1.0, Pressure::Uniform)?;
    let models: [(&str, Model, f64, f64); 6] = [
        ("linear ρ=κ", Model::Linear, 0.1227, 0.1506),
        ("harmonic N=1", Model::Harmonic(1), 0.105, 0.139),
        ("harmonic N=2", Model::Harmonic(2), 0.062, 0.072),
        ("harmonic N=4", Model::Harmonic(4), 0.015, 0.028),
        ("Padé m=2 b=1", Model::PADE_KUDRA, 0.143, 0.305),
        ("Padé m=1 b=0.664", Model::Pade { m: 1.0, b: 0.664 }, 0.260, 0.260),
    ];
    let mut out = vec![f1];
    for (which, id) in [(0usize, "contensou_accuracy_q"), (1usize, "contensou_accuracy_t")] {
        let name = if which == 0 { "force 𝒬" } else { "torque 𝒯" };
        let mut c = Chart::new(
            format!("Contensou approximations, uniform disc: error of the reduced {name}"),
            "slip direction ψ = atan2(Rω, u) [deg]",
            format!("|Δ{}| vs exact [-]", if which == 0 { "𝒬" } else { "𝒯" }),
        );
        let mut sups = Vec::new();
        for (i, (label, m, eq, et)) in models.iter().enumerate() {
            let pts: Vec<(f64, f64)> = (0..=400)
                .map(|j| {
                    let psi = 0.5 * std::f64::consts::PI * j as f64 / 400.0;
                    let (s, q) = (psi.cos().max(0.0), psi.sin());
                    let ex = u.reduced(&Model::Exact, s, q);
                    let ap = u.reduced(m, s, q);
                    let d = if which == 0 { (ex.0 - ap.0).abs() } else { (ex.1 - ap.1).abs() };
                    (psi.to_degrees(), d)
                })
                .collect();
            let exp = if which == 0 { *eq } else { *et };
            sups.push(format!("{label}: {exp}"));
            c = c.series(Series::new(format!("{label} (sup {exp})"), PALETTE[i], Style::Line, pts));
        }
        out.push(fig(
            id,
            &format!("Contensou approximations: accuracy of the {name}"),
            format!(
                "Absolute error of each approximation's reduced {name} [-] (units of μN, resp. \
                 μNR) against the exact law, over the slip direction ψ [deg] from pure slide \
                 (0°) to pure spin (90°), uniform pressure. The largest value of each curve is \
                 checked by the rows \"C-accuracy … sup |d{}| vs exact\" (±0.002): {}.",
                if which == 0 { "Q" } else { "T" },
                sups.join(", ")
            ),
            &c,
        )?);
    }
    Ok(out)
}

/// The trough's realizability region in the `m_z = 0` slice with rapier outcomes as dots.
pub fn trough() -> DrawResult<Figure> {
    let cfg = TroughConfig::new(Friction::Tribo);
    let an = cfg.analytic();
    let runs: Vec<_> = tr::grid().into_iter().filter(|m| m[2] == 0.0).map(|m| tr::run(&cfg, m)).collect();
    let agree = runs.iter().filter(|r| r.agrees_on_rolling()).count();
    let matches = runs.iter().filter(|r| (r.outcome == Outcome::RR) == r.analytic_realizable).count();
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (W, 560)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Ball in a trough, μ = 0.3, m_z = 0: realizable region and rapier+tribo outcomes",
                ("sans-serif", 15),
            )
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.75f64..0.75f64, -0.75f64..0.75f64)?;
        chart
            .configure_mesh()
            .x_desc("torque m_x = √2 M_x/(m g r) [-]")
            .y_desc("torque m_y = √2 M_y/(m g r) [-]")
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        let n = 150;
        let h = 1.5 / n as f64;
        // One rectangle per column: the realizable cells of a column are one run (the region
        // is convex).
        let mut cells = Vec::new();
        for i in 0..n {
            let x = -0.75 + (i as f64 + 0.5) * h;
            let inside: Vec<f64> = (0..n)
                .map(|k| -0.75 + (k as f64 + 0.5) * h)
                .filter(|&y| {
                    let m = [x, y, 0.0];
                    an.rs_ok(m) && an.sr_ok(m) && an.possible(m)
                })
                .collect();
            if let (Some(lo), Some(hi)) = (inside.first(), inside.last()) {
                cells.push(Rectangle::new(
                    [(x - 0.5 * h, lo - 0.5 * h), (x + 0.5 * h, hi + 0.5 * h)],
                    PALETTE[2].mix(0.25).filled(),
                ));
            }
        }
        chart
            .draw_series(cells)?
            .label("analytic: rolling realizable (RS_ok ∧ SR_ok ∧ possible)")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], PALETTE[2].mix(0.25).filled()));
        for (o, col, label) in [
            (Outcome::RR, PALETTE[2], "sim: kept rolling (RR)"),
            (Outcome::RS, PALETTE[1], "sim: P⁻ slipped (RS)"),
            (Outcome::SR, PALETTE[3], "sim: P⁺ slipped (SR)"),
            (Outcome::SS, BLACK, "sim: both slipped (SS)"),
        ] {
            chart
                .draw_series(
                    runs.iter()
                        .filter(|r| r.outcome == o)
                        .map(|r| Circle::new((r.m[0], r.m[1]), 5, col.filled())),
                )?
                .label(label)
                .legend(move |(x, y)| Circle::new((x + 7, y), 5, col.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.6))
            .border_style(BLACK.mix(0.4))
            .label_font(("sans-serif", 12))
            .draw()?;
        root.present()?;
    }
    Ok(Figure {
        id: "trough_slice",
        title: "Realizability: ball in a right-angle trough".into(),
        caption: format!(
            "Slice m_z = 0 of the dimensionless external torque (m_x, m_y) [-] on a ball resting in \
             a horizontal right-angle trough (μ = 0.3, solid ball j = 0.4). Green area: where \
             two-point rolling is realizable by the closed form of docs/realizability.md §4 (the \
             parallelogram with corners ±(0.3, 0.3), ±(0.54, −0.54)). Dots: what the rapier scene \
             with tribo friction did over 0.3 s (dt = 1/480) for each torque of the 15 × 15 grid. \
             In this slice the outcome matches the closed form (RR inside, slip outside) in \
             {matches}/{} runs and tribo's diagnostic predicted rolling-or-not in {agree}/{} \
             (the rows \"rapier ball in trough … agreement\" count the whole 1125-torque grid, \
             excluding runs within 0.02 g of the boundary).",
            runs.len(),
            runs.len()
        ),
        svg: buf,
    })
}

fn scene_series(name: &str, c: RGBColor, rec: &[SceneSample], f: impl Fn(&SceneSample) -> f64) -> Series {
    Series::new(name, c, Style::Line, rec.iter().map(|s| (s.t, f(s))).collect())
}

/// The rapier scenes as tribo vs stock vs analytic curves.
pub fn rapier_scenes() -> DrawResult<Vec<Figure>> {
    let dt = 1.0 / 60.0;
    let mut out = Vec::new();
    // Ball rolling on flat ground.
    let (mut rt, mut rs) = (Vec::new(), Vec::new());
    let tribo = sc::ball_rolling_recorded(2.0, 0.0, dt, Friction::Tribo, 12.0, &mut rt);
    sc::ball_rolling_recorded(2.0, 0.0, dt, Friction::Stock, 12.0, &mut rs);
    let d_exp = sc::ball_rolling_expected(2.0);
    let decel = 4.0 / (2.0 * d_exp);
    let t_stop = 2.0 / decel;
    let t_end = rt.last().map_or(12.0, |s| s.t).min(rs.last().map_or(12.0, |s| s.t));
    let analytic = |f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64)> {
        (0..=120).map(|i| t_end * i as f64 / 120.0).map(|t| (t, f(t))).collect()
    };
    type Curve = (&'static str, &'static str, &'static str, fn(&SceneSample) -> f64, Box<dyn Fn(f64) -> f64>);
    let curves: Vec<Curve> = vec![
        (
            "rapier_ball_distance",
            "distance",
            "m",
            |s| s.distance,
            Box::new(move |t: f64| {
                let t = t.min(t_stop);
                2.0 * t - 0.5 * decel * t * t
            }),
        ),
        (
            "rapier_ball_speed",
            "speed",
            "m/s",
            |s| s.speed,
            Box::new(move |t: f64| (2.0 - decel * t).max(0.0)),
        ),
    ];
    for (id, q, unit, f, an) in curves {
        let c = Chart::new(
            format!("rapier scene: ball rolled at 2 m/s on flat ground, {q}"),
            "time t [s]",
            format!("{q} [{unit}]"),
        )
        .series(scene_series("tribo", TRIBO, &rt, f))
        .series(scene_series("stock rapier", STOCK, &rs, f))
        .series(Series::new("analytic (rolling resistance)", EXPECTED, Style::Dashed, analytic(&*an)))
        .vline(t_stop, format!("expected stop {t_stop:.2} s"), EXPECTED);
        let mut c = c;
        c.x_range = Some((0.0, t_end));
        out.push(fig(
            id,
            &format!("rapier: rolling ball, {q}"),
            format!(
                "Ball (R = 0.2 m, μs = 0.6, μk = 0.5, η_r = 0.05) rolled without slip at 2 m/s on \
                 flat ground, dt = 1/60 s: {q} [{unit}] over time t [s]. Stock rapier has no \
                 rolling resistance, so its ball rolls on. Dashed: constant deceleration \
                 a = T_k R/(I + m R²) = {decel:.4} m/s² (docs/tracking.md §3.3). Checks the row \
                 \"S2 ball rolling from 2 m/s, stopping distance\" (expected {d_exp:.4} m; tribo measured {:.4} m).",
                tribo.distance
            ),
            &c,
        )?);
    }
    // Spinning ball.
    let (mut st, mut ss) = (Vec::new(), Vec::new());
    sc::spinning_ball_recorded(10.0, dt, Friction::Tribo, 3.0, &mut st);
    sc::spinning_ball_recorded(10.0, dt, Friction::Stock, 3.0, &mut ss);
    let ts = sc::spinning_ball_expected(10.0);
    let mut c = Chart::new(
        "rapier scene: ball spinning at 10 rad/s about the vertical",
        "time t [s]",
        "spin |ω| [rad/s]",
    )
    .series(scene_series("tribo", TRIBO, &st, |s| s.spin))
    .series(scene_series("stock rapier", STOCK, &ss, |s| s.spin))
    .series(Series::new(
        "analytic ω0 (1 − t/t_stop)",
        EXPECTED,
        Style::Dashed,
        (0..=60).map(|i| 3.0 * i as f64 / 60.0).map(|t| (t, (10.0 * (1.0 - t / ts)).max(0.0))).collect(),
    ))
    .vline(ts, format!("expected stop {ts:.3} s"), EXPECTED);
    c.y_range = Some((-0.5, 10.8));
    out.push(fig(
        "rapier_spin",
        "rapier: spinning ball",
        format!(
            "Spin |ω| [rad/s] over time t [s] of a ball (R = 0.2 m) spinning about the vertical on \
             flat ground, dt = 1/60 s. rapier's point contact has no spin friction, so the stock \
             ball spins on. Dashed: constant spin torque η_ψ μk N R, stop at I ω0/T = {ts:.4} s; \
             checks the row \"S4 sphere spinning at 10 rad/s, stop time\"."
        ),
        &c,
    )?);
    // Brick on a slope between atan μk and atan μs.
    let alpha = 0.4f64;
    let mut recs = Vec::new();
    for (push, fr) in
        [(0.0, Friction::Tribo), (0.0, Friction::Stock), (1.0, Friction::Tribo), (1.0, Friction::Stock)]
    {
        let mut r = Vec::new();
        sc::brick_on_slope_recorded(alpha as f32, push, 0.0, dt, fr, 3.0, &mut r);
        recs.push(r);
    }
    let a_k = 9.81 * (alpha.sin() - 0.3 * alpha.cos());
    let mut c = Chart::new(
        "rapier scene: brick on a 0.4 rad slope (atan μk < α < atan μs)",
        "time t [s]",
        "down-slope displacement [m]",
    )
    .series(scene_series("tribo, pushed at 1 m/s", TRIBO, &recs[2], |s| s.distance))
    .series(scene_series("stock, pushed at 1 m/s", STOCK, &recs[3], |s| s.distance))
    .series(scene_series("tribo, at rest", PALETTE[2], &recs[0], |s| s.distance))
    .series(scene_series("stock, at rest", PALETTE[5], &recs[1], |s| s.distance))
    .series(Series::new(
        format!("analytic pushed: t + a t²/2, a = g(sin α − μk cos α) = {a_k:.3} m/s²"),
        EXPECTED,
        Style::Dashed,
        (0..=60).map(|i| 3.0 * i as f64 / 60.0).map(|t| (t, t + 0.5 * a_k * t * t)).collect(),
    ));
    c.x_range = Some((0.0, 3.0));
    out.push(fig(
        "rapier_brick",
        "rapier: brick on a slope between the friction angles",
        format!(
            "Down-slope displacement [m] over time t [s] of a brick (μs = 0.5, μk = 0.3) on a \
             0.4 rad slope, dt = 1/60 s: at rest it holds (static friction, both engines); pushed \
             at 1 m/s, tribo switches to kinetic friction and accelerates at g(sin α − μk cos α) \
             = {a_k:.3} m/s² (dashed; row \"S1 brick pushed, atan μk < α=0.4 < atan μs, acceleration\"), while stock rapier \
             keeps one coefficient (μ = μs) and brakes the brick to rest."
        ),
        &c,
    )?);
    Ok(out)
}

/// All figures, in report order.
pub fn all() -> DrawResult<Vec<Figure>> {
    let mut v = brick()?;
    v.push(disk()?);
    v.push(sphere35()?);
    v.push(spin_down()?);
    v.extend(contensou()?);
    v.push(trough()?);
    v.extend(rapier_scenes()?);
    Ok(v)
}

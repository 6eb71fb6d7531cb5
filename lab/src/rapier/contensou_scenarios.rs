//! Rapier scenes of the Contensou contact model ([`tribo_rapier::contensou`]), shared by the tests
//! (`tests/contensou_*.rs`) and [`validation_rows`].
//!
//! The body is a thin homogeneous puck (cylinder of radius [`PUCK_RADIUS`], half-height
//! [`PUCK_HALF_HEIGHT`], axis vertical) lying on its face on flat ground, μs = μk = [`PUCK_MU`],
//! g = 9.81. A rigid flat face on a rigid plane is the flat-punch case of docs/contensou.md §4.1: **uniform
//! pressure** over the whole face (patch radius = puck radius, `κ = 2R/3`), and a cylinder's
//! axial moment of inertia is `½ m R²` whatever its height, so `j = 1/2` — exactly the disc
//! problem of docs/contensou.md §4.1 whose exact terminal ratio is `ε* = 0.653001789`.

use crate::contensou::experiments::{disc_terminal_ratio, PlaneProblem};
use crate::rapier::scenarios::{steps, Friction, Sim};
use crate::validation::{Row, Tolerance};
use tribo::tracking::Material;
use tribo_rapier::contensou::{Contensou, Model, Pressure};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::FrictionMaterial;

/// Puck radius (m).
pub const PUCK_RADIUS: f32 = 0.1;
/// Puck half-height (m).
pub const PUCK_HALF_HEIGHT: f32 = 0.01;
/// Friction coefficient of the puck (μs = μk).
pub const PUCK_MU: f64 = 0.3;
/// Gravity (m/s²).
pub const G: f64 = 9.81;

/// Friction of a puck scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PuckFriction {
    /// tribo with the Contensou contact model and this law (uniform pressure, radius = puck
    /// radius).
    Contensou(Model),
    /// tribo without the Contensou model: independent slide (tribo μ) and spin (rapier's twist
    /// friction of the multi-point manifold) limits.
    Independent,
    /// Stock rapier friction (μ = [`PUCK_MU`]).
    Stock,
}

/// The puck material (μs = μk = [`PUCK_MU`]).
pub fn puck_material() -> Material {
    Material::new(PUCK_MU, PUCK_MU).expect("valid")
}

/// The Contensou model of the puck: flat face of radius [`PUCK_RADIUS`], uniform pressure.
pub fn puck_contensou(model: Model) -> Contensou {
    Contensou::flat(PUCK_RADIUS as f64).expect("valid").with_model(model).expect("valid model")
}

/// A world with ground and one puck at rest on its face, spinning at `omega` (rad/s, about +y)
/// and moving at `v` (m/s, along +x). `extra_spin_inertia` (kg·m²) is added to the axial
/// moment of inertia (0 for a homogeneous puck). Returns the sim and the puck body.
pub fn puck_scene(
    v: f32,
    omega: f32,
    extra_spin_inertia: f32,
    dt: f32,
    friction: PuckFriction,
) -> (Sim, RigidBodyHandle) {
    let mode = if friction == PuckFriction::Stock { Friction::Stock } else { Friction::Tribo };
    let mut sim = Sim::new(Vector::new(0.0, -G as f32, 0.0), dt, mode);
    sim.add_ground(50.0);
    let mut body = RigidBodyBuilder::dynamic()
        .translation(Vector::new(0.0, PUCK_HALF_HEIGHT, 0.0))
        .linvel(Vector::new(v, 0.0, 0.0))
        .angvel(Vector::new(0.0, omega, 0.0))
        .can_sleep(false);
    if extra_spin_inertia > 0.0 {
        body = body.additional_mass_properties(MassProperties::new(
            Vector::ZERO,
            0.0,
            Vector::splat(extra_spin_inertia),
        ));
    }
    let b = sim.world.bodies.insert(body);
    let collider =
        ColliderBuilder::cylinder(PUCK_HALF_HEIGHT, PUCK_RADIUS).density(1000.0).friction(PUCK_MU as f32);
    let c = sim.world.colliders.insert_with_parent(collider, b, &mut sim.world.bodies);
    let m = puck_material();
    if let Some(t) = &mut sim.tribo {
        let fm = match friction {
            PuckFriction::Contensou(model) => {
                FrictionMaterial::Tribo(m).with_contensou(puck_contensou(model)).expect("valid")
            }
            _ => FrictionMaterial::Tribo(m),
        };
        t.set_material(c, fm);
    }
    (sim, b)
}

/// Result of [`puck_stop`].
#[derive(Clone, Debug)]
pub struct PuckStopRun {
    /// First time (s) the centre speed `|u|` falls below [`STOP_SPEED`].
    pub t_slide_stop: f64,
    /// First time (s) the rim spin speed `R|ω|` falls below [`STOP_SPEED`].
    pub t_spin_stop: f64,
    /// Slip–spin ratio `ε = |u|/(R|ω|)` at the first step where
    /// `r = sqrt(|u|² + (κω)²)` has fallen to [`TERMINAL_R_FRACTION`] of its initial value.
    pub eps_terminal: f64,
    /// `r/r0` at that step.
    pub r_fraction: f64,
    /// `(t, |u|, R|ω|)` after every step.
    pub trace: Vec<(f64, f64, f64)>,
    /// Largest tilt of the puck axis from the vertical (rad).
    pub max_tilt: f64,
    /// Any NaN seen.
    pub nan: bool,
}

/// Speed (m/s) below which sliding or spinning counts as stopped.
pub const STOP_SPEED: f64 = 2e-3;
/// `r/r0` at which the terminal ratio is read.
pub const TERMINAL_R_FRACTION: f64 = 0.05;

/// The force-free puck: launched at `v0` (m/s) along x and spinning at `omega0` (rad/s),
/// simulated for `seconds`.
pub fn puck_stop(v0: f32, omega0: f32, dt: f32, friction: PuckFriction, seconds: f64) -> PuckStopRun {
    let (mut sim, b) = puck_scene(v0, omega0, 0.0, dt, friction);
    let r = PUCK_RADIUS as f64;
    let kappa = 2.0 / 3.0 * r;
    let rr = |s: f64, w: f64| (s * s + (kappa * w) * (kappa * w)).sqrt();
    let r0 = rr(v0 as f64, omega0 as f64);
    let mut out = PuckStopRun {
        t_slide_stop: f64::INFINITY,
        t_spin_stop: f64::INFINITY,
        eps_terminal: f64::NAN,
        r_fraction: f64::NAN,
        trace: Vec::new(),
        max_tilt: 0.0,
        nan: false,
    };
    for _ in 0..steps(seconds, dt) {
        sim.step();
        let rb = sim.body(b);
        let v = rb.linvel();
        let s = (v.x as f64).hypot(v.z as f64);
        let w = rb.angvel().y as f64;
        out.nan |= !(s.is_finite() && w.is_finite());
        let axis = rb.rotation() * Vector::Y;
        out.max_tilt = out.max_tilt.max((axis.y as f64).clamp(-1.0, 1.0).acos());
        out.trace.push((sim.time, s, r * w.abs()));
        if s < STOP_SPEED && out.t_slide_stop.is_infinite() {
            out.t_slide_stop = sim.time;
        }
        if r * w.abs() < STOP_SPEED && out.t_spin_stop.is_infinite() {
            out.t_spin_stop = sim.time;
        }
        if out.eps_terminal.is_nan() && rr(s, w) <= TERMINAL_R_FRACTION * r0 {
            out.eps_terminal = if w != 0.0 { s / (r * w.abs()) } else { f64::INFINITY };
            out.r_fraction = rr(s, w) / r0;
        }
    }
    out
}

/// Exact-model reference for [`puck_stop`] (docs/contensou.md §4.1 disc ODE, [`PlaneProblem::disc`]):
/// `(stop time in s, ε at r/r0 = r_fraction)` for the launch `(v0, omega0)`.
pub fn puck_stop_expected(v0: f64, omega0: f64, r_fraction: f64) -> (f64, f64) {
    puck_stop_expected_with(Model::Exact, v0, omega0, r_fraction)
}

/// As [`puck_stop_expected`] for another law (`ρ = κ` for the w-space models, as in the
/// adapter).
pub fn puck_stop_expected_with(model: Model, v0: f64, omega0: f64, r_fraction: f64) -> (f64, f64) {
    let p = PlaneProblem::disc(model);
    let (s0, q0) = (1.0, PUCK_RADIUS as f64 * omega0 / v0);
    let r0 = (s0 * s0 + (2.0 / 3.0 * q0) * (2.0 / 3.0 * q0)).sqrt();
    let end = p.stop(s0, q0, 1e-9 * r0);
    let at = p.stop(s0, q0, r_fraction * r0);
    // units: R = 1, μg = 1 and |u0| = 1 → t scales with |u0|/(μg)
    (end.t * v0 / (PUCK_MU * G), at.eps)
}

/// Result of [`puck_push`].
#[derive(Clone, Copy, Debug)]
pub struct PuckPushRun {
    /// Mean friction force on the puck along x over the window (N), `F − m a`.
    pub friction_force: f64,
    /// Mean of the model's `μN𝒬(ε)` over the same steps, with `ε` from the velocities at
    /// the start of each step and `N = m g` (N).
    pub model_force: f64,
    /// Mean sliding speed over the window (m/s).
    pub mean_speed: f64,
    /// Mean slip–spin ratio over the window.
    pub mean_eps: f64,
}

/// A spinning puck (ω0 about y, 100× its own axial inertia added so the spin stays nearly
/// constant) at rest, pushed along x by a constant force `force_ratio · μ m g` at its centre of
/// mass; the friction force is measured over t ∈ [0.5 s, 2 s].
pub fn puck_push(omega0: f32, force_ratio: f64, dt: f32, friction: PuckFriction) -> PuckPushRun {
    let m_puck = std::f64::consts::PI * (PUCK_RADIUS as f64).powi(2) * 2.0 * PUCK_HALF_HEIGHT as f64 * 1000.0;
    let i_axis = 0.5 * m_puck * (PUCK_RADIUS as f64).powi(2);
    let (mut sim, b) = puck_scene(0.0, omega0, (100.0 * i_axis) as f32, dt, friction);
    let m = sim.body(b).mass() as f64;
    let n = m * G;
    let f = force_ratio * PUCK_MU * n;
    sim.world.bodies[b].add_force(Vector::new(f as f32, 0.0, 0.0), true);
    let (i0, i1) = (steps(0.5, dt), steps(2.0, dt));
    let patch =
        tribo::contensou::Patch::new(PUCK_RADIUS as f64, PUCK_MU, n, Pressure::Uniform).expect("valid");
    let (mut ff, mut mf, mut sp, mut ep, mut cnt) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for k in 0..i1 {
        let rb = sim.body(b);
        let (vx0, s0, w0) =
            (rb.linvel().x as f64, (rb.linvel().x as f64).hypot(rb.linvel().z as f64), rb.angvel().y as f64);
        sim.step();
        if k >= i0 {
            let vx1 = sim.body(b).linvel().x as f64;
            ff += f - m * (vx1 - vx0) / dt as f64;
            mf += patch.limits(&Model::Exact, s0, w0).map_or(f64::NAN, |l| l.force);
            sp += s0;
            ep += s0 / (PUCK_RADIUS as f64 * w0.abs());
            cnt += 1.0;
        }
    }
    PuckPushRun { friction_force: ff / cnt, model_force: mf / cnt, mean_speed: sp / cnt, mean_eps: ep / cnt }
}

fn dt_name(dt: f32) -> &'static str {
    if dt > 0.01 {
        "1/60"
    } else {
        "1/240"
    }
}

/// Validation rows of the puck scenes at dt = 1/60 and 1/240: terminal ratio against ε* and
/// the exact ODE, simultaneous stop, stop time, the pushed spinning puck's friction force
/// against `μN𝒬(ε)`, and the independent-limits runs that must differ.
pub fn validation_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    let (eps_star, _) = disc_terminal_ratio();
    let (v0, w0) = (3.0f32, 30.0f32);
    for dt in [1.0 / 60.0, 1.0 / 240.0] {
        let d = dt_name(dt);
        let case = format!("rapier Contensou puck v0=3 m/s, ω0=30 rad/s (ε0=1), dt={d}");
        let on = puck_stop(v0, w0, dt, PuckFriction::Contensou(Model::Exact), 2.5);
        // the exact ODE at the r/r0 of the step where the rapier run crossed 0.05
        let (t_exp, eps_exp) = puck_stop_expected(v0 as f64, w0 as f64, on.r_fraction);
        rows.push(Row::new(
            &case,
            "terminal ε (first step with r/r0 ≤ 0.05) vs ε*",
            eps_star,
            on.eps_terminal,
            Tolerance::Rel(0.10),
            "docs/contensou.md §4.1: ε* = 0.653001789 (exact, uniform disc)",
        ));
        rows.push(Row::new(
            &case,
            "terminal ε (first step with r/r0 ≤ 0.05) vs exact ODE at that r/r0",
            eps_exp,
            on.eps_terminal,
            Tolerance::Rel(0.05),
            "docs/contensou.md §4.1 disc ODE (crate::contensou::experiments)",
        ));
        rows.push(Row::new(
            &case,
            "stop time [s]",
            t_exp,
            on.t_slide_stop.max(on.t_spin_stop),
            Tolerance::Rel(0.05),
            "docs/contensou.md §4.1: τ(1)·v0/(μg), τ(1) = 1.340298",
        ));
        rows.push(Row::new(
            &case,
            "|t_slide_stop − t_spin_stop| [s]",
            2.0 * dt as f64,
            (on.t_slide_stop - on.t_spin_stop).abs(),
            Tolerance::AtMost,
            "docs/contensou.md §4.1: slide and spin stop together",
        ));
        for model in [Model::Harmonic(2), Model::Harmonic(4)] {
            let run = puck_stop(v0, w0, dt, PuckFriction::Contensou(model), 2.5);
            let (_, e) = puck_stop_expected_with(model, v0 as f64, w0 as f64, run.r_fraction);
            rows.push(Row::new(
                &case,
                format!("{model:?}: terminal ε vs the same law's disc ODE"),
                e,
                run.eps_terminal,
                Tolerance::Rel(0.05),
                "docs/contensou.md §3.2, §4.1 (ODE with the approximate law)",
            ));
        }
        let off = puck_stop(v0, w0, dt, PuckFriction::Independent, 2.5);
        rows.push(Row::new(
            format!("{case}, model off (independent limits)"),
            "|t_slide_stop − t_spin_stop| [s]",
            0.2,
            (off.t_slide_stop - off.t_spin_stop).abs(),
            Tolerance::AtLeast,
            "independent limits: spin stops first (t ≈ ω0R/(2μg) vs v0/(μg))",
        ));
        let case = format!("rapier Contensou puck spinning at 40 rad/s pushed by 0.5 μmg, dt={d}");
        let p = puck_push(40.0, 0.5, dt, PuckFriction::Contensou(Model::Exact));
        rows.push(Row::new(
            &case,
            "friction force [N] vs μN𝒬(ε)",
            p.model_force,
            p.friction_force,
            Tolerance::Rel(0.05),
            "docs/contensou.md §1.6 (53): |Q| = μP𝒬(ε)",
        ));
        let q = puck_push(40.0, 0.5, dt, PuckFriction::Independent);
        rows.push(Row::new(
            format!("{case}, model off"),
            "mean sliding speed [m/s]",
            1e-2,
            q.mean_speed,
            Tolerance::AtMost,
            "independent limits: 0.5 μmg < μmg, the puck sticks",
        ));
        let (t_exp, a_exp) = hertz_ball_spin_expected(10.0, 1.0e7);
        let (t, a) = hertz_ball_spin_stop(10.0, 1.0e7, dt, t_exp * 1.5);
        let case =
            format!("rapier Contensou ball R=0.1 m spinning at 10 rad/s, Hertz patch E*=1e7 Pa, dt={d}");
        rows.push(Row::new(&case, "patch radius [m]", a_exp, a, Tolerance::Rel(0.01), "a = (3NR/4E*)^(1/3)"));
        rows.push(Row::new(
            &case,
            "spin stop time [s]",
            t_exp,
            t,
            Tolerance::Rel(0.05),
            "I ω0/(μNκ), κ = 3πa/16 (docs/contensou.md §1.3)",
        ));
    }
    rows
}

/// Homogeneous ball (radius 0.1 m, density 1000) spinning about the vertical at `omega0`
/// (rad/s) on flat ground, Contensou model with a Hertz patch (`E* = e_star`, Hertz pressure,
/// exact law). Returns `(time at which |ω| < 0.01 rad/s, patch radius reported by the store)`.
pub fn hertz_ball_spin_stop(omega0: f32, e_star: f64, dt: f32, seconds: f64) -> (f64, f64) {
    let mut sim = Sim::new(Vector::new(0.0, -G as f32, 0.0), dt, Friction::Tribo);
    let ground = sim.add_ground(50.0);
    let b = sim.world.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.1, 0.0))
            .angvel(Vector::new(0.0, omega0, 0.0))
            .can_sleep(false),
    );
    let c = sim.world.colliders.insert_with_parent(
        ColliderBuilder::ball(0.1).density(1000.0),
        b,
        &mut sim.world.bodies,
    );
    let fm = FrictionMaterial::Tribo(puck_material().with_roll_eta(0.0).expect("valid"))
        .with_contensou(Contensou::hertz(Some(e_star)).expect("valid"))
        .expect("valid");
    if let Some(t) = &mut sim.tribo {
        t.set_material(c, fm);
    }
    let (mut t_stop, mut a) = (f64::INFINITY, f64::NAN);
    for _ in 0..steps(seconds, dt) {
        sim.step();
        if let Some(info) = sim.tribo.as_ref().and_then(|t| t.contensou_info(ground, c)) {
            a = info.patch_radius;
        }
        if sim.body(b).angvel().y.abs() < 0.01 && t_stop.is_infinite() {
            t_stop = sim.time;
        }
    }
    (t_stop, a)
}

/// Expected stop time and Hertz radius of [`hertz_ball_spin_stop`]: pure spin, torque
/// `μ N κ` with `κ = 3πa/16`, `a = (3 N R/(4E*))^{1/3}`, `N = m g`, `I = 0.4 m R²`
/// (docs/contensou.md §1.4 item 3, §1.3).
pub fn hertz_ball_spin_expected(omega0: f64, e_star: f64) -> (f64, f64) {
    let r = 0.1;
    let m = 4.0 / 3.0 * std::f64::consts::PI * r * r * r * 1000.0;
    let n = m * G;
    let a = (3.0 * n * r / (4.0 * e_star)).cbrt();
    let torque = PUCK_MU * n * 3.0 * std::f64::consts::PI * a / 16.0;
    (omega0 * 0.4 * m * r * r / torque, a)
}

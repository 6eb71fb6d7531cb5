//! A wheelset on two rails in rapier: a second two-contact scene for the realizability
//! diagnostic (docs/realizability.md §3, §3.11), with two contacts of different curvature.
//!
//! ## Scene
//! One rigid body made of two balls (the wheels, radii [`WheelsetConfig::wheel_radius`],
//! density 1000) whose centres sit on the body's `x` axis at `±gauge/2`: the axle. Each wheel
//! rests on a fixed rail, a capsule along the track (`z`) of radius
//! [`WheelsetConfig::rail_radius`], placed so that the contact normal (from the rail axis to the
//! wheel centre) leans toward the track centre by [`WheelsetConfig::contact_angle`] (the
//! gravitational stiffness of coned wheels). Wheel and rail radii differ between the two
//! sides, so the relative curvatures of the two contacts differ. Gravity `−g ŷ`.
//!
//! After [`WheelsetConfig::settle`] seconds at rest a constant load is applied at the centre of
//! mass: a lateral force `f m g x̂`, a yaw torque `m_y m g (gauge/2) ŷ` and a drive torque about
//! the axle `d m g r̄ x̂` (`r̄` the mean wheel radius).
//!
//! ## Prediction and measurement
//! As for the ball in the trough ([`crate::rapier::trough`]): right after the load is set,
//! [`tribo_rapier::diagnostics::body_realizability`] gives the verdict from rapier's data;
//! then the slip velocity of each wheel at its contact point and the gap between each wheel and
//! its rail are measured for [`WheelsetConfig::duration`] seconds. The run agrees with the
//! prediction when the wheelset keeps rolling at a realizable load, or at a non-realizable load
//! slips along a predicted escape direction (within [`WheelsetConfig::angle_tol`] degrees) or
//! leaves exactly the rails whose lift-off was predicted.

use crate::rapier::scenarios::{steps, Friction, Sim};
use crate::rapier::trough::{classify, Agreement, Outcome};
use tribo::realizability::Transition;
use tribo::tracking::{Material, SpinModel};
use tribo::DVec3;
use tribo_rapier::diagnostics::body_realizability;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::FrictionMaterial;

/// Parameters of a wheelset run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelsetConfig {
    /// Friction coefficient (μs = μk). Default 0.3.
    pub mu: f64,
    /// Distance between the wheel centres (m). Default 0.8.
    pub gauge: f32,
    /// Wheel (ball) radii `[P⁺ side (x > 0), P⁻ side (x < 0)]` (m). Default `[0.10, 0.14]`.
    pub wheel_radius: [f32; 2],
    /// Rail (capsule) radii `[P⁺ side, P⁻ side]` (m). Default `[0.02, 0.035]`.
    pub rail_radius: [f32; 2],
    /// Inclination of the contact normals toward the track centre (rad). Default 20°.
    pub contact_angle: f32,
    /// Gravitational acceleration (m/s²). Default 9.81.
    pub g: f32,
    /// Time step (s). Default 1/480.
    pub dt: f32,
    /// Time at rest before the load (s). Default 0.05.
    pub settle: f64,
    /// Observation time after the load onset (s). Default 0.3.
    pub duration: f64,
    /// Slip speed threshold (m/s), plus [`slip_rel`](Self::slip_rel) times the body speed.
    /// Default 0.01.
    pub slip_threshold: f64,
    /// Part of the slip threshold proportional to the body speed. Default 0.01.
    pub slip_rel: f64,
    /// Ratio rule of [`classify`] for a two-point slip. Default 0.25.
    pub ratio: f64,
    /// Largest angle between measured and predicted escape direction (deg). Default 30.
    pub angle_tol: f64,
    /// Gap between a wheel and its rail above which the contact counts as lifted (m).
    /// Default 0.002.
    pub lift_gap: f64,
    /// tribo or stock rapier friction.
    pub friction: Friction,
}

impl Default for WheelsetConfig {
    fn default() -> Self {
        WheelsetConfig {
            mu: 0.3,
            gauge: 0.8,
            wheel_radius: [0.10, 0.14],
            rail_radius: [0.02, 0.035],
            contact_angle: 20f32.to_radians(),
            g: 9.81,
            dt: 1.0 / 480.0,
            settle: 0.05,
            duration: 0.3,
            slip_threshold: 0.01,
            slip_rel: 0.01,
            ratio: 0.25,
            angle_tol: 30.0,
            lift_gap: 0.002,
            friction: Friction::Tribo,
        }
    }
}

impl WheelsetConfig {
    /// Default configuration with the given friction.
    pub fn new(friction: Friction) -> Self {
        WheelsetConfig { friction, ..Default::default() }
    }

    /// Unit contact normals (rail → wheel) `[n⁺, n⁻]`.
    pub fn normals(&self) -> [Vector; 2] {
        let (s, c) = self.contact_angle.sin_cos();
        [Vector::new(-s, c, 0.0), Vector::new(s, c, 0.0)]
    }

    /// Wheel centres at rest (world) `[x > 0, x < 0]`.
    pub fn wheel_centres(&self) -> [Vector; 2] {
        [Vector::new(0.5 * self.gauge, 0.0, 0.0), Vector::new(-0.5 * self.gauge, 0.0, 0.0)]
    }

    fn material(&self) -> Material {
        Material::new(self.mu, self.mu)
            .and_then(|m| m.with_roll_eta(0.0))
            .and_then(|m| m.with_spin(SpinModel::Off))
            .unwrap_or_else(|_| Material::new(0.3, 0.3).expect("valid"))
    }
}

/// Load on the wheelset: `[f, m_y, d]` (lateral force, yaw torque, drive torque; module docs).
pub type Load = [f64; 3];

/// Result of one wheelset run.
#[derive(Clone, Debug, PartialEq)]
pub struct WheelsetRun {
    /// The load.
    pub load: Load,
    /// Friction used.
    pub friction: Friction,
    /// The diagnostic's verdict (`None` without a report).
    pub predicted_realizable: Option<bool>,
    /// Predicted transitions, `P⁺` = the wheel at `x > 0`.
    pub predicted_transitions: Vec<Transition>,
    /// Predicted escape directions in the report's `(u1⁺, u1⁻, u_a)` coordinates.
    pub escape_directions: Vec<DVec3>,
    /// The diagnostic's signed margin (m/s²) (`NaN` if none).
    pub margin: f64,
    /// What the simulation did (first slip).
    pub outcome: Outcome,
    /// Measured unit slip direction `(u1⁺, u1⁻, u_a)` at the first slip.
    pub measured_direction: Option<DVec3>,
    /// Angle to the nearest predicted escape direction (deg).
    pub direction_error: f64,
    /// Angle tolerance (deg).
    pub angle_tol: f64,
    /// Largest slip speed at `P⁺` / `P⁻` (m/s).
    pub max_slip: [f64; 2],
    /// Largest gap between wheel and rail at `P⁺` / `P⁻` (m).
    pub max_gap: [f64; 2],
    /// Whether a wheel left its rail.
    pub lifted: [bool; 2],
    /// Non-finite state seen.
    pub nan: bool,
}

impl WheelsetRun {
    /// Agreement of simulation and prediction (module docs).
    pub fn agrees(&self) -> bool {
        super::trough::agrees(
            self.predicted_realizable,
            &self.predicted_transitions,
            self.lifted,
            self.outcome,
            self.direction_error <= self.angle_tol,
        )
    }

    /// Agreement on "keeps rolling on both rails or not" only.
    pub fn agrees_on_rolling(&self) -> bool {
        super::trough::agrees_on_rolling(self.predicted_realizable, self.outcome, self.lifted)
    }
}

fn to_d(v: Vector) -> DVec3 {
    DVec3::new(v.x as f64, v.y as f64, v.z as f64)
}

/// Builds the scene (rails, wheelset) and lets it settle. Returns the world and the body.
pub fn scene(cfg: &WheelsetConfig) -> (Sim, RigidBodyHandle) {
    let mut sim = Sim::new(Vector::new(0.0, -cfg.g, 0.0), cfg.dt, cfg.friction);
    let normals = cfg.normals();
    let centres = cfg.wheel_centres();
    for k in 0..2 {
        let axis = centres[k] - normals[k] * (cfg.wheel_radius[k] + cfg.rail_radius[k]);
        let rail = sim.world.bodies.insert(RigidBodyBuilder::fixed().translation(axis));
        sim.world.colliders.insert_with_parent(
            ColliderBuilder::capsule_z(3.0, cfg.rail_radius[k]).friction(cfg.mu as f32),
            rail,
            &mut sim.world.bodies,
        );
    }
    let material = cfg.material();
    let body = sim.world.bodies.insert(RigidBodyBuilder::dynamic().can_sleep(false));
    for (radius, centre) in cfg.wheel_radius.into_iter().zip(centres) {
        let c = sim.world.colliders.insert_with_parent(
            ColliderBuilder::ball(radius).translation(centre).density(1000.0).friction(cfg.mu as f32),
            body,
            &mut sim.world.bodies,
        );
        if let Some(t) = &mut sim.tribo {
            t.set_material(c, FrictionMaterial::Tribo(material));
        }
    }
    for _ in 0..steps(cfg.settle, cfg.dt) {
        sim.step();
    }
    (sim, body)
}

/// Applies the load `[f, m_y, d]` (replacing earlier user forces).
pub fn apply_load(sim: &mut Sim, body: RigidBodyHandle, cfg: &WheelsetConfig, load: Load) {
    let Some(b) = sim.world.bodies.get_mut(body) else { return };
    let mg = b.mass() * cfg.g;
    let rbar = 0.5 * (cfg.wheel_radius[0] + cfg.wheel_radius[1]);
    b.reset_forces(true);
    b.reset_torques(true);
    b.add_force(Vector::new(load[0] as f32 * mg, 0.0, 0.0), true);
    b.add_torque(Vector::new(load[2] as f32 * mg * rbar, load[1] as f32 * mg * 0.5 * cfg.gauge, 0.0), true);
}

/// Runs the wheelset under one load.
pub fn run(cfg: &WheelsetConfig, load: Load) -> WheelsetRun {
    let (mut sim, body) = scene(cfg);
    apply_load(&mut sim, body, cfg, load);
    let store = sim.tribo.take().unwrap_or_default();
    let report = body_realizability(
        body,
        &sim.world.bodies,
        &sim.world.colliders,
        &sim.world.narrow_phase,
        sim.world.gravity,
        &store,
    );
    if cfg.friction == Friction::Tribo {
        sim.tribo = Some(store);
    }
    let normals = cfg.normals().map(to_d);
    let mut predicted_realizable = None;
    let mut predicted_transitions = Vec::new();
    let mut escape_directions = Vec::new();
    let mut margin = f64::NAN;
    // Report frame (P⁺ = wheel at x > 0) and the contact points at onset.
    let b0 = sim.body(body);
    let c0 = to_d(b0.center_of_mass());
    let mut frame: Option<([DVec3; 2], DVec3, [DVec3; 2], bool)> = None;
    if let Some(rep) = &report {
        if let Ok(out) = &rep.outcome {
            predicted_realizable = Some(out.realizable);
            margin = out.margin;
            let swapped = rep.contacts[0].point.x < rep.contacts[1].point.x;
            let relabel = |t: Transition| match (t, swapped) {
                (Transition::RS, true) => Transition::SR,
                (Transition::SR, true) => Transition::RS,
                (Transition::LiftPlus, true) => Transition::LiftMinus,
                (Transition::LiftMinus, true) => Transition::LiftPlus,
                (t, _) => t,
            };
            predicted_transitions = out.transitions.iter().map(|t| relabel(*t)).collect();
            for (t, check, axis) in [(Transition::RS, &out.rs, DVec3::Y), (Transition::SR, &out.sr, DVec3::X)]
            {
                if out.transitions.contains(&t) {
                    let mut any = false;
                    for (i, sigma) in [1.0, -1.0].into_iter().enumerate() {
                        if check.escape_sigma[i] {
                            escape_directions.push(axis * sigma);
                            any = true;
                        }
                    }
                    if !any {
                        escape_directions.extend([axis, -axis]);
                    }
                }
            }
            if out.transitions.contains(&Transition::SS) {
                let tol = out.accel_ref * 1e-9;
                escape_directions.extend(out.ss.directions.iter().filter(|d| d.r >= -tol).map(|d| d.d));
                escape_directions.extend(out.ss.boundary_roots.iter().copied());
            }
            let g = &out.geometry;
            let pts = [rep.contacts[0].point - c0, rep.contacts[1].point - c0];
            frame = Some((g.t1, g.a, pts, swapped));
        }
    }
    // Wheel centres in the body frame, rail axes in the world.
    let centres = cfg.wheel_centres().map(to_d);
    let rails: Vec<DVec3> =
        (0..2).map(|k| centres[k] - normals[k] * (cfg.wheel_radius[k] + cfg.rail_radius[k]) as f64).collect();
    let local_centres: Vec<Vector> =
        (0..2).map(|k| b0.position().inverse_transform_point(cfg.wheel_centres()[k])).collect();
    let gap_of = |b: &RigidBody, k: usize| {
        let c = to_d(b.position().transform_point(local_centres[k]));
        let d = c - rails[k];
        DVec3::new(d.x, d.y, 0.0).length() - (cfg.wheel_radius[k] + cfg.rail_radius[k]) as f64
    };
    let gap0 = [gap_of(b0, 0), gap_of(b0, 1)];
    let mut max_slip = [0.0f64; 2];
    let mut max_gap = [0.0f64; 2];
    let mut outcome = Outcome::RR;
    let mut measured_direction = None;
    let mut nan = false;
    for _ in 0..steps(cfg.duration, cfg.dt) {
        sim.step();
        let b = sim.body(body);
        let (v, w) = (to_d(b.linvel()), to_d(b.angvel()));
        if !v.is_finite() || !w.is_finite() {
            nan = true;
            break;
        }
        let c = to_d(b.center_of_mass());
        // Slip at the material points that touched the rails at onset (wheel centre − R n).
        let mut slip = [0.0f64; 2];
        let mut vp = [DVec3::ZERO; 2];
        for k in 0..2 {
            let ck = to_d(b.position().transform_point(local_centres[k]));
            let p = ck - normals[k] * cfg.wheel_radius[k] as f64;
            let vk = v + w.cross(p - c);
            vp[k] = vk;
            slip[k] = (vk - normals[k] * vk.dot(normals[k])).length();
            max_slip[k] = max_slip[k].max(slip[k]);
            max_gap[k] = max_gap[k].max(gap_of(b, k) - gap0[k]);
        }
        if measured_direction.is_some() {
            continue;
        }
        if slip[0].max(slip[1]) > cfg.slip_threshold + cfg.slip_rel * v.length() {
            outcome = classify(slip[0], slip[1], cfg.ratio);
            let (t1, a, swapped) = match &frame {
                Some((t1, a, _, sw)) => (*t1, *a, *sw),
                None => ([DVec3::Z; 2], DVec3::X, false),
            };
            let (vpp, vpm) = if swapped { (vp[1], vp[0]) } else { (vp[0], vp[1]) };
            let u = DVec3::new(t1[0].dot(vpp), t1[1].dot(vpm), a.dot(vpp + vpm) * 0.5);
            measured_direction = Some(u.normalize_or_zero());
        }
    }
    let direction_error = match measured_direction {
        Some(u) => escape_directions
            .iter()
            .map(|d| u.dot(d.normalize_or_zero()).clamp(-1.0, 1.0).acos().to_degrees())
            .fold(f64::NAN, f64::min),
        None => f64::NAN,
    };
    WheelsetRun {
        load,
        friction: cfg.friction,
        predicted_realizable,
        predicted_transitions,
        escape_directions,
        margin,
        outcome,
        measured_direction,
        direction_error,
        angle_tol: cfg.angle_tol,
        max_slip,
        max_gap,
        lifted: [max_gap[0] > cfg.lift_gap, max_gap[1] > cfg.lift_gap],
        nan,
    }
}

/// The load grid: lateral force `f ∈ {−0.5, …, 0.5}` (step 0.1), yaw `m_y ∈ {−0.3, …, 0.3}`
/// (step 0.05) and drive `d ∈ {0, 0.3}`: 286 loads. `fine = true` halves both steps (1 050
/// loads, for the lab binary).
pub fn grid(fine: bool) -> Vec<Load> {
    let (nf, hf, ny, hy) = if fine { (10, 0.05, 12, 0.025) } else { (5, 0.1, 6, 0.05) };
    let mut out = Vec::new();
    for &d in &[0.0, 0.3] {
        for i in -nf..=nf {
            for k in -ny..=ny {
                out.push([hf * i as f64, hy * k as f64, d]);
            }
        }
    }
    out
}

/// Runs the grid.
pub fn run_grid(cfg: &WheelsetConfig, fine: bool) -> Vec<WheelsetRun> {
    grid(fine).into_iter().map(|l| run(cfg, l)).collect()
}

/// Agreement over runs, excluding `|margin| < band·g` (as [`crate::rapier::trough::agreement`];
/// `analytic_match` counts runs with a prediction).
pub fn agreement(runs: &[WheelsetRun], band: f64, g: f64) -> Agreement {
    let mut a = Agreement {
        counted: 0,
        excluded: 0,
        agree: 0,
        agree_rolling: 0,
        analytic_match: 0,
        direction_error: (f64::NAN, f64::NAN),
    };
    let mut errs = Vec::new();
    for r in runs {
        if r.predicted_realizable.is_none() || r.margin.is_nan() || r.margin.abs() < band * g {
            a.excluded += 1;
            continue;
        }
        a.counted += 1;
        a.agree += r.agrees() as usize;
        a.agree_rolling += r.agrees_on_rolling() as usize;
        a.analytic_match += 1;
        if r.direction_error.is_finite() {
            errs.push(r.direction_error);
        }
    }
    errs.sort_by(f64::total_cmp);
    if let (Some(mid), Some(max)) = (errs.get(errs.len() / 2), errs.last()) {
        a.direction_error = (*mid, *max);
    }
    a
}

/// Validation rows: grid agreement (tribo and stock friction) and the median slip-direction
/// error.
pub fn validation_rows() -> Vec<crate::validation::Row> {
    use crate::rapier::trough::DEFAULT_BAND;
    use crate::validation::{Row, Tolerance};
    let mut rows = Vec::new();
    let case = "rapier wheelset on two rails (wheels r = 0.10/0.14 m, rails 0.02/0.035 m), μ=0.3";
    for (friction, name) in [(Friction::Tribo, "tribo"), (Friction::Stock, "stock rapier")] {
        let cfg = WheelsetConfig::new(friction);
        let runs = run_grid(&cfg, false);
        let a = agreement(&runs, DEFAULT_BAND, cfg.g as f64);
        rows.push(Row::new(
            format!("{case}, 286-load grid"),
            format!(
                "agreement prediction vs simulation ({name}; {} near-boundary runs excluded)",
                a.excluded
            ),
            0.98,
            a.rate(),
            Tolerance::AtLeast,
            "issue 16; threshold from the measured 100 % (tests/rapier_wheelset.rs)",
        ));
        rows.push(Row::new(
            format!("{case}, 286-load grid"),
            format!("slip direction vs predicted escape, median [deg] ({name})"),
            20.0,
            a.direction_error.0,
            Tolerance::AtMost,
            "docs/realizability.md §3.5/§3.6 escape directions",
        ));
    }
    rows
}

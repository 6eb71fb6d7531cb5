//! The paper's experiments (docs/tracking.md §7, T1–T7) run with the reference integrator
//! ([`super::sim`]), as plain functions returning the measured quantities. The test suites
//! (`tests/tracking_*.rs`) assert on them; [`super::validation_rows`] turns them into rows.
//!
//! Common settings (docs/tracking.md §7): Δt = 1e-4 s, g = 9.8 m/s², ground = body i, x up-slope.

use super::sim::{incline_gravity, LegacyRoll, NormalModel, PlaneScene, RigidBody, Shape, SimError};
use glam::DVec3;
use tribo::tracking::DampingInertia;
use tribo::tracking::{Damping, Material, Mode, RollOverride, SpinModel};

/// Gravity used by every paper test (docs/tracking.md §0: checked against every printed number).
pub const G: f64 = 9.8;
/// Time step of every paper test.
pub const DT: f64 = 1e-4;

/// One sample of a planar run (motion in the x–z plane, rotation about y).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanarSample {
    /// Time (s).
    pub t: f64,
    /// Position along x (up-slope), m.
    pub x: f64,
    /// Velocity along x, m/s.
    pub v: f64,
    /// Angular velocity about y (rolling +x is positive), rad/s.
    pub omega: f64,
    /// Elastic slide force on the moving body along x (N).
    pub ef: f64,
    /// Damping slide force on the moving body along x (N).
    pub df: f64,
    /// ‖S‖ (m).
    pub s_norm: f64,
    /// Slide mode.
    pub slide: Mode,
    /// Elastic roll load `𝒯_E` of the moving body along x (`K_R Θ_j`), N·m.
    pub roll_elastic: f64,
    /// Damping roll load along x, N·m.
    pub roll_damping: f64,
    /// Roll mode of the moving body.
    pub roll: Mode,
    /// Torque about y on the moving body (all friction), N·m.
    pub torque_y: f64,
}

fn sample(s: &PlaneScene) -> PlanarSample {
    let st = s.contact().copied().unwrap_or_default();
    PlanarSample {
        t: s.time,
        x: s.body.position.x,
        v: s.body.velocity.x,
        omega: s.body.angular_velocity.y,
        ef: -st.slide().elastic().x,
        df: -st.slide().damping().x,
        s_norm: st.slide().history().length(),
        slide: st.slide().mode(),
        roll_elastic: st.roll_j().elastic().x,
        roll_damping: st.roll_j().damping().x,
        roll: st.roll_j().mode(),
        torque_y: s.loads().1.y,
    }
}

/// Runs `steps` steps and returns the samples at t = 0, Δt, …, steps·Δt (times are `k·Δt`).
pub fn run_planar(scene: &mut PlaneScene, steps: usize) -> Result<Vec<PlanarSample>, SimError> {
    let mut out = Vec::with_capacity(steps + 1);
    out.push(sample(scene));
    for k in 1..=steps {
        scene.step()?;
        let mut s = sample(scene);
        s.t = k as f64 * scene.dt;
        out.push(s);
    }
    Ok(out)
}

/// Times at which the mode selected by `f` changes: `(time, new mode)`.
pub fn mode_switches(samples: &[PlanarSample], f: impl Fn(&PlanarSample) -> Mode) -> Vec<(f64, Mode)> {
    samples.windows(2).filter(|w| f(&w[0]) != f(&w[1])).map(|w| (w[1].t, f(&w[1]))).collect()
}

/// Mean acceleration `(Δv/Δt, Δω/Δt)` between the samples nearest to times `t0` and `t1`
/// (equally spaced samples as from [`run_planar`], any step; times outside the run are
/// clamped to its ends). NaN if fewer than two samples or both times map to one sample.
pub fn mean_acceleration(samples: &[PlanarSample], t0: f64, t1: f64) -> (f64, f64) {
    let (Some(first), Some(second)) = (samples.first(), samples.get(1)) else {
        return (f64::NAN, f64::NAN);
    };
    let dt = second.t - first.t;
    // `as usize` saturates (negative → 0, NaN → 0); the `min` keeps the index in range.
    let at = |t: f64| &samples[(((t - first.t) / dt).round() as usize).min(samples.len() - 1)];
    let (a, b) = (at(t0), at(t1));
    ((b.v - a.v) / (b.t - a.t), (b.omega - a.omega) / (b.t - a.t))
}

// ------------------------------------------------------------------------------------------
// T1 — brick on an incline (docs/tracking.md §7 T1)

/// Result of a T1 brick run.
#[derive(Clone, Debug)]
pub struct BrickRun {
    /// Incline angle (rad).
    pub alpha: f64,
    /// Normal force m g cos α.
    pub n: f64,
    /// Static threshold 𝒮_s^S = μs N/K_E.
    pub s_static: f64,
    /// Kinetic threshold 𝒮_k^S.
    pub s_kinetic: f64,
    /// All samples (1 s).
    pub samples: Vec<PlanarSample>,
}

impl BrickRun {
    /// Slide-mode switch times.
    pub fn switches(&self) -> Vec<(f64, Mode)> {
        mode_switches(&self.samples, |s| s.slide)
    }
    /// The last sample.
    pub fn last(&self) -> &PlanarSample {
        self.samples.last().expect("non-empty run")
    }
}

/// T1: brick m = 1 kg on an incline of angle `alpha`, μs = 0.25, μk = 0.2, K_E = 1e5, slide
/// damping `damping` (critical: 2√(m K_E) = 632.456), N = m g cos α constant, non-rotating,
/// from rest, `duration` seconds.
pub fn brick(alpha: f64, damping: Damping, duration: f64) -> Result<BrickRun, SimError> {
    let m = 1.0;
    let n = m * G * alpha.cos();
    let material = Material::new(0.25, 0.2)?
        .with_stiffness(1e5)?
        .with_slide_damping(damping)?
        .with_roll_eta(0.0)?
        .with_spin(SpinModel::Off)?;
    let body = RigidBody::new(m, DVec3::splat(1.0))?.with_position(DVec3::new(0.0, 0.0, 0.05)).locked();
    let mut scene = PlaneScene::new(
        body,
        Shape::Brick { half_height: 0.05 },
        incline_gravity(G, alpha),
        NormalModel::Constrained { n },
        material,
        DampingInertia::new(m, 0.0, 0.0),
        DT,
    )?;
    let samples = run_planar(&mut scene, (duration / DT).round() as usize)?;
    Ok(BrickRun { alpha, n, s_static: 0.25 * n / 1e5, s_kinetic: 0.2 * n / 1e5, samples })
}

// ------------------------------------------------------------------------------------------
// T2 — disk rolling on a flat surface (docs/tracking.md §7 T2)

/// Disk of T2: m = 5, R = 0.2, I = 0.1.
pub const DISK_M: f64 = 5.0;
/// Disk radius.
pub const DISK_R: f64 = 0.2;
/// Disk inertia.
pub const DISK_I: f64 = 0.1;

/// Analytic piecewise solution of T2 (docs/tracking.md T2a oracle) for kinetic roll torque `t_k`:
/// `(t*, t_stop, distance)`.
pub fn disk_analytic(v0: f64, t_k: f64) -> (f64, f64, f64) {
    let (m, r, i, mu_k) = (DISK_M, DISK_R, DISK_I, 0.2);
    let t_star = v0 / (mu_k * G + r * (mu_k * m * G * r - t_k) / i);
    let v_star = v0 - mu_k * G * t_star;
    let a_r = t_k * r / (m * r * r + i);
    let t_stop = t_star + v_star / a_r;
    let dist = v0 * t_star - 0.5 * mu_k * G * t_star * t_star + v_star * v_star / (2.0 * a_r);
    (t_star, t_stop, dist)
}

/// Result of a T2 disk run.
#[derive(Clone, Debug)]
pub struct DiskRun {
    /// All samples.
    pub samples: Vec<PlanarSample>,
}

impl DiskRun {
    /// First time the slide returns to stick after having slipped (t*).
    pub fn t_star(&self) -> Option<f64> {
        let sw = mode_switches(&self.samples, |s| s.slide);
        sw.iter().find(|(_, m)| *m == Mode::Static).map(|(t, _)| *t)
    }
    /// First time v ≤ 0 (the stop).
    pub fn t_stop(&self) -> Option<f64> {
        self.samples.iter().find(|s| s.v <= 0.0).map(|s| s.t)
    }
    /// Last time |v| > `eps`.
    pub fn last_moving(&self, eps: f64) -> f64 {
        self.samples.iter().rev().find(|s| s.v.abs() > eps).map(|s| s.t).unwrap_or(0.0)
    }
    /// Most negative v after the first stop.
    pub fn min_v_after_stop(&self) -> f64 {
        let t = self.t_stop().unwrap_or(f64::INFINITY);
        self.samples.iter().filter(|s| s.t >= t).map(|s| s.v).fold(0.0, f64::min)
    }
    /// The last sample.
    pub fn last(&self) -> &PlanarSample {
        self.samples.last().expect("non-empty run")
    }
    /// Samples with `t0 ≤ t ≤ t1` (empty if `t0 > t1` or outside the run).
    pub fn window(&self, t0: f64, t1: f64) -> &[PlanarSample] {
        if t1.is_nan() || t1 < 0.0 {
            return &[];
        }
        let b = ((t1 / DT).round() as usize).saturating_add(1).min(self.samples.len());
        let a = ((t0 / DT).round() as usize).min(b);
        &self.samples[a..b]
    }
}

/// T2a/T2b: the disk as a sphere (R = 0.2, isotropic I = 0.1) on a plane, v0 along +x, K_E = 1e5,
/// μs = 0.25, μk = 0.2, K_R = 1600 and thresholds (2c) `μ N/(2 R K_E)` (explicit override),
/// K_D and D_R = `damping_scale` × critical (1414.21 and 25.298), N = m g.
pub fn disk(v0: f64, damping_scale: f64, duration: f64) -> Result<DiskRun, SimError> {
    let k_e = 1e5;
    let kd = damping_scale * 2.0 * (DISK_M * k_e).sqrt();
    let dr = damping_scale * 2.0 * (DISK_I * 1600.0_f64).sqrt();
    let material = Material::new(0.25, 0.2)?
        .with_stiffness(k_e)?
        .with_slide_damping(Damping::Fixed(kd))?
        .with_roll_override(RollOverride {
            stiffness: 1600.0,
            static_threshold: 0.25 / (2.0 * DISK_R * k_e),
            kinetic_threshold: 0.2 / (2.0 * DISK_R * k_e),
            per_newton: true,
        })?
        .with_roll_damping(Damping::Fixed(dr))?
        .with_spin(SpinModel::Off)?;
    disk_scene(material, v0, duration, None)
}

/// T2c: the same disk with the legacy constant roll torque (8), `μ_r = 0.1`
/// (`|M_r| = μ_r R N = 0.98 N·m`); slide by the history model, history roll off.
pub fn disk_legacy(v0: f64, duration: f64) -> Result<DiskRun, SimError> {
    let k_e = 1e5;
    let material = Material::new(0.25, 0.2)?
        .with_stiffness(k_e)?
        .with_slide_damping(Damping::Fixed(2.0 * (DISK_M * k_e).sqrt()))?
        .with_roll_eta(0.0)?
        .with_spin(SpinModel::Off)?;
    disk_scene(material, v0, duration, Some(LegacyRoll { mu_r: 0.1, r_eff: DISK_R }))
}

fn disk_scene(
    material: Material,
    v0: f64,
    duration: f64,
    legacy: Option<LegacyRoll>,
) -> Result<DiskRun, SimError> {
    let body = RigidBody::new(DISK_M, DVec3::splat(DISK_I))?
        .with_position(DVec3::new(0.0, 0.0, DISK_R))
        .with_velocity(DVec3::new(v0, 0.0, 0.0));
    let mut scene = PlaneScene::new(
        body,
        Shape::Sphere { radius: DISK_R },
        DVec3::new(0.0, 0.0, -G),
        NormalModel::Constrained { n: DISK_M * G },
        material,
        DampingInertia::new(DISK_M, DISK_I, DISK_I),
        DT,
    )?;
    if let Some(l) = legacy {
        scene = scene.with_legacy_roll(l);
    }
    let samples = run_planar(&mut scene, (duration / DT).round() as usize)?;
    Ok(DiskRun { samples })
}

// ------------------------------------------------------------------------------------------
// T3 — sphere rolling up an incline (docs/tracking.md §7 T3, App. D)

/// Sphere of T3/T4: m = 5, R = 0.2, I = 0.4 m R² = 0.08.
pub const SPHERE_M: f64 = 5.0;
/// Sphere radius.
pub const SPHERE_R: f64 = 0.2;
/// Sphere inertia.
pub const SPHERE_I: f64 = 0.08;

/// Steady-state class of a T3b run (docs/tracking.md Table 2), from the final slide and roll modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SteadyClass {
    /// Stationary: slide s, roll s.
    Stationary,
    /// Pure rolling: slide s, roll k.
    PureRolling,
    /// Rolling with slip: slide k, roll k.
    RollingWithSlip,
    /// Pure sliding: slide k, roll s.
    PureSliding,
}

impl SteadyClass {
    /// Class from the final (slide, roll) modes.
    pub fn from_modes(slide: Mode, roll: Mode) -> Self {
        match (slide, roll) {
            (Mode::Static, Mode::Static) => SteadyClass::Stationary,
            (Mode::Static, Mode::Kinetic) => SteadyClass::PureRolling,
            (Mode::Kinetic, Mode::Kinetic) => SteadyClass::RollingWithSlip,
            (Mode::Kinetic, Mode::Static) => SteadyClass::PureSliding,
        }
    }
    /// Short label (S, PR, RwS, PS).
    pub fn label(self) -> &'static str {
        match self {
            SteadyClass::Stationary => "S",
            SteadyClass::PureRolling => "PR",
            SteadyClass::RollingWithSlip => "RwS",
            SteadyClass::PureSliding => "PS",
        }
    }
}

/// Result of a T3 sphere run.
#[derive(Clone, Debug)]
pub struct SphereRun {
    /// Normal force m g cos α.
    pub n: f64,
    /// Time step of the run.
    pub dt: f64,
    /// All samples.
    pub samples: Vec<PlanarSample>,
}

impl SphereRun {
    /// Final class (Table 2).
    pub fn class(&self) -> SteadyClass {
        let l = self.samples.last().expect("non-empty run");
        SteadyClass::from_modes(l.slide, l.roll)
    }
    /// Slide-mode switches.
    pub fn slide_switches(&self) -> Vec<(f64, Mode)> {
        mode_switches(&self.samples, |s| s.slide)
    }
    /// Roll-mode switches.
    pub fn roll_switches(&self) -> Vec<(f64, Mode)> {
        mode_switches(&self.samples, |s| s.roll)
    }
    /// Sample at time `t`.
    pub fn at(&self, t: f64) -> &PlanarSample {
        &self.samples[((t / self.dt).round() as usize).min(self.samples.len() - 1)]
    }
}

/// T3: sphere (m = 5, R = 0.2, I = 0.08) on an incline of `alpha_deg` degrees, v0 up-slope,
/// ω0 = 0, μs = 0.25, μk = 0.2, K_E = 1e5, K_R = 4 η_r R² K_E (2b), thresholds (2c), damping
/// `damping_frac` × critical for slide (K_D = 2√(m K_E)) and roll (D_R = 2√(I K_R)),
/// N = m g cos α constant.
pub fn sphere_incline(
    alpha_deg: f64,
    eta_r: f64,
    damping_frac: f64,
    v0: f64,
    dt: f64,
    duration: f64,
) -> Result<SphereRun, SimError> {
    let alpha = alpha_deg.to_radians();
    let k_e = 1e5;
    let k_r = 4.0 * eta_r * SPHERE_R * SPHERE_R * k_e;
    let n = SPHERE_M * G * alpha.cos();
    let material = Material::new(0.25, 0.2)?
        .with_stiffness(k_e)?
        .with_slide_damping(Damping::Fixed(damping_frac * 2.0 * (SPHERE_M * k_e).sqrt()))?
        .with_roll_eta(eta_r)?
        .with_roll_damping(Damping::Fixed(damping_frac * 2.0 * (SPHERE_I * k_r).sqrt()))?
        .with_spin(SpinModel::Off)?;
    let body = RigidBody::new(SPHERE_M, DVec3::splat(SPHERE_I))?
        .with_position(DVec3::new(0.0, 0.0, SPHERE_R))
        .with_velocity(DVec3::new(v0, 0.0, 0.0));
    let mut scene = PlaneScene::new(
        body,
        Shape::Sphere { radius: SPHERE_R },
        incline_gravity(G, alpha),
        NormalModel::Constrained { n },
        material,
        DampingInertia::new(SPHERE_M, SPHERE_I, SPHERE_I),
        dt,
    )?;
    let samples = run_planar(&mut scene, (duration / dt).round() as usize)?;
    Ok(SphereRun { n, dt, samples })
}

// ------------------------------------------------------------------------------------------
// T4, T5, T7 — spinning bodies (docs/tracking.md §7 T4, T5, T7)

/// One sample of a spin run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpinSample {
    /// Time (s).
    pub t: f64,
    /// Angular velocity about the vertical (rad/s).
    pub omega: f64,
    /// Spin history Ψ (rad).
    pub psi: f64,
    /// Spin mode.
    pub mode: Mode,
    /// Elastic spin torque `K_ψ Ψ` (N·m).
    pub elastic: f64,
}

/// Result of a spin run.
#[derive(Clone, Debug)]
pub struct SpinRun {
    /// Normal force (N).
    pub n: f64,
    /// Moment of inertia about the spin axis.
    pub inertia: f64,
    /// Static and kinetic spin thresholds `(𝒮_s^ψ, 𝒮_k^ψ)` of the last update.
    pub thresholds: (f64, f64),
    /// Kinetic spin torque capacity `K_ψ 𝒮_k^ψ` (N·m).
    pub kinetic_torque: f64,
    /// Spin damping `D_ψ` of the last update.
    pub damping: f64,
    /// Samples.
    pub samples: Vec<SpinSample>,
}

impl SpinRun {
    /// First time ω ≤ 0.
    pub fn first_stop(&self) -> Option<f64> {
        self.samples.iter().find(|s| s.omega <= 0.0).map(|s| s.t)
    }
    /// Minimum ω.
    pub fn min_omega(&self) -> f64 {
        self.samples.iter().map(|s| s.omega).fold(f64::INFINITY, f64::min)
    }
    /// First static→kinetic switch `(time, ω then)`.
    pub fn first_slip(&self) -> Option<(f64, f64)> {
        self.samples.iter().find(|s| s.mode == Mode::Kinetic).map(|s| (s.t, s.omega))
    }
    /// Mean dω/dt over [t0, t1] (nearest samples; times beyond the run, which may end early
    /// with `after_stop`, are clamped to its last sample).
    pub fn slope(&self, t0: f64, t1: f64) -> f64 {
        let Some(last) = self.samples.len().checked_sub(1) else { return f64::NAN };
        let at = |t: f64| &self.samples[((t / DT).round() as usize).min(last)];
        let (a, b) = (at(t0), at(t1));
        (b.omega - a.omega) / (b.t - a.t)
    }
    /// Last sample.
    pub fn last(&self) -> &SpinSample {
        self.samples.last().expect("non-empty run")
    }
}

/// Runs a body spinning about the vertical with `omega0` on the ground, N = m g constant.
/// Stops after `duration`, or `after_stop` seconds after the first ω ≤ 0 if given.
#[allow(clippy::too_many_arguments)]
pub fn spin_run(
    body: RigidBody,
    shape: Shape,
    spin_inertia: f64,
    material: Material,
    omega0: f64,
    duration: f64,
    after_stop: Option<f64>,
) -> Result<SpinRun, SimError> {
    let m = body.mass();
    let n = m * G;
    let body = body.with_angular_velocity(DVec3::new(0.0, 0.0, omega0));
    let mut scene = PlaneScene::new(
        body,
        shape,
        DVec3::new(0.0, 0.0, -G),
        NormalModel::Constrained { n },
        material,
        DampingInertia::new(m, spin_inertia, spin_inertia),
        DT,
    )?;
    let steps = (duration / DT).round() as usize;
    let mut samples = Vec::with_capacity(steps + 1);
    let mut stop_at = usize::MAX;
    let mut last = scene.last;
    for k in 0..=steps {
        if k > 0 {
            scene.step()?;
            last = scene.last;
        }
        let st = scene.contact().copied().unwrap_or_default();
        let s = SpinSample {
            t: k as f64 * DT,
            omega: scene.body.angular_velocity.z,
            psi: st.spin().history(),
            mode: st.spin().mode(),
            elastic: st.spin().elastic(),
        };
        if s.omega <= 0.0 && stop_at == usize::MAX {
            if let Some(a) = after_stop {
                stop_at = k + (a / DT).round() as usize;
            }
        }
        samples.push(s);
        if k >= stop_at {
            break;
        }
    }
    let d = last.derived;
    Ok(SpinRun {
        n,
        inertia: spin_inertia,
        thresholds: (d.spin_static, d.spin_kinetic),
        kinetic_torque: d.spin_stiffness * d.spin_kinetic,
        damping: last.damping.2,
        samples,
    })
}

/// T4: the T3 sphere (m = 5, R = 0.2, I = 0.08) spinning at ω0 = 1 rad/s on flat ground,
/// N = 49, μs = 0.25, μk = 0.2, K_E = 1e5, heuristic spin with 𝒦 = 5 and `eta_psi`,
/// D_ψ = 2√(I K_ψ).
pub fn spinning_sphere_heuristic(eta_psi: f64, duration: f64) -> Result<SpinRun, SimError> {
    let material = Material::new(0.25, 0.2)?
        .with_stiffness(1e5)?
        .with_roll_eta(0.0)?
        .with_spin(SpinModel::Heuristic { eta_psi, curvature: Some(1.0 / SPHERE_R) })?;
    let body =
        RigidBody::new(SPHERE_M, DVec3::splat(SPHERE_I))?.with_position(DVec3::new(0.0, 0.0, SPHERE_R));
    spin_run(body, Shape::Sphere { radius: SPHERE_R }, SPHERE_I, material, 1.0, duration, None)
}

/// A T5 material row (docs/tracking.md Table 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HertzSphere {
    /// Radius (m).
    pub r: f64,
    /// Density (kg/m³).
    pub rho: f64,
    /// Young's modulus (Pa).
    pub e: f64,
    /// Poisson ratio.
    pub nu: f64,
}

impl HertzSphere {
    /// The three T5 cases: steel R = 0.02, steel R = 0.04, glass R = 0.02.
    pub const CASES: [HertzSphere; 3] = [
        HertzSphere { r: 0.02, rho: 8e3, e: 2e11, nu: 0.3 },
        HertzSphere { r: 0.04, rho: 8e3, e: 2e11, nu: 0.3 },
        HertzSphere { r: 0.02, rho: 2.5e3, e: 5e10, nu: 0.2 },
    ];
    /// Mass ρ (4/3) π R³.
    pub fn mass(&self) -> f64 {
        self.rho * 4.0 / 3.0 * std::f64::consts::PI * self.r.powi(3)
    }
    /// Inertia 0.4 m R².
    pub fn inertia(&self) -> f64 {
        0.4 * self.mass() * self.r * self.r
    }
}

/// T5: a Hertz-parameter sphere spinning at ω0 = 1 rad/s (assumed, docs/tracking.md §8 item 11) on a rigid
/// flat ground, N = m g, μs = 0.25, μk = 0.2, slide stiffness `k_e`.
pub fn spinning_sphere_hertz(
    case: HertzSphere,
    k_e: f64,
    duration: f64,
    after_stop: Option<f64>,
) -> Result<SpinRun, SimError> {
    let material = Material::new(0.25, 0.2)?
        .with_stiffness(k_e)?
        .with_roll_eta(0.0)?
        .with_spin(SpinModel::hertz(case.e, case.nu)?)?;
    let i = case.inertia();
    let body = RigidBody::new(case.mass(), DVec3::splat(i))?.with_position(DVec3::new(0.0, 0.0, case.r));
    spin_run(body, Shape::Sphere { radius: case.r }, i, material, 1.0, duration, after_stop)
}

/// T7 ellipsoid semi-axes `(a, b, c)`.
pub const T7_AXES: (f64, f64, f64) = (0.02, 0.02, 0.05);

/// T7 steel material: μs = 0.25, μk = 0.2, K_E = 5e6, Hertz spin with E = 2e11, ν = 0.3
/// against a rigid ground.
pub fn t7_material() -> Result<Material, SimError> {
    Ok(Material::new(0.25, 0.2)?
        .with_stiffness(5e6)?
        .with_roll_eta(0.0)?
        .with_spin(SpinModel::hertz(2e11, 0.3)?)?)
}

/// T7 ellipsoid mass ρ (4/3) π abc with ρ = 8000 (0.670206 kg).
pub fn t7_mass() -> f64 {
    let (a, b, c) = T7_AXES;
    8000.0 * 4.0 / 3.0 * std::f64::consts::PI * a * b * c
}

/// T7 dynamics: steel ellipsoid spinning at ω0 = 1 rad/s about the vertical, `upright`
/// (c vertical) or flat (c horizontal, spin about a vertical 0.02 axis), N = m g constant.
pub fn spinning_ellipsoid(
    upright: bool,
    duration: f64,
    after_stop: Option<f64>,
) -> Result<SpinRun, SimError> {
    let (a, b, c) = T7_AXES;
    let m = t7_mass();
    let inertia = DVec3::new(m * (b * b + c * c) / 5.0, m * (c * c + a * a) / 5.0, m * (a * a + b * b) / 5.0);
    let (rot, height, i_spin) = if upright {
        (glam::DQuat::IDENTITY, c, inertia.z)
    } else {
        // Local x (semi-axis a) vertical: the 0.02 axis is the spin axis.
        (glam::DQuat::from_rotation_y(-std::f64::consts::FRAC_PI_2), a, inertia.x)
    };
    // One rotational degree of freedom (about the vertical), as in the model notes' emulator: with
    // free tilting, the flat case's critical slide damping 2√(m K_E) exceeds the explicit
    // stability limit of the contact's much smaller effective tangential mass (≈ 0.19 kg vs
    // m = 0.67 kg, see `DampingInertia::tangential_effective_mass`; c·Δt/m_eff ≈ 1.9) and
    // rounding noise grows into a rocking oscillation.
    let body = RigidBody::new(m, inertia)?
        .with_rotation(rot)
        .with_position(DVec3::new(0.0, 0.0, height))
        .with_rotation_axis(DVec3::Z);
    spin_run(body, Shape::Ellipsoid { a, b, c }, i_spin, t7_material()?, 1.0, duration, after_stop)
}

// ------------------------------------------------------------------------------------------
// T6 — ellipsoid rolling and falling over (docs/tracking.md §7 T6)

/// One sample of the T6 run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FallSample {
    /// Time (s).
    pub t: f64,
    /// `ê_c · ẑ`: cosine of the long axis' tilt (1 upright, 0 flat).
    pub axis_z: f64,
    /// Centre-of-mass height (m).
    pub height: f64,
    /// Centre-of-mass y (m).
    pub y: f64,
    /// Angular velocity about x (rad/s); positive tips the top towards −y.
    pub omega_x: f64,
    /// Kinetic energy (J).
    pub kinetic_energy: f64,
    /// Kinetic energy of the vertical CM motion `½ m v_z²` (J): the elastic bounce on the
    /// undamped normal spring, which friction cannot dissipate.
    pub vertical_energy: f64,
    /// Top of the long axis, y component of `ê_c` (> 0: tipped forward, +y).
    pub axis_y: f64,
    /// Slide and roll (ellipsoid) modes; `None` when out of contact.
    pub modes: Option<(Mode, Mode)>,
}

/// T6: ellipsoid m = 5, semi-axes 0.2, 0.2, 0.5, upright on a plane at its static penetration,
/// v_y = 0.3 m/s, μs = 0.25, μk = 0.2, K_E = 1e5, K_D = 2√(m K_E) = 1414.21, η_r = 0.2,
/// D_R = 2√(I_x K_R) (docs decision: inertia about the rolling axis), Hookean N = 1e7 δ,
/// chord arcs, κ by (S-4), no spin friction.
pub fn ellipsoid_fall(duration: f64) -> Result<Vec<FallSample>, SimError> {
    let (a, b, c, m, k_n) = (0.2, 0.2, 0.5, 5.0, 1e7);
    let inertia = DVec3::new(m * (b * b + c * c) / 5.0, m * (c * c + a * a) / 5.0, m * (a * a + b * b) / 5.0);
    let material =
        Material::new(0.25, 0.2)?.with_stiffness(1e5)?.with_roll_eta(0.2)?.with_spin(SpinModel::Off)?;
    let body = RigidBody::new(m, inertia)?
        .with_position(DVec3::new(0.0, 0.0, c - m * G / k_n))
        .with_velocity(DVec3::new(0.0, 0.3, 0.0));
    let mut scene = PlaneScene::new(
        body,
        Shape::Ellipsoid { a, b, c },
        DVec3::new(0.0, 0.0, -G),
        NormalModel::Hookean { k_n },
        material,
        DampingInertia::new(m, inertia.x, inertia.z),
        DT,
    )?
    .with_config(tribo::tracking::TrackingConfig::default().with_arc(tribo::tracking::ArcMode::Chord));
    let steps = (duration / DT).round() as usize;
    let mut out = Vec::with_capacity(steps / 10 + 2);
    for k in 0..=steps {
        if k > 0 {
            scene.step()?;
        }
        if k % 10 == 0 || k == steps {
            let b = &scene.body;
            out.push(FallSample {
                t: k as f64 * DT,
                axis_z: (b.rotation * DVec3::Z).z,
                height: b.position.z,
                y: b.position.y,
                omega_x: b.angular_velocity.x,
                kinetic_energy: b.kinetic_energy(),
                vertical_energy: 0.5 * m * b.velocity.z * b.velocity.z,
                axis_y: (b.rotation * DVec3::Z).y,
                modes: scene.contact().map(|s| (s.slide().mode(), s.roll_j().mode())),
            });
        }
    }
    Ok(out)
}

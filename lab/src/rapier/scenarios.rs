//! Scenario builders shared by the tests, [`crate::rapier::validation_rows`], the `compare_stock`
//! example and the benchmark. Each runs one rapier world with either tribo friction or stock
//! friction and returns the measured numbers.
//!
//! Slopes are modelled by tilting gravity over flat ground: with slope angle α, gravity is
//! `g (sin α, −cos α, 0)`, so +x is down-slope and y is the slope normal.

use tribo::tracking::{Material, Mode, SpinModel};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, TriboRapier};

/// Which friction a scenario runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Friction {
    /// tribo friction on the moving bodies.
    Tribo,
    /// Stock rapier friction (collider friction = μs of the scenario material).
    Stock,
}

/// Whether the stores of [`Sim::new`] carry roll and spin by torques (`RollSpin::Torques`)
/// instead of motors: `validate --roll-spin=torques` runs every scene so.
static ROLL_SPIN_TORQUES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the stores of later [`Sim::new`] calls carry roll and spin by torques (`true`) or by
/// motors (`false`, tribo_rapier's default).
pub fn set_roll_spin_torques(on: bool) {
    ROLL_SPIN_TORQUES.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// A rapier world with optional tribo friction.
pub struct Sim {
    /// The rapier world.
    pub world: PhysicsWorld,
    /// The tribo store (`None` for stock).
    pub tribo: Option<TriboRapier>,
    /// Simulated time (s).
    pub time: f64,
}

impl Sim {
    /// An empty world with gravity `gravity`, time step `dt` and default integration
    /// parameters otherwise, with tribo friction or not.
    pub fn new(gravity: Vector, dt: f32, friction: Friction) -> Self {
        let mut world = PhysicsWorld::new();
        world.gravity = gravity;
        world.integration_parameters.dt = dt;
        let tribo = (friction == Friction::Tribo).then(|| {
            let mut t = TriboRapier::new();
            if ROLL_SPIN_TORQUES.load(std::sync::atomic::Ordering::Relaxed) {
                t.set_settings(tribo_rapier::Settings {
                    roll_spin: tribo_rapier::RollSpin::Torques,
                    ..*t.settings()
                });
            }
            t
        });
        Sim { world, tribo, time: 0.0 }
    }

    /// Advances one step.
    pub fn step(&mut self) {
        match &mut self.tribo {
            Some(t) => t.step_world(&mut self.world, &(), &()),
            None => self.world.step(),
        }
        self.time += self.world.integration_parameters.dt as f64;
    }

    /// Inserts a flat ground: a parentless static cuboid collider whose top face is y = 0.
    pub fn add_ground(&mut self, half_size: f32) -> ColliderHandle {
        self.world.colliders.insert(
            ColliderBuilder::cuboid(half_size, 0.5, half_size).translation(Vector::new(0.0, -0.5, 0.0)),
        )
    }

    /// Inserts a fixed cuboid (a wall) on its own fixed body.
    pub fn add_fixed_box(&mut self, center: Vector, half: Vector) -> ColliderHandle {
        let b = self.world.bodies.insert(RigidBodyBuilder::fixed().translation(center));
        self.world.colliders.insert_with_parent(
            ColliderBuilder::cuboid(half.x, half.y, half.z),
            b,
            &mut self.world.bodies,
        )
    }

    /// Inserts a dynamic body with one collider; the collider gets `material` under tribo,
    /// or rapier friction `stock_mu` under stock.
    pub fn add_dynamic(
        &mut self,
        body: RigidBodyBuilder,
        collider: ColliderBuilder,
        material: &Material,
    ) -> (RigidBodyHandle, ColliderHandle) {
        let b = self.world.bodies.insert(body);
        let c = self.world.colliders.insert_with_parent(
            collider.friction(material.mu_s() as f32),
            b,
            &mut self.world.bodies,
        );
        if let Some(t) = &mut self.tribo {
            t.set_material(c, FrictionMaterial::Tribo(*material));
        }
        (b, c)
    }

    /// The body.
    pub fn body(&self, h: RigidBodyHandle) -> &RigidBody {
        &self.world.bodies[h]
    }

    /// No dynamic body is awake.
    pub fn all_asleep(&self) -> bool {
        !self.world.bodies.iter().any(|(_, b)| b.is_dynamic() && !b.is_sleeping())
    }
}

/// One recorded sample of a scene's time history (for plots; recording does not change the run).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SceneSample {
    /// Time (s).
    pub t: f64,
    /// Distance along the scene's direction of motion from the start (m).
    pub distance: f64,
    /// Speed of the body's centre (m/s).
    pub speed: f64,
    /// Angular speed |ω| of the body (rad/s).
    pub spin: f64,
}

/// Gravity of a slope of angle `alpha` (rad) for magnitude `g` (+x down-slope).
pub fn slope_gravity(g: f32, alpha: f32) -> Vector {
    Vector::new(g * alpha.sin(), -g * alpha.cos(), 0.0)
}

/// Number of steps covering `seconds`.
pub fn steps(seconds: f64, dt: f32) -> usize {
    (seconds / dt as f64).round() as usize
}

// ------------------------------------------------------------------------------------------
// 1. Brick on a slope

/// Brick material of scenario 1: μs = 0.5, μk = 0.3.
pub fn brick_material() -> Material {
    Material::new(0.5, 0.3).expect("valid")
}

/// Result of a brick run.
#[derive(Clone, Copy, Debug)]
pub struct BrickRun {
    /// Displacement down-slope (m) over the run.
    pub displacement: f64,
    /// Displacement magnitude in the slope plane (m).
    pub drift: f64,
    /// Mean down-slope acceleration over t ∈ [1, 2] s (m/s²).
    pub accel: f64,
    /// Final down-slope speed (m/s).
    pub final_speed: f64,
    /// Any NaN seen.
    pub nan: bool,
}

/// A 0.4 × 0.2 × 0.3 m brick resting on a slope of angle `alpha` (g = 9.81), pushed down-slope
/// with initial speed `push` (0 for at rest), simulated for `seconds`.
pub fn brick_on_slope(alpha: f32, push: f32, dt: f32, friction: Friction, seconds: f64) -> BrickRun {
    brick_on_slope_dir(alpha, push, 0.0, dt, friction, seconds)
}

/// Like [`brick_on_slope`], the push at azimuth `theta` (rad) from the down-slope direction
/// (in the slope plane); on flat ground (`alpha = 0`) this tests isotropy.
pub fn brick_on_slope_dir(
    alpha: f32,
    push: f32,
    theta: f32,
    dt: f32,
    friction: Friction,
    seconds: f64,
) -> BrickRun {
    brick_on_slope_recorded(alpha, push, theta, dt, friction, seconds, &mut Vec::new())
}

/// [`brick_on_slope_dir`], also recording one [`SceneSample`] per step into `rec` (distance =
/// down-slope displacement).
pub fn brick_on_slope_recorded(
    alpha: f32,
    push: f32,
    theta: f32,
    dt: f32,
    friction: Friction,
    seconds: f64,
    rec: &mut Vec<SceneSample>,
) -> BrickRun {
    let mut sim = Sim::new(slope_gravity(9.81, alpha), dt, friction);
    sim.add_ground(100.0);
    let m = brick_material();
    let (b, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.1, 0.0)).linvel(Vector::new(
            push * theta.cos(),
            0.0,
            push * theta.sin(),
        )),
        ColliderBuilder::cuboid(0.2, 0.1, 0.15).density(1000.0),
        &m,
    );
    let x0 = sim.body(b).translation();
    let n = steps(seconds, dt);
    let (i1, i2) = (steps(1.0, dt), steps(2.0, dt));
    let (mut v1, mut v2) = (0.0, 0.0);
    let mut nan = false;
    for k in 1..=n {
        sim.step();
        let v = sim.body(b).linvel();
        nan |= !v.is_finite() || !sim.body(b).translation().is_finite();
        rec.push(SceneSample {
            t: sim.time,
            distance: (sim.body(b).translation() - x0).x as f64,
            speed: v.length() as f64,
            spin: sim.body(b).angvel().length() as f64,
        });
        if k == i1 {
            v1 = v.x as f64;
        }
        if k == i2 {
            v2 = v.x as f64;
        }
    }
    let d = sim.body(b).translation() - x0;
    BrickRun {
        displacement: d.x as f64,
        drift: (d.x as f64).hypot(d.z as f64),
        accel: (v2 - v1) / 1.0,
        final_speed: (sim.body(b).linvel().x as f64).hypot(sim.body(b).linvel().z as f64),
        nan,
    }
}

// ------------------------------------------------------------------------------------------
// 2. Ball rolling on flat ground, 3. ball at rest on a slope

/// Ball material of scenarios 2–3: μs = 0.6, μk = 0.5, η_r = 0.05, spin off.
pub fn ball_material() -> Material {
    Material::new(0.6, 0.5)
        .and_then(|m| m.with_roll_eta(0.05))
        .and_then(|m| m.with_spin(SpinModel::Off))
        .expect("valid")
}

/// Radius of the scenario balls (m).
pub const BALL_R: f32 = 0.2;

/// Result of a rolling run.
#[derive(Clone, Copy, Debug)]
pub struct RollRun {
    /// Distance travelled in the rolling direction (m).
    pub distance: f64,
    /// Time when |v| first fell below 1e-3 m/s (s), or the run length.
    pub stop_time: f64,
    /// Final speed (m/s).
    pub final_speed: f64,
    /// Sign flips of the angular velocity component about the rolling axis from 0.5 s to 2 s
    /// after the stop (counted where |ω| > 1e-5 rad/s): chatter.
    pub flips_after_stop: usize,
    /// Normal force tribo measured (N), 0 for stock.
    pub normal_force: f64,
    /// Ball mass (kg).
    pub mass: f64,
    /// Any NaN seen.
    pub nan: bool,
}

/// A ball of radius [`BALL_R`] (density 1000) rolling without slip at `v0` in direction
/// `theta` (rad, in the ground plane) on flat ground (g = 9.81), run until 2 s after it stops
/// or `max_seconds`.
pub fn ball_rolling(v0: f32, theta: f32, dt: f32, friction: Friction, max_seconds: f64) -> RollRun {
    ball_rolling_recorded(v0, theta, dt, friction, max_seconds, &mut Vec::new())
}

/// [`ball_rolling`], also recording one [`SceneSample`] per step into `rec` (distance along the
/// rolling direction).
pub fn ball_rolling_recorded(
    v0: f32,
    theta: f32,
    dt: f32,
    friction: Friction,
    max_seconds: f64,
    rec: &mut Vec<SceneSample>,
) -> RollRun {
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), dt, friction);
    let ground = sim.add_ground(100.0);
    let dir = Vector::new(theta.cos(), 0.0, theta.sin());
    let axis = Vector::Y.cross(dir); // rolling along dir without slip: ω = (v/R) (ŷ × dir)
    let m = ball_material();
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, BALL_R, 0.0))
            .linvel(dir * v0)
            .angvel(axis * (v0 / BALL_R)),
        ColliderBuilder::ball(BALL_R).density(1000.0),
        &m,
    );
    let x0 = sim.body(b).translation();
    let mut stop = None;
    let mut last_sign = 0i32;
    let mut flips = 0;
    let n_max = steps(max_seconds, dt);
    let mut nf = 0.0;
    let mut nan = false;
    for k in 1..=n_max {
        sim.step();
        let rb = sim.body(b);
        nan |= !rb.linvel().is_finite() || !rb.angvel().is_finite();
        let t = k as f64 * dt as f64;
        rec.push(SceneSample {
            t,
            distance: (rb.translation() - x0).dot(dir) as f64,
            speed: rb.linvel().length() as f64,
            spin: rb.angvel().length() as f64,
        });
        if k == steps(0.5, dt) {
            if let Some(tr) = &sim.tribo {
                nf = tr.contact(ground, c).map_or(0.0, |i| i.normal_force as f64);
            }
        }
        if stop.is_none() && rb.linvel().length() < 1e-3 {
            stop = Some(t);
        }
        if let Some(ts) = stop {
            let w = rb.angvel().dot(axis) as f64;
            if t > ts + 0.5 && w.abs() > 1e-5 {
                let sg = if w > 0.0 { 1 } else { -1 };
                if last_sign != 0 && sg != last_sign {
                    flips += 1;
                }
                last_sign = sg;
            }
            if t > ts + 2.0 {
                break;
            }
        }
    }
    let rb = sim.body(b);
    RollRun {
        distance: (rb.translation() - x0).dot(dir) as f64,
        stop_time: stop.unwrap_or(sim.time),
        final_speed: rb.linvel().length() as f64,
        flips_after_stop: flips,
        normal_force: nf,
        mass: rb.mass() as f64,
        nan,
    }
}

/// Expected stopping distance of [`ball_rolling`] from the material: `v0²/(2a)` with
/// `a = T_k R/(I + mR²)`, `T_k = 2 η_r μk R N`, `N = m g`, `I = 0.4 m R²` (docs/tracking.md §3.3).
pub fn ball_rolling_expected(v0: f64) -> f64 {
    let r = BALL_R as f64;
    let m = 1000.0 * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    let tk = ball_material().roll_torque_capacity(Mode::Kinetic, m * 9.81, 1.0 / r, 0.0);
    let a = tk * r / (0.4 * m * r * r + m * r * r);
    v0 * v0 / (2.0 * a)
}

/// A ball of radius [`BALL_R`] at rest on a slope with `tan α = tan_alpha` in azimuth `theta`
/// (the slope's down direction rotated by `theta` about the normal), for `seconds`. Returns the
/// drift in the slope plane (m) and the final speed.
pub fn ball_on_slope(tan_alpha: f32, theta: f32, dt: f32, friction: Friction, seconds: f64) -> (f64, f64) {
    let alpha = tan_alpha.atan();
    let g = slope_gravity(9.81, alpha);
    let g = Vector::new(g.x * theta.cos(), g.y, g.x * theta.sin());
    let mut sim = Sim::new(g, dt, friction);
    sim.add_ground(100.0);
    let (b, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, BALL_R, 0.0)),
        ColliderBuilder::ball(BALL_R).density(1000.0),
        &ball_material(),
    );
    let x0 = sim.body(b).translation();
    for _ in 0..steps(seconds, dt) {
        sim.step();
    }
    let d = sim.body(b).translation() - x0;
    ((d.x as f64).hypot(d.z as f64), sim.body(b).linvel().length() as f64)
}

/// Roll threshold `2 η_r μ` of the ball material for `mode` (ball on a plane, docs/tracking.md App. D).
pub fn ball_roll_threshold(mode: Mode) -> f64 {
    2.0 * ball_material().eta_r() * ball_material().mu(mode)
}

// ------------------------------------------------------------------------------------------
// 4. Spinning sphere

/// Spin material of scenario 4: μs = 0.6, μk = 0.5, roll off, heuristic spin η_ψ = 0.1 with the
/// geometric curvature (𝒦 = 1/R): kinetic spin torque `η_ψ μk R N`.
pub fn spin_material() -> Material {
    Material::new(0.6, 0.5)
        .and_then(|m| m.with_roll_eta(0.0))
        .and_then(|m| m.with_spin(SpinModel::Heuristic { eta_psi: 0.1, curvature: None }))
        .expect("valid")
}

/// A ball of radius [`BALL_R`] spinning at `omega0` about the vertical on flat ground. Returns
/// (time when |ω| first fell below 1e-3·ω0 (or the run length), final |ω|).
pub fn spinning_ball(omega0: f32, dt: f32, friction: Friction, max_seconds: f64) -> (f64, f64) {
    spinning_ball_recorded(omega0, dt, friction, max_seconds, &mut Vec::new())
}

/// [`spinning_ball`], also recording one [`SceneSample`] per step into `rec`.
pub fn spinning_ball_recorded(
    omega0: f32,
    dt: f32,
    friction: Friction,
    max_seconds: f64,
    rec: &mut Vec<SceneSample>,
) -> (f64, f64) {
    let x0 = Vector::new(0.0, BALL_R, 0.0);
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), dt, friction);
    sim.add_ground(100.0);
    let (b, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, BALL_R, 0.0))
            .angvel(Vector::new(0.0, omega0, 0.0)),
        ColliderBuilder::ball(BALL_R).density(1000.0),
        &spin_material(),
    );
    let mut stop = None;
    for k in 1..=steps(max_seconds, dt) {
        sim.step();
        rec.push(SceneSample {
            t: k as f64 * dt as f64,
            distance: (sim.body(b).translation() - x0).length() as f64,
            speed: sim.body(b).linvel().length() as f64,
            spin: sim.body(b).angvel().length() as f64,
        });
        if stop.is_none() && sim.body(b).angvel().length() < 1e-3 * omega0 {
            stop = Some(k as f64 * dt as f64);
        }
    }
    (stop.unwrap_or(sim.time), sim.body(b).angvel().length() as f64)
}

/// Expected stop time of [`spinning_ball`]: `I ω0 / T_ψk`, `T_ψk = η_ψ μk N R`, `I = 0.4 m R²`.
pub fn spinning_ball_expected(omega0: f64) -> f64 {
    let r = BALL_R as f64;
    let m = 1000.0 * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    let t = spin_material().spin_torque_capacity(Mode::Kinetic, m * 9.81, 1.0 / r, 0.0);
    0.4 * m * r * r * omega0 / t
}

// ------------------------------------------------------------------------------------------
// 5. Paper T3a: sphere up a 35° incline

/// Phase of the T3a run (docs/tracking.md T3a table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Slipping up-slope: slide kinetic, roll kinetic, v > 0.
    I,
    /// Pure rolling up: slide static, roll kinetic, v > 0.
    II,
    /// Rolling down without slip: slide static, roll kinetic, v < 0.
    III,
    /// Rolling down with slip: slide kinetic, roll kinetic, v < 0.
    IV,
}

/// Result of the T3a run.
#[derive(Clone, Debug)]
pub struct InclineRun {
    /// Sequence of distinct phases in order (other mode combinations skipped).
    pub phases: Vec<Phase>,
    /// Time (s) at which each entry of `phases` began.
    pub phase_times: Vec<f64>,
    /// `v/(ωR)` at 1 s (1 = rolling without slip; docs/tracking.md App. Z emulator: 0.491 m / 0.2 m = 2.455).
    pub slip_ratio: f64,
    /// Up-slope acceleration over t ∈ [0.5, 1] s (m/s²).
    pub final_accel: f64,
    /// Up-slope velocity at 1 s.
    pub v_end: f64,
}

/// Material of T3a: μs = 0.25, μk = 0.2, η_r = 0.3 (docs/tracking.md T3).
pub fn t3_material() -> Material {
    Material::new(0.25, 0.2)
        .and_then(|m| m.with_roll_eta(0.3))
        .and_then(|m| m.with_spin(SpinModel::Off))
        .expect("valid")
}

/// Expected final (phase IV) up-slope acceleration of T3a: `−g (sin α − μk cos α)`, g = 9.8.
pub fn t3_expected_accel() -> f64 {
    let a = 35f64.to_radians();
    -9.8 * (a.sin() - 0.2 * a.cos())
}

/// docs/tracking.md T3a: sphere m = 5 kg, R = 0.2 m on a 35° incline (g = 9.8), v0 = 0.5 m/s up-slope,
/// ω0 = 0, for 1 s.
pub fn sphere_up_incline(dt: f32, friction: Friction) -> InclineRun {
    let alpha = 35f32.to_radians();
    let mut sim = Sim::new(slope_gravity(9.8, alpha), dt, friction);
    let ground = sim.add_ground(100.0);
    let r = 0.2f32;
    let density = 5.0 / (4.0 / 3.0 * std::f32::consts::PI * r * r * r);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, r, 0.0)).linvel(Vector::new(-0.5, 0.0, 0.0)),
        ColliderBuilder::ball(r).density(density),
        &t3_material(),
    );
    let mut phases: Vec<Phase> = Vec::new();
    let mut phase_times = Vec::new();
    let (mut v05, mut v1) = (0.0, 0.0);
    for k in 1..=steps(1.0, dt) {
        sim.step();
        let v_up = -sim.body(b).linvel().x as f64;
        if k == steps(0.5, dt) {
            v05 = v_up;
        }
        v1 = v_up;
        if let Some(info) = sim.tribo.as_ref().and_then(|t| t.contact(ground, c)) {
            let ph = match (info.slide, info.roll, v_up > 0.0) {
                (Mode::Kinetic, Mode::Kinetic, true) => Some(Phase::I),
                (Mode::Static, Mode::Kinetic, true) => Some(Phase::II),
                (Mode::Static, Mode::Kinetic, false) => Some(Phase::III),
                (Mode::Kinetic, Mode::Kinetic, false) => Some(Phase::IV),
                _ => None,
            };
            if let Some(p) = ph {
                if phases.last() != Some(&p) {
                    phases.push(p);
                    phase_times.push(sim.time);
                }
            }
        }
    }
    // Rolling down: ω about −z... v_up < 0 and ω_z > 0 for rolling down-slope (+x).
    let w = sim.body(b).angvel().z as f64;
    let slip_ratio = if w.abs() > 1e-9 { (v1 / (w * r as f64)).abs() } else { f64::INFINITY };
    InclineRun { phases, phase_times, slip_ratio, final_accel: (v1 - v05) / 0.5, v_end: v1 }
}

// ------------------------------------------------------------------------------------------
// 6. Pile of spheres

/// Result of a pile run.
#[derive(Clone, Copy, Debug)]
pub struct PileRun {
    /// Total kinetic energy at the end (J).
    pub kinetic_energy: f64,
    /// Largest body speed at the end (m/s).
    pub max_speed: f64,
    /// Any NaN position or velocity seen at the end.
    pub nan: bool,
    /// Bodies outside the box at the end.
    pub escaped: usize,
    /// Highest sphere centre at the end (m): a heap vs a flat layer (0.1).
    pub max_height: f64,
    /// Number of tribo contacts at the end (0 for stock).
    pub contacts: usize,
}

/// Pile material: μs = 0.6, μk = 0.5, η_r = 0.05, heuristic spin η_ψ = 0.05.
pub fn pile_material() -> Material {
    Material::new(0.6, 0.5)
        .and_then(|m| m.with_roll_eta(0.05))
        .and_then(|m| m.with_spin(SpinModel::Heuristic { eta_psi: 0.05, curvature: None }))
        .expect("valid")
}

/// Builds a pile scene: `n` spheres of radius 0.1 (density 1000) dropped in a grid into an
/// open box of inner half-width `half` (floor at y = 0, walls higher than the grid).
pub fn pile_scene(n: usize, half: f32, dt: f32, friction: Friction) -> (Sim, Vec<RigidBodyHandle>) {
    pile_scene_in(n, half, half, dt, friction)
}

/// Like [`pile_scene`], the spheres spawned in a column of half-width `spawn_half` at the
/// centre of a box of half-width `half`.
pub fn pile_scene_in(
    n: usize,
    half: f32,
    spawn_half: f32,
    dt: f32,
    friction: Friction,
) -> (Sim, Vec<RigidBodyHandle>) {
    pile_scene_seeded(n, half, spawn_half, dt, friction, PILE_SEED)
}

/// The seed of the spheres' horizontal jitter in [`pile_scene_in`].
pub const PILE_SEED: u32 = 12345;

/// [`pile_scene_in`] with the spheres' horizontal jitter (±1 cm) drawn from `seed`: the same
/// pile built again, for measures that depend on the pile's chaotic settling (when it falls
/// asleep).
pub fn pile_scene_seeded(
    n: usize,
    half: f32,
    spawn_half: f32,
    dt: f32,
    friction: Friction,
    seed: u32,
) -> (Sim, Vec<RigidBodyHandle>) {
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), dt, friction);
    sim.add_ground(half + 2.0);
    let (r, spacing) = (0.1f32, 0.23f32);
    let per_row = ((2.0 * spawn_half - 2.0 * r) / spacing).floor() as usize + 1;
    let layers = n.div_ceil(per_row * per_row);
    let wall_h = 0.5 * (0.6 + layers as f32 * spacing);
    let t = 0.1;
    for (c, h) in [
        (Vector::new(half + t, wall_h, 0.0), Vector::new(t, wall_h, half + 2.0 * t)),
        (Vector::new(-half - t, wall_h, 0.0), Vector::new(t, wall_h, half + 2.0 * t)),
        (Vector::new(0.0, wall_h, half + t), Vector::new(half, wall_h, t)),
        (Vector::new(0.0, wall_h, -half - t), Vector::new(half, wall_h, t)),
    ] {
        sim.add_fixed_box(c, h);
    }
    let mat = pile_material();
    let mut handles = Vec::with_capacity(n);
    let mut seed = seed;
    for i in 0..n {
        let layer = i / (per_row * per_row);
        let rem = i % (per_row * per_row);
        let (ix, iz) = (rem % per_row, rem / per_row);
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        let jitter = ((seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5) * 0.02;
        let p = Vector::new(
            -spawn_half + r + ix as f32 * spacing + jitter,
            0.3 + layer as f32 * spacing,
            -spawn_half + r + iz as f32 * spacing - jitter,
        );
        let (b, _) = sim.add_dynamic(
            RigidBodyBuilder::dynamic().translation(p),
            ColliderBuilder::ball(r).density(1000.0),
            &mat,
        );
        handles.push(b);
    }
    (sim, handles)
}

/// Summarises a pile.
pub fn pile_summary(sim: &Sim, handles: &[RigidBodyHandle], half: f32) -> PileRun {
    let mut ke = 0.0f64;
    let mut vmax = 0.0f64;
    let mut nan = false;
    let mut escaped = 0;
    let mut hmax = f64::NEG_INFINITY;
    for &h in handles {
        let rb = sim.body(h);
        let p = rb.translation();
        nan |= !p.is_finite() || !rb.linvel().is_finite() || !rb.angvel().is_finite();
        ke += rb.kinetic_energy() as f64;
        vmax = vmax.max(rb.linvel().length() as f64);
        hmax = hmax.max(p.y as f64);
        if p.x.abs() > half + 0.01 || p.z.abs() > half + 0.01 || p.y < -0.01 || p.y > 10.0 {
            escaped += 1;
        }
    }
    PileRun {
        kinetic_energy: ke,
        max_speed: vmax,
        max_height: hmax,
        nan,
        escaped,
        contacts: sim.tribo.as_ref().map_or(0, |t| t.len()),
    }
}

/// Inner half-width of the scenario-6 box (m).
pub const PILE_BOX: f32 = 2.0;

/// Scenario 6: `n` spheres dropped as a column (half-width 0.8 m) into the centre of a box of
/// inner half-width [`PILE_BOX`], run for `seconds`.
pub fn pile(n: usize, dt: f32, friction: Friction, seconds: f64) -> PileRun {
    let (mut sim, handles) = pile_scene_in(n, PILE_BOX, 0.8, dt, friction);
    for _ in 0..steps(seconds, dt) {
        sim.step();
    }
    pile_summary(&sim, &handles, PILE_BOX)
}

/// The four configurations of the pile benchmark (`benches/pile.rs`, the `pile_timing`
/// binary): rapier's floor and tribo's cost above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PileConfig {
    /// Stock rapier friction, no hook.
    Stock,
    /// Stock friction with `ActiveHooks::MODIFY_SOLVER_CONTACTS` on every collider and a hook
    /// that does nothing: the cost of rapier calling a contact-modification hook at all.
    NoopHook,
    /// tribo with slide friction only (η_r = η_ψ = 0: no motor joints).
    SlideOnly,
    /// tribo's full model (slide, roll and spin: [`pile_material`]).
    Full,
}

impl PileConfig {
    /// All four, in the order they are reported.
    pub const ALL: [PileConfig; 4] =
        [PileConfig::Stock, PileConfig::NoopHook, PileConfig::SlideOnly, PileConfig::Full];

    /// A short name (`stock`, `noop_hook`, `slide_only`, `full`).
    pub fn name(self) -> &'static str {
        match self {
            PileConfig::Stock => "stock",
            PileConfig::NoopHook => "noop_hook",
            PileConfig::SlideOnly => "slide_only",
            PileConfig::Full => "full",
        }
    }
}

/// A hook that does nothing (rapier's default methods).
pub struct NoopHook;
impl PhysicsHooks for NoopHook {}

/// The 1000-sphere pile of [`pile_scene`] (half-width 1.2, dt = 1/60) in one of the four
/// benchmark configurations; step it with [`pile_config_step`].
pub fn pile_config_scene(config: PileConfig) -> (Sim, Vec<RigidBodyHandle>) {
    pile_config_scene_seeded(config, PILE_SEED)
}

/// [`pile_config_scene`] built with the jitter seed `seed` (see [`pile_scene_seeded`]).
pub fn pile_config_scene_seeded(config: PileConfig, seed: u32) -> (Sim, Vec<RigidBodyHandle>) {
    let fr = if matches!(config, PileConfig::Stock | PileConfig::NoopHook) {
        Friction::Stock
    } else {
        Friction::Tribo
    };
    let (mut sim, handles) = pile_scene_seeded(1000, 1.2, 1.2, 1.0 / 60.0, fr, seed);
    configure(&mut sim, config);
    (sim, handles)
}

/// The benchmark configuration's changes to a scene built with `Friction::Stock` (stock, no-op
/// hook) or `Friction::Tribo` (slide-only, full): the no-op hook on every collider, or the
/// slide-only material (η_r = η_ψ = 0) on every tribo collider.
fn configure(sim: &mut Sim, config: PileConfig) {
    match config {
        PileConfig::NoopHook => {
            for (_, c) in sim.world.colliders.iter_mut() {
                c.set_active_hooks(c.active_hooks() | ActiveHooks::MODIFY_SOLVER_CONTACTS);
            }
        }
        PileConfig::SlideOnly => {
            let slide = FrictionMaterial::from(
                Material::new(0.6, 0.5)
                    .and_then(|m| m.with_roll_eta(0.0))
                    .and_then(|m| m.with_spin(SpinModel::Heuristic { eta_psi: 0.0, curvature: None }))
                    .expect("valid"),
            );
            if let Some(t) = &mut sim.tribo {
                let with: Vec<ColliderHandle> = sim
                    .world
                    .colliders
                    .iter()
                    .filter(|(h, _)| t.material(*h).is_some())
                    .map(|(h, _)| h)
                    .collect();
                for h in with {
                    t.set_material(h, slide);
                }
            }
        }
        PileConfig::Stock | PileConfig::Full => {}
    }
}

/// Radius (m) of the spheres of the pile and of the rolling scene.
pub const ROLLING_RADIUS: f64 = 0.1;
/// Initial rolling speed (m/s) of the spheres of [`rolling_config_scene`].
pub const ROLLING_SPEED: f64 = 2.0;

/// The rolling scene of the cost table: `n` spheres of the pile (radius [`ROLLING_RADIUS`],
/// density 1000, [`pile_material`]: rolling resistance c = η_r R = 5 mm) in a square grid 0.5 m
/// apart, resting on a plane, each rolling without slip at [`ROLLING_SPEED`] straight away
/// from the grid's centre (they never meet): every contact rolls. dt = 1/60, rapier's default
/// bodies; step it with [`pile_config_step`].
pub fn rolling_config_scene(config: PileConfig, n: usize) -> (Sim, Vec<RigidBodyHandle>) {
    let fr = if matches!(config, PileConfig::Stock | PileConfig::NoopHook) {
        Friction::Stock
    } else {
        Friction::Tribo
    };
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 60.0, fr);
    let per_row = (n as f64).sqrt().ceil() as usize;
    let spacing = 0.5f32;
    let half = 0.5 * spacing * (per_row.max(1) - 1) as f32;
    // 5 s at 2 m/s: 10 m beyond the grid's edge at the most.
    sim.add_ground(half + 12.0);
    let (r, v0) = (ROLLING_RADIUS as f32, ROLLING_SPEED as f32);
    let mat = pile_material();
    let mut handles = Vec::with_capacity(n);
    for i in 0..n {
        let (ix, iz) = (i % per_row, i / per_row);
        let p = Vector::new(-half + ix as f32 * spacing, r, -half + iz as f32 * spacing);
        let dir = Vector::new(p.x, 0.0, p.z).try_normalize().unwrap_or(Vector::X);
        let v = dir * v0;
        // Rolling without slip on the plane y = 0: v + ω × (−r ŷ) = 0, i.e. ω = ŷ × v / r.
        let w = Vector::Y.cross(v) / r;
        let (b, _) = sim.add_dynamic(
            RigidBodyBuilder::dynamic().translation(p).linvel(v).angvel(w),
            ColliderBuilder::ball(r).density(1000.0),
            &mat,
        );
        handles.push(b);
    }
    configure(&mut sim, config);
    (sim, handles)
}

/// The closed-form speed (m/s) of a sphere of [`rolling_config_scene`] rolling against the
/// resistance torque c N about its contact (c = η_r R): I_c ω̇ = −c m g with I_c = 7/5 m R², so
/// v(t) = v0 − 5 c g t / (7 R), until it stops.
pub fn rolling_closed_form_speed(t: f64) -> f64 {
    let c = 0.05 * ROLLING_RADIUS;
    (ROLLING_SPEED - 5.0 * c * 9.81 * t / (7.0 * ROLLING_RADIUS)).max(0.0)
}

/// One step of a [`pile_config_scene`].
pub fn pile_config_step(sim: &mut Sim, config: PileConfig) {
    match config {
        PileConfig::NoopHook => {
            sim.world.step_with_events(&NoopHook, &());
            sim.time += sim.world.integration_parameters.dt as f64;
        }
        _ => sim.step(),
    }
}

//! Game-step scenes: the small, fast balls of games (a billiard ball shot without spin, with
//! topspin and with backspin; a golf ball putted up a green it must stop and hold on; a marble
//! released in a mesh bowl) and carts on jointed wheels, at the time steps games run
//! ([`GAME_DTS`]), built as a user builds them: rapier's default bodies
//! (`RigidBodyBuilder::dynamic()`) and integration parameters, the material on the moving body
//! only. Each run returns what it measured; the closed forms are beside it. Used by
//! `tests/rapier_game_step.rs` and the `validate` rows.

use crate::rapier::fidelity::{launch_multibody_cart, roll_out, rolling_material};
use crate::rapier::scenarios::{slope_gravity, Friction, Sim};
use crate::validation::{Row, Tolerance};
use tribo::tracking::Mode;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::FrictionMaterial;

/// The time steps of the game-step scenes: 1/30, 1/60 (bevy's), 1/144 (a fast monitor) and 1/240.
pub const GAME_DTS: [f32; 4] = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 144.0, 1.0 / 240.0];
/// Gravity (m/s²).
pub const G: f64 = 9.81;

/// A ball on a plane: radius (m), mass (kg), slide friction μs and μk, rolling resistance
/// length c (m, static and kinetic).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallOnPlane {
    /// Radius (m).
    pub r: f64,
    /// Mass (kg).
    pub m: f64,
    /// Static slide friction.
    pub mu_s: f64,
    /// Kinetic slide friction.
    pub mu_k: f64,
    /// Rolling resistance length (m).
    pub c: f64,
}

impl BallOnPlane {
    /// The ball's tribo material (no spin resistance: the shots spin about horizontal axes).
    pub fn material(&self) -> FrictionMaterial {
        FrictionMaterial::builder()
            .friction(self.mu_s, self.mu_k)
            .rolling_resistance(self.c)
            .spin(tribo::tracking::SpinModel::Off)
            .build()
            .expect("valid")
    }

    /// The density of a solid ball of this radius and mass (kg/m³).
    fn density(&self) -> f32 {
        (self.m / (4.0 / 3.0 * std::f64::consts::PI * self.r.powi(3))) as f32
    }
}

/// A pool ball (57.15 mm, 170 g) on cloth: μs = 0.25, μk = 0.2, rolling resistance 0.5 mm
/// (a roll decelerating at 5 c g/(7R) = 0.123 m/s²).
pub const BILLIARD: BallOnPlane = BallOnPlane { r: 0.028575, m: 0.17, mu_s: 0.25, mu_k: 0.2, c: 0.0005 };

/// A golf ball (42.7 mm, 45.93 g) on a green: μs = 0.5, μk = 0.4, rolling resistance 1.5 mm (a
/// roll on the flat decelerating at 0.49 m/s², a green of stimp ≈ 9).
pub const GOLF: BallOnPlane = BallOnPlane { r: 0.02135, m: 0.04593, mu_s: 0.5, mu_k: 0.4, c: 0.0015 };

/// The closed-form course of a ball struck along a slope with speed `v0` and spin `w0` (rad/s,
/// positive forward: topspin), up a slope of angle `alpha` (rad; 0 on the flat, the shot's
/// direction uphill).
///
/// Derivation (1-D, N = m g cos α, I = 0.4 m R²): while the contact slips (s = v − ωR ≠ 0)
/// kinetic friction μk N acts against s, so `dv/dt = −g sin α − sgn(s) μk g cos α`, and with the
/// kinetic roll torque c N against ω, `dω/dt = (sgn(s) μk g cos α R − sgn(ω) c g cos α)/(0.4 R²)`;
/// the phases end where s or ω turns through zero (a drawn ball's backspin turns through zero
/// before it rolls). Rolling without slip (v = ωR), the moments about the contact point give
/// `1.4 m R² dω/dt = −m g sin α R − c N`: it decelerates at `a = (g sin α + c g cos α/R)/1.4`
/// and stops at `v/a`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShotCourse {
    /// End of the skid (s).
    pub t_skid: f64,
    /// Speed then (m/s).
    pub v_skid: f64,
    /// Stop time (s).
    pub t_stop: f64,
    /// Distance at the stop (m).
    pub x_stop: f64,
}

/// See [`ShotCourse`].
pub fn shot_course(ball: &BallOnPlane, v0: f64, w0: f64, alpha: f64) -> ShotCourse {
    let (r, (sa, ca)) = (ball.r, alpha.sin_cos());
    let (mut t, mut x, mut v, mut w) = (0.0, 0.0, v0, w0);
    // At most three phases (ω through zero, then the slip).
    for _ in 0..3 {
        let s = v - w * r;
        if s.abs() < 1e-12 {
            break;
        }
        let dv = -G * sa - s.signum() * ball.mu_k * G * ca;
        let dw = (s.signum() * ball.mu_k * G * ca * r - w.signum() * ball.c * G * ca) / (0.4 * r * r);
        let t_slip = -s / (dv - dw * r);
        let t_spin = if w != 0.0 && -w / dw > 0.0 { -w / dw } else { f64::INFINITY };
        let h = t_slip.min(t_spin);
        x += v * h + 0.5 * dv * h * h;
        v += dv * h;
        t += h;
        if t_spin < t_slip {
            // ω turned through zero: its torque turns round (an arbitrarily small ω of the sign
            // of the spin-up). Otherwise the slip ended: rolling from here (ω = v/R).
            w = dw.signum() * 1e-300;
        } else {
            break;
        }
    }
    let a = (G * sa + ball.c * G * ca / r) / 1.4;
    ShotCourse { t_skid: t, v_skid: v, t_stop: t + v / a, x_stop: x + v * v / (2.0 * a) }
}

/// The billiard shots: at 2 m/s without spin (a stun shot), with topspin (ω0 R = 3 m/s, a follow
/// shot) and with backspin (ω0 R = −2 m/s, a draw shot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shot {
    /// No spin.
    Stun,
    /// Topspin, ω0 R = 1.5 v0.
    Follow,
    /// Backspin, ω0 R = −v0.
    Draw,
}

impl Shot {
    /// The shots.
    pub const ALL: [Shot; 3] = [Shot::Stun, Shot::Follow, Shot::Draw];

    /// (v0 in m/s, ω0 R in m/s).
    pub fn speeds(self) -> (f64, f64) {
        match self {
            Shot::Stun => (2.0, 0.0),
            Shot::Follow => (2.0, 3.0),
            Shot::Draw => (2.0, -2.0),
        }
    }

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Shot::Stun => "without spin",
            Shot::Follow => "with topspin",
            Shot::Draw => "with backspin (draw)",
        }
    }
}

/// What a struck ball did, from the strike on.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShotRun {
    /// End of the skid (s): the first step whose contact slip |v − ωR| is below 1 % of v and
    /// 1 mm/s (NaN if none).
    pub t_skid: f64,
    /// Speed of the centre then (m/s).
    pub v_skid: f64,
    /// First time |v| and |ω R| are below 1e-3 (s), NaN if the ball still rolls at the end.
    pub t_stop: f64,
    /// Distance along the shot when it stopped, or at the end (m).
    pub distance: f64,
    /// Fraction of the rolling steps (after the skid, before the stop) with `Static` slide.
    pub static_rolling: f64,
    /// Largest distance from where it stopped over the rest of the run (m).
    pub drift: f64,
    /// Distance along the shot at the end of the run (m).
    pub end: f64,
}

/// A run's stop time, or its length (25 s) when the ball never stopped.
fn stock_t_stop(run: &ShotRun) -> f64 {
    if run.t_stop.is_nan() {
        25.0
    } else {
        run.t_stop
    }
}

/// A ball of `ball` resting on a flat ground (a slope of `alpha` rad, tilted gravity) for half
/// a second, then struck along −x (uphill on a slope) with speed `v0` and spin `w0` (rad/s,
/// forward positive), run for `seconds` after the strike. rapier's default body unless
/// `fast` (`allow_fast_rotation(true)`, the user lifting rapier's angular speed cap).
pub fn strike(
    ball: &BallOnPlane,
    (v0, w0, alpha): (f64, f64, f64),
    dt: f32,
    friction: Friction,
    (seconds, fast): (f64, bool),
) -> ShotRun {
    let mut sim = Sim::new(slope_gravity(G as f32, alpha as f32), dt, friction);
    let ground = sim.add_ground(100.0);
    let r = ball.r as f32;
    let mut body = RigidBodyBuilder::dynamic().translation(Vector::new(0.0, r, 0.0));
    if fast {
        body = body.allow_fast_rotation(true);
    }
    let b = sim.world.bodies.insert(body);
    let c = sim.world.colliders.insert_with_parent(
        ColliderBuilder::ball(r).density(ball.density()).friction(ball.mu_s as f32),
        b,
        &mut sim.world.bodies,
    );
    if let Some(t) = &mut sim.tribo {
        t.set_material(c, ball.material());
    }
    for _ in 0..(0.5 / dt).round() as usize {
        sim.step();
    }
    let x0 = sim.body(b).translation().x as f64;
    {
        let rb = &mut sim.world.bodies[b];
        rb.set_linvel(Vector::new(-v0 as f32, 0.0, 0.0), true);
        // Rolling towards −x turns about −z... forward spin about +z.
        rb.set_angvel(Vector::new(0.0, 0.0, w0 as f32), true);
    }
    let mut run = ShotRun { t_skid: f64::NAN, t_stop: f64::NAN, ..Default::default() };
    let (mut rolling, mut static_rolling, mut stop_x) = (0usize, 0usize, f64::NAN);
    for k in 1..=(seconds / dt as f64).round() as usize {
        sim.step();
        let t = k as f64 * dt as f64;
        let rb = sim.body(b);
        let (v, w) = (-rb.linvel().x as f64, rb.angvel().z as f64);
        let x = x0 - rb.translation().x as f64;
        let slide = sim.tribo.as_ref().and_then(|tr| tr.contact(ground, c)).map(|i| i.slide);
        if run.t_skid.is_nan() {
            if k > 1 && (v - w * ball.r).abs() <= 0.01 * v.abs() + 1e-3 {
                (run.t_skid, run.v_skid) = (t, v);
            }
        } else if run.t_stop.is_nan() {
            if v.abs() < 1e-3 && (w * ball.r).abs() < 1e-3 {
                run.t_stop = t;
                stop_x = x;
            } else {
                rolling += 1;
                static_rolling += usize::from(slide == Some(Mode::Static));
            }
        } else {
            run.drift = run.drift.max((x - stop_x).abs());
        }
        run.distance = if stop_x.is_nan() { x } else { stop_x };
        run.end = x;
    }
    run.static_rolling = static_rolling as f64 / rolling.max(1) as f64;
    run
}

/// A billiard shot (`BILLIARD`, flat cloth), run for 25 s after the strike.
pub fn billiard(shot: Shot, dt: f32, friction: Friction, fast: bool) -> ShotRun {
    let (v0, w0r) = shot.speeds();
    strike(&BILLIARD, (v0, w0r / BILLIARD.r, 0.0), dt, friction, (25.0, fast))
}

/// The slope of the putting green (rad): 2°, below the golf ball's static roll limit
/// `tan α ≤ c/R` = 0.070 (4.0°), so a putt that stops there holds.
pub const GREEN_SLOPE: f64 = 2.0 * std::f64::consts::PI / 180.0;
/// The putt's speed (m/s): a ball struck without spin uphill.
pub const PUTT_SPEED: f64 = 1.2;

/// A golf putt (`GOLF`) struck without spin up the green, run for 7 s after the strike.
pub fn putt(dt: f32, friction: Friction) -> ShotRun {
    strike(&GOLF, (PUTT_SPEED, 0.0, GREEN_SLOPE), dt, friction, (7.0, false))
}

/// The bowl of [`marble_in_bowl`]: a spherical cap of radius 0.3 m, 0.3 m across, as a
/// triangle mesh of 41 × 41 cells (the lowest point in a cell: a mesh whose lowest point is a
/// vertex of facets steeper than `c/R` has no place a rolling ball can rest on, and the ball
/// circles the vertex), built with `FIX_INTERNAL_EDGES`.
pub const BOWL_RADIUS: f32 = 0.3;
/// The marble: a glass ball of 8 mm radius (density 2500) with rolling resistance 0.2 mm
/// (c/R = 0.025) and μs = 0.5, μk = 0.4.
pub const MARBLE: BallOnPlane = BallOnPlane {
    r: 0.008,
    m: 2500.0 * 4.0 / 3.0 * std::f64::consts::PI * 0.008 * 0.008 * 0.008,
    mu_s: 0.5,
    mu_k: 0.4,
    c: 0.0002,
};
/// Where the marble is released: 3 cm from the bowl's axis.
pub const MARBLE_OFFSET: f32 = 0.03;

/// A spherical cap of radius `radius`, `2 rim` across, as `n × n` grid cells.
fn bowl_mesh(radius: f32, rim: f32, n: u32) -> (Vec<Vector>, Vec<[u32; 3]>) {
    let coord = |i: u32| -rim + 2.0 * rim * i as f32 / n as f32;
    let height = |x: f32, z: f32| radius - (radius * radius - (x * x + z * z)).sqrt();
    let vertices = (0..=n)
        .flat_map(|i| (0..=n).map(move |j| (coord(i), coord(j))))
        .map(|(x, z)| Vector::new(x, height(x, z), z));
    let w = n + 1;
    let indices = (0..n).flat_map(|i| {
        (0..n).flat_map(move |j| {
            let a = i * w + j;
            [[a, a + 1, a + w + 1], [a, a + w + 1, a + w]]
        })
    });
    (vertices.collect(), indices.collect())
}

/// The marble's half-period of small oscillation (s): rolling without slip on a sphere of
/// radius ρ = R_bowl − r, `φ'' = −5 g/(7 ρ) φ`, half a period `π sqrt(7 ρ/(5 g))`.
pub fn marble_half_period() -> f64 {
    let rho = (BOWL_RADIUS as f64) - MARBLE.r;
    std::f64::consts::PI * (7.0 * rho / (5.0 * G)).sqrt()
}

/// The number of half-swings after which the marble rests: with the kinetic roll torque c N
/// the swing `φ'' = −(5 g/(7 ρ)) (φ + sgn(φ') c/r)` is a Coulomb-damped oscillator whose
/// amplitude loses `2 c/r` each half-swing, and it stops at a turning point within the static
/// limit `|φ| ≤ c/r`. From `φ0 = asin(x0/ρ)`.
pub fn marble_half_swings() -> usize {
    let rho = (BOWL_RADIUS as f64) - MARBLE.r;
    let (mut phi, limit) = (((MARBLE_OFFSET as f64) / rho).asin(), MARBLE.c / MARBLE.r);
    let mut k = 0;
    while phi > limit {
        phi = (phi - 2.0 * limit).abs();
        k += 1;
    }
    k
}

/// What the marble did.
#[derive(Clone, Copy, Debug, Default)]
pub struct BowlRun {
    /// The time from which on its speed stays below 1e-4 m/s to the end of the run (s), NaN if
    /// it never does.
    pub still_from: f64,
    /// Its largest speed over the last 10 s of the run (m/s).
    pub late_speed: f64,
}

/// The shape of the bowl: the same 41 × 41 grid of the spherical cap as a triangle mesh or as a
/// heightfield, both with `FIX_INTERNAL_EDGES`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bowl {
    /// A triangle mesh.
    Mesh,
    /// A heightfield (a hollow in terrain).
    Heightfield,
}

impl Bowl {
    /// Both shapes.
    pub const ALL: [Bowl; 2] = [Bowl::Mesh, Bowl::Heightfield];

    /// The bowl's collider.
    fn collider(self) -> ColliderBuilder {
        let (rim, n) = (0.15, 41);
        let (v, i) = bowl_mesh(BOWL_RADIUS, rim, n);
        match self {
            Bowl::Mesh => ColliderBuilder::trimesh_with_flags(v, i, TriMeshFlags::FIX_INTERNAL_EDGES)
                .expect("a valid mesh"),
            Bowl::Heightfield => {
                // The mesh's vertices run over x outside and z inside: parry's column-major
                // heights with rows along z and columns along x, spanning 2 rim in x and z.
                let heights =
                    Array2::new((n + 1) as usize, (n + 1) as usize, v.iter().map(|p| p.y).collect());
                ColliderBuilder::heightfield_with_flags(
                    heights,
                    Vector::new(2.0 * rim, 1.0, 2.0 * rim),
                    HeightFieldFlags::FIX_INTERNAL_EDGES,
                )
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            Bowl::Mesh => "mesh bowl",
            Bowl::Heightfield => "heightfield hollow",
        }
    }
}

/// A marble released at rest [`MARBLE_OFFSET`] up the side of a bowl, sleeping off
/// (`can_sleep(false)`), run for 20 s.
pub fn marble_in_bowl(bowl: Bowl, dt: f32, friction: Friction) -> BowlRun {
    let mut sim = Sim::new(Vector::new(0.0, -G as f32, 0.0), dt, friction);
    sim.world.colliders.insert(bowl.collider());
    let (rb, r, x0) = (BOWL_RADIUS, MARBLE.r as f32, MARBLE_OFFSET);
    let y0 = rb - (rb * rb - x0 * x0).sqrt();
    let normal = Vector::new(-x0, rb - y0, 0.0).normalize();
    let b = sim.world.bodies.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(x0, y0, 0.0) + normal * r).can_sleep(false),
    );
    let c = sim.world.colliders.insert_with_parent(
        ColliderBuilder::ball(r).density(MARBLE.density()).friction(MARBLE.mu_s as f32),
        b,
        &mut sim.world.bodies,
    );
    if let Some(t) = &mut sim.tribo {
        t.set_material(c, MARBLE.material());
    }
    let mut run = BowlRun { still_from: f64::NAN, late_speed: 0.0 };
    let seconds = 20.0;
    for k in 1..=(seconds / dt as f64).round() as usize {
        sim.step();
        let t = k as f64 * dt as f64;
        let v = sim.body(b).linvel().length() as f64;
        if v < 1e-4 {
            if run.still_from.is_nan() {
                run.still_from = t;
            }
        } else {
            run.still_from = f64::NAN;
        }
        if t > seconds - 10.0 {
            run.late_speed = run.late_speed.max(v);
        }
    }
    run
}

/// The wheels of a [`cart`]: ball or solid cylinder (axis along the axle), radius (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wheel {
    /// A ball of this radius (m).
    Ball(f32),
    /// A solid cylinder of this radius (m), 0.1 m wide.
    Cylinder(f32),
}

impl Wheel {
    /// The radius (m).
    pub fn radius(self) -> f32 {
        match self {
            Wheel::Ball(r) | Wheel::Cylinder(r) => r,
        }
    }

    /// Mass (kg) at density 1000 and the moment of inertia factor `I/(m R²)` about the axle.
    fn mass_and_inertia(self) -> (f64, f64) {
        match self {
            Wheel::Ball(r) => (1000.0 * 4.0 / 3.0 * std::f64::consts::PI * (r as f64).powi(3), 0.4),
            Wheel::Cylinder(r) => (1000.0 * std::f64::consts::PI * (r as f64).powi(2) * 0.1, 0.5),
        }
    }

    /// A short name.
    pub fn name(self) -> String {
        match self {
            Wheel::Ball(r) => format!("ball wheels R={r}"),
            Wheel::Cylinder(r) => format!("cylinder wheels R={r}"),
        }
    }
}

/// The carts of the rows: ball wheels of radius 0.05 and 0.15 m, a chassis of 4 and of 20 times
/// one wheel's mass. (Narrow cylinder wheels, 0.1 m wide, slide at 1/60 on a third to a half of
/// their rolling steps and roll out 1–3 % short on impulse joints, with or without the rolling
/// hold: docs/rapier.md §0 item 7 has the measurements. [`cart`] builds them too.)
pub fn carts() -> Vec<(Wheel, f64)> {
    let wheels = [Wheel::Ball(0.05), Wheel::Ball(0.15)];
    wheels.into_iter().flat_map(|w| [(w, 4.0), (w, 20.0)]).collect()
}

/// The kinetic deceleration of a cart on four `wheel`s with a chassis of `ratio` wheel masses
/// (the rolling material, η_r = 0.05, μk = 0.5): each wheel's roll torque `2 η_r μk R N_i`
/// (curvature 1/R along the rolling direction, flat ground), `Σ N_i = M g` with M the total
/// mass; energy `d/dt[½ M v² + ½ Σ I_w (v/R)²] = −Σ T_i v/R`:
/// `a = 2 η_r μk g M/(M + 4 k m_w)` with `I_w = k m_w R²`.
pub fn cart_deceleration(wheel: Wheel, ratio: f64) -> f64 {
    let (m_w, k) = wheel.mass_and_inertia();
    let m = (4.0 + ratio) * m_w;
    2.0 * 0.05 * 0.5 * G * m / (m + 4.0 * k * m_w)
}

/// What a cart did.
#[derive(Clone, Copy, Debug, Default)]
pub struct CartRun {
    /// The stop (s), NaN if none: tribo, the first step with every wheel's roll `Static`;
    /// stock, the first with the chassis' |v| below 1e-3 m/s. (On impulse joints a heavy
    /// chassis then rocks on its axles' compliance, at ±4 mm/s for half a second with 20 wheel
    /// masses at 1/60: rapier's joints, not the friction.)
    pub t_stop: f64,
    /// Distance then (m), or at the end of the run.
    pub distance: f64,
    /// Fraction of the rolling steps (after the first) whose four wheel contacts all have
    /// `Static` slide.
    pub static_rolling: f64,
}

/// A cart: a chassis (a box 0.25 × 0.05 × 0.15 m scaled by the wheel radius over 0.1 m, of
/// `ratio` wheel masses) on four `wheel`s on revolute joints about z, impulse joints or a
/// multibody (`multibody`, its default joint damping set to zero), rolled at 2 m/s along +x.
pub fn cart(wheel: Wheel, ratio: f64, multibody: bool, dt: f32, friction: Friction) -> CartRun {
    let mut sim = Sim::new(Vector::new(0.0, -G as f32, 0.0), dt, friction);
    let ground = sim.add_ground(200.0);
    let r = wheel.radius();
    let (m_w, _) = wheel.mass_and_inertia();
    let s = r / 0.1;
    let half = Vector::new(0.25 * s, 0.05 * s, 0.15 * s);
    let chassis_volume = 8.0 * (half.x * half.y * half.z) as f64;
    let (wheel_group, chassis_group) = (Group::GROUP_1, Group::GROUP_2);
    let v0 = 2.0f32;
    let chassis = sim
        .world
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, r, 0.0)).linvel(Vector::X * v0));
    sim.world.colliders.insert_with_parent(
        ColliderBuilder::cuboid(half.x, half.y, half.z)
            .density((ratio * m_w / chassis_volume) as f32)
            .collision_groups(InteractionGroups::new(chassis_group, Group::NONE, InteractionTestMode::And)),
        chassis,
        &mut sim.world.bodies,
    );
    let mut colliders = Vec::new();
    let mut wheels = Vec::new();
    for (x, z) in [(-0.8, -1.3), (-0.8, 1.3), (0.8, -1.3), (0.8, 1.3)] {
        let (x, z) = (x * half.x, z * half.z);
        let shape = match wheel {
            Wheel::Ball(r) => ColliderBuilder::ball(r),
            Wheel::Cylinder(r) => {
                ColliderBuilder::cylinder(0.05, r).rotation(Vector::X * std::f32::consts::FRAC_PI_2)
            }
        };
        let w = sim.world.bodies.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, r, z))
                .linvel(Vector::X * v0)
                .angvel(Vector::Z * (-v0 / r)),
        );
        let c = sim.world.colliders.insert_with_parent(
            shape.density(1000.0).friction(0.6).collision_groups(InteractionGroups::new(
                wheel_group,
                Group::GROUP_1,
                InteractionTestMode::And,
            )),
            w,
            &mut sim.world.bodies,
        );
        if let Some(t) = &mut sim.tribo {
            t.set_material(c, FrictionMaterial::Tribo(rolling_material()));
        }
        let axle = RevoluteJointBuilder::new(Vector::Z)
            .local_anchor1(Vector::new(x, 0.0, z))
            .contacts_enabled(false);
        if multibody {
            sim.world.multibody_joints.insert(chassis, w, axle, true).expect("a tree");
        } else {
            sim.world.impulse_joints.insert(chassis, w, axle, true);
        }
        colliders.push(c);
        wheels.push(w);
    }
    if multibody {
        launch_multibody_cart(&mut sim, chassis, v0, r);
    }
    let mut run = CartRun { t_stop: f64::NAN, ..Default::default() };
    let (mut rolling, mut all_static) = (0usize, 0usize);
    for k in 1..=(15.0 / dt as f64).round() as usize {
        sim.step();
        let rb = sim.body(chassis);
        run.distance = rb.translation().x as f64;
        let tribo = sim.tribo.as_ref();
        let contacts: Vec<_> = colliders.iter().map(|&c| tribo.and_then(|t| t.contact(ground, c))).collect();
        let stopped = match friction {
            Friction::Tribo => contacts.iter().all(|i| i.is_some_and(|i| i.roll == Mode::Static)),
            Friction::Stock => rb.linvel().length() < 1e-3,
        };
        if stopped && k > 1 {
            run.t_stop = k as f64 * dt as f64;
            break;
        }
        if k > 1 {
            rolling += 1;
            all_static += usize::from(contacts.iter().all(|i| i.is_some_and(|i| i.slide == Mode::Static)));
        }
    }
    run.static_rolling = all_static as f64 / rolling.max(1) as f64;
    run
}

/// A time step's name for the rows (`1/60`).
fn dt_name(dt: f32) -> String {
    format!("1/{}", (1.0 / dt).round())
}

/// The source of the shots' analytic course.
const SHOT_SRC: &str = "game_step.rs ShotCourse: kinetic skid with the roll torque, then a = 5 c g/(7 R)";

/// The validation rows of the game-step scenes at [`GAME_DTS`], tribo and stock rapier.
pub fn validation_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for dt in GAME_DTS {
        let d = dt_name(dt);
        billiard_rows(&mut rows, dt, &d);
        putt_rows(&mut rows, dt, &d);
        marble_rows(&mut rows, dt, &d);
        cart_rows(&mut rows, dt, &d);
    }
    // One run with the user lifting rapier's angular speed cap themselves.
    let (v0, w0r) = Shot::Stun.speeds();
    let e = shot_course(&BILLIARD, v0, w0r / BILLIARD.r, 0.0);
    let case = "game step billiard ball without spin at 2 m/s, allow_fast_rotation set by the user, dt=1/60";
    shot_rows(
        &mut rows,
        case,
        &e,
        &billiard(Shot::Stun, 1.0 / 60.0, Friction::Tribo, true),
        1.0 / 60.0,
        (BILLIARD.mu_k, SHOT_SRC),
    );
    rows
}

/// The billiard shots' rows: tribo against the analytic course, stock rolling on.
fn billiard_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    for shot in Shot::ALL {
        let (v0, w0r) = shot.speeds();
        let e = shot_course(&BILLIARD, v0, w0r / BILLIARD.r, 0.0);
        let case = format!("game step billiard ball {} at {v0} m/s, dt={d}", shot.name());
        shot_rows(
            rows,
            &case,
            &e,
            &billiard(shot, dt, Friction::Tribo, false),
            dt,
            (BILLIARD.mu_k, SHOT_SRC),
        );
        let stock = billiard(shot, dt, Friction::Stock, false);
        rows.push(Row::new(
            &case,
            "stop time [s] (stock rapier)",
            25.0,
            stock_t_stop(&stock),
            Tolerance::AtLeast,
            "stock: no rolling resistance, rolls on past 25 s",
        ));
    }
}

/// The golf putt's rows: up a 2° green to a stop that holds (tribo), rolling back down (stock).
fn putt_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    let e = shot_course(&GOLF, PUTT_SPEED, 0.0, GREEN_SLOPE);
    let case = format!("game step golf putt at {PUTT_SPEED} m/s up a 2° green, dt={d}");
    let run = putt(dt, Friction::Tribo);
    // (At 1/30 the ball spins up by 15 rad/s per step of its skid, over a radian per step
    // at its end: 2 %.)
    let rel = if dt > 0.03 { 0.02 } else { 0.01 };
    rows.push(Row::new(
        &case,
        "stop distance [m] (tribo)",
        e.x_stop,
        run.distance,
        Tolerance::Rel(rel),
        "game_step.rs ShotCourse, up a slope",
    ));
    rows.push(Row::new(
        &case,
        "stop time [s] (tribo)",
        e.t_stop,
        run.t_stop,
        Tolerance::Abs(rel * e.t_stop + dt as f64),
        "game_step.rs ShotCourse, up a slope",
    ));
    rows.push(Row::new(
        &case,
        "drift over the 5 s after the stop [m] (tribo)",
        1e-4,
        run.drift,
        Tolerance::AtMost,
        "tan α = 0.035 < c/R = 0.070: the static roll holds",
    ));
    let stock = putt(dt, Friction::Stock);
    rows.push(Row::new(
        &case,
        "distance after 7 s [m] (stock rapier)",
        0.5 * e.x_stop,
        stock.end,
        Tolerance::AtMost,
        "stock: no rolling resistance, rolls back down",
    ));
}

/// The marble's rows: released up each bowl, it comes to rest (tribo) or swings on (stock).
fn marble_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    for bowl in Bowl::ALL {
        let case = format!("game step marble released 3 cm up a {}, sleeping off, dt={d}", bowl.name());
        let halves = marble_half_swings() as f64;
        let run = marble_in_bowl(bowl, dt, Friction::Tribo);
        rows.push(Row::new(
            &case,
            "still (|v| < 1e-4 m/s) from [half-periods] (tribo)",
            3.0,
            run.still_from / marble_half_period(),
            Tolerance::AtMost,
            "Coulomb-damped swing: rests after the analytic half-swings, here at most 3",
        ));
        rows.push(Row::new(
            &case,
            "largest |v| over the last 10 s [m/s] (tribo)",
            1e-4,
            run.late_speed,
            Tolerance::AtMost,
            "at rest",
        ));
        rows.push(Row::new(
            &case,
            "analytic half-swings to rest",
            3.0,
            halves,
            Tolerance::AtMost,
            "amplitude loses 2 c/r per half-swing",
        ));
        let stock = marble_in_bowl(bowl, dt, Friction::Stock);
        rows.push(Row::new(
            &case,
            "largest |v| over the last 10 s [m/s] (stock rapier)",
            0.05,
            stock.late_speed,
            Tolerance::AtLeast,
            "stock: no rolling resistance, swings on",
        ));
    }
}

/// The carts' rows: each wheel and mass ratio on impulse and multibody joints, tribo and stock.
fn cart_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    for (wheel, ratio) in carts() {
        for multibody in [false, true] {
            let joints = if multibody { "multibody" } else { "impulse" };
            let case = format!(
                "game step cart on {} ({joints} joints), chassis {ratio} wheel masses, dt={d}",
                wheel.name()
            );
            let (t_exp, x_exp) = roll_out(2.0, cart_deceleration(wheel, ratio), dt);
            let run = cart(wheel, ratio, multibody, dt, Friction::Tribo);
            let src = "a = 2 η_r μk g M/(M + 4 k m_w), from the contacts' second step";
            rows.push(Row::new(
                &case,
                "stop time [s] (tribo)",
                t_exp,
                run.t_stop,
                Tolerance::Abs(0.01 * t_exp + dt as f64),
                src,
            ));
            rows.push(Row::new(
                &case,
                "distance [m] (tribo)",
                x_exp,
                run.distance,
                Tolerance::Rel(0.01),
                src,
            ));
            rows.push(Row::new(
                &case,
                "rolling steps with every wheel's slide static (tribo)",
                0.95,
                run.static_rolling,
                Tolerance::AtLeast,
                "wheels rolling without slip",
            ));
            let stock = cart(wheel, ratio, multibody, dt, Friction::Stock);
            rows.push(Row::new(
                &case,
                "distance after 15 s [m] (stock rapier)",
                2.0 * x_exp,
                stock.distance,
                Tolerance::AtLeast,
                "stock: no rolling resistance, rolls on",
            ));
        }
    }
}

/// The rows of a shot (tribo): the skid's end (time and speed within 1 % + one step), the stop
/// (time within 1 % + one step, distance within 1 % + one step's travel at the skid's end
/// speed), and the rolling steps' static slide (≥ 95 %).
fn shot_rows(
    rows: &mut Vec<Row>,
    case: &str,
    e: &ShotCourse,
    run: &ShotRun,
    dt: f32,
    (mu_k, src): (f64, &str),
) {
    let dt = dt as f64;
    let within = [
        ("end of the skid [s] (tribo)", e.t_skid, run.t_skid, 0.01 * e.t_skid + dt),
        ("speed at the end of the skid [m/s] (tribo)", e.v_skid, run.v_skid, 0.01 * e.v_skid + mu_k * G * dt),
        ("stop time [s] (tribo)", e.t_stop, run.t_stop, 0.01 * e.t_stop + dt),
        ("distance [m] (tribo)", e.x_stop, run.distance, 0.01 * e.x_stop + e.v_skid * dt),
    ];
    for (quantity, expected, measured, tol) in within {
        rows.push(Row::new(case, quantity, expected, measured, Tolerance::Abs(tol), src));
    }
    rows.push(Row::new(
        case,
        "rolling steps with static slide (tribo)",
        0.95,
        run.static_rolling,
        Tolerance::AtLeast,
        "rolling without slip is stick",
    ));
}

//! The differential-drive robot (`lab/robots/diff_drive.urdf`) on a flat floor, against the
//! mechanics of rolling, spinning and sliding resistance.
//!
//! The robot: a chassis (4 kg, centre of mass 60 mm behind the axle, at axle height), two
//! driven wheels (spheres of radius `r = 50` mm, 0.5 kg, moment of inertia `I_w` about the axle)
//! on revolute joints 2 · 130 mm apart, and a caster ball (radius `r_c = 20` mm, 0.1 kg, moment
//! of inertia `I_c`) on a spherical joint 120 mm behind the axle. Total mass `M = 5.1` kg. z is
//! up; the floor's top is z = 0. A slope is a tilted gravity, `g (sin θ, 0, −cos θ)`, downhill
//! the robot's forward direction (+x, the caster uphill).
//!
//! Static loads (moments about the axle): the chassis' weight splits 2 g on the axle, 2 g on
//! the caster, so each wheel carries `N_w = 1.5 g` and the caster `N_c = 2.1 g`.
//!
//! Derivations:
//! * **coasting**: with the motors released at speed `v0`, each contact's rolling resistance
//!   torque `c N` opposes its roll, at the power `c N v/r`; the caster's torque on a ball free
//!   in its socket is balanced by a ground force `c_c N_c/r_c` that its socket passes to the
//!   chassis. The wheels' and the caster's lengths are chosen with `c_w/r = c_c/r_c`, so the
//!   braking force is `(c_w/r) M g` whatever the load split. The kinetic energy is
//!   `½ M_eff v²`, `M_eff = M + 2 I_w/r² + I_c/r_c²`: the robot decelerates at
//!   `a = (c_w/r) M g/M_eff`, stops after `t = v0/a` and `d = v0²/(2 a)`.
//!   Stock rapier (no rolling resistance): it coasts on at `v0`.
//! * **turning in place**: opposite wheel torques `±τ`; each wheel's ground force `f` turns the
//!   robot about the axle's midpoint against the wheels' spin resistance `c_s N_w` each and the
//!   caster's rolling resistance (its ground force `c_c N_c/r_c` at 120 mm): `2 · 0.13 f =
//!   2 c_s N_w + 0.12 c_c N_c/r_c`; each wheel's torque balance `τ = f r + c_w N_w`. The robot
//!   starts to turn iff `τ > τ* = c_w N_w + r (2 c_s N_w + 0.12 c_c N_c/r_c)/0.26`. Stock rapier
//!   (no spin or rolling resistance): `τ* = 0`.
//! * **parked on a slope** with locked wheels: the wheels' static friction `μs N_w` each and the
//!   caster's rolling resistance `c_c N_c/r_c` hold the downhill weight `M g sin θ`. Moments about
//!   the wheels' contact line give `N_c = g Σ m_i (−x_i cos θ − z_i sin θ)/0.12` (`x_i, z_i` the
//!   centres of mass relative to that line: chassis (−0.06, 0.05), wheels (0, 0.05), caster
//!   (−0.12, 0.02)), `2 N_w = M g cos θ − N_c`: held iff
//!   `μs 2 N_w + (c_c/r_c) N_c ≥ M g sin θ`; [`slope_limit`] solves it for θ*.

use crate::rapier::scenarios::{Friction, Sim};
use crate::validation::{Row, Tolerance};
use tribo::tracking::SpinModel;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::urdf::{Joints, Robot};
use tribo_rapier::FrictionMaterial;

/// Gravity (m/s²).
pub const G: f64 = 9.81;
/// Wheel radius, caster radius (m).
pub const RADII: (f64, f64) = (0.05, 0.02);
/// Masses: chassis, one wheel, caster (kg).
pub const MASSES: (f64, f64, f64) = (4.0, 0.5, 0.1);
/// Moments of inertia: a wheel about its axle, the caster ball (kg m²).
pub const INERTIAS: (f64, f64) = (0.0005, 1.6e-5);
/// Half the track (m) and the caster's distance behind the axle (m).
pub const GEOMETRY: (f64, f64) = (0.13, 0.12);
/// The wheels' and caster's friction coefficients (μs, μk).
pub const MU: (f64, f64) = (0.6, 0.5);
/// The wheels' rolling resistance length `c_w` (m).
pub const WHEEL_ROLL: f64 = 0.001;
/// The caster's rolling resistance length `c_c = c_w r_c/r` (m).
pub const CASTER_ROLL: f64 = WHEEL_ROLL * RADII.1 / RADII.0;
/// The wheels' spin resistance length `c_s` (m).
pub const WHEEL_SPIN: f64 = 0.005;

/// The total mass `M` (kg).
pub fn total_mass() -> f64 {
    MASSES.0 + 2.0 * MASSES.1 + MASSES.2
}

/// The static normal loads on flat ground: one wheel's `N_w` and the caster's `N_c` (N).
pub fn loads(theta: f64) -> (f64, f64) {
    let (s, c) = theta.sin_cos();
    // (mass, x, z) of the centres of mass relative to the wheels' contact line.
    let parts = [(MASSES.0, -0.06, 0.05), (2.0 * MASSES.1, 0.0, 0.05), (MASSES.2, -GEOMETRY.1, 0.02)];
    let nc = G * parts.iter().map(|(m, x, z)| m * (-x * c - z * s)).sum::<f64>() / GEOMETRY.1;
    ((total_mass() * G * c - nc) / 2.0, nc)
}

/// The coasting deceleration `a = (c_w/r) M g/M_eff` (m/s²); 0 for stock rapier.
pub fn coast_decel(friction: Friction) -> f64 {
    if friction == Friction::Stock {
        return 0.0;
    }
    let m_eff = total_mass() + 2.0 * INERTIAS.0 / RADII.0.powi(2) + INERTIAS.1 / RADII.1.powi(2);
    WHEEL_ROLL / RADII.0 * total_mass() * G / m_eff
}

/// The breakaway wheel torque of turning in place, `τ*` (N m); 0 for stock rapier.
pub fn turn_torque(friction: Friction) -> f64 {
    if friction == Friction::Stock {
        return 0.0;
    }
    let (nw, nc) = loads(0.0);
    WHEEL_ROLL * nw
        + RADII.0 * (2.0 * WHEEL_SPIN * nw + GEOMETRY.1 * CASTER_ROLL * nc / RADII.1) / (2.0 * GEOMETRY.0)
}

/// The steepest slope θ* (rad) the parked robot holds (bisection of the holding condition);
/// stock rapier: no rolling resistance at the caster.
pub fn slope_limit(friction: Friction) -> f64 {
    let cc = if friction == Friction::Tribo { CASTER_ROLL } else { 0.0 };
    let margin = |t: f64| {
        let (nw, nc) = loads(t);
        MU.0 * 2.0 * nw + cc / RADII.1 * nc - total_mass() * G * t.sin()
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if margin(mid) >= 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The robot on a floor, gravity tilted by `theta` (rad) about y.
pub struct DriveScene {
    /// The world.
    pub sim: Sim,
    /// The robot.
    pub robot: Robot,
}

impl DriveScene {
    /// The robot on `joints` at rest on the floor, motors off, gravity tilted by `theta`.
    pub fn new(joints: Joints, dt: f32, friction: Friction, theta: f64) -> DriveScene {
        let (s, c) = theta.sin_cos();
        let mut sim = Sim::new(Vector::new((G * s) as f32, 0.0, -(G * c) as f32), dt, friction);
        sim.world.colliders.insert(
            ColliderBuilder::cuboid(50.0, 50.0, 0.5)
                .translation(Vector::new(0.0, 0.0, -0.5))
                .friction(MU.0 as f32),
        );
        let options = tribo_rapier::urdf::UrdfLoaderOptions {
            shift: Pose::from_translation(Vector::new(0.0, 0.0, RADII.0 as f32)),
            ..Default::default()
        };
        let file = super::gripper::robots_dir().join("diff_drive.urdf");
        let robot = Robot::load(file, joints, &options, &mut sim.world).expect("the lab's robot loads");
        robot.set_multibody_damping(&mut sim.world, 0.0).expect("a valid damping");
        let material = |roll: f64, spin: f64| {
            let b = FrictionMaterial::builder().friction(MU.0, MU.1).rolling_resistance(roll);
            let b = if spin > 0.0 { b.spinning_resistance(spin) } else { b.spin(SpinModel::Off) };
            b.build().expect("valid material")
        };
        let parts = [
            ("wheel_left", material(WHEEL_ROLL, WHEEL_SPIN)),
            ("wheel_right", material(WHEEL_ROLL, WHEEL_SPIN)),
            ("caster", material(CASTER_ROLL, 0.0)),
        ];
        match &mut sim.tribo {
            Some(t) => robot.set_materials(t, &parts).expect("the robot's links"),
            None => {
                for (link, _) in parts {
                    robot.set_friction(&mut sim.world, link, MU.0 as f32).expect("the robot's links");
                }
            }
        }
        DriveScene { sim, robot }
    }

    /// Both wheels' velocity motors: targets (rad/s) and torque bound (N m).
    pub fn drive(&mut self, targets: [f64; 2], torque: f64) {
        for (joint, t) in ["left_axle", "right_axle"].into_iter().zip(targets) {
            self.robot.set_motor(&mut self.sim.world, joint, t as f32, torque as f32).expect("a wheel joint");
        }
    }

    /// Keeps the robot's bodies awake: rapier puts a robot that turns slowly to sleep with its
    /// motors on (at 1.1 τ* the turning robot fell asleep 0.5 s after its motors started, at a
    /// yaw rate of 0.14 rad/s, on multibody and impulse joints alike).
    pub fn keep_awake(&mut self) {
        self.robot.keep_awake(&mut self.sim.world);
    }

    /// The chassis' body.
    pub fn chassis(&self) -> &RigidBody {
        self.sim.body(self.robot.body("chassis").expect("the chassis"))
    }

    /// The chassis' yaw (rad).
    pub fn yaw(&self) -> f64 {
        let x = *self.chassis().rotation() * Vector::X;
        (x.y as f64).atan2(x.x as f64)
    }
}

fn steps(seconds: f64, dt: f32) -> usize {
    (seconds / dt as f64).round() as usize
}

/// The drive-up before a coast: wheel speed target (rad/s, 0.5 m/s), torque bound (N m, below
/// the wheels' traction) and duration (s).
const DRIVE_UP: (f64, f64, f64) = (10.0, 0.3, 1.0);

/// A coast: speed at release (m/s), the time to stop and the distance (forward speed ≤ 0, or
/// `limit` seconds), and the speed after `limit` seconds if it did not stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Coast {
    /// The chassis' forward speed when the motors were released (m/s).
    pub v0: f64,
    /// The time from the release to the stop (s).
    pub stop_time: f64,
    /// The distance from the release to the stop (m).
    pub distance: f64,
    /// The forward speed at the end of the run (m/s).
    pub v_end: f64,
}

/// The robot driven up to 0.5 m/s, then its motors released; the run ends when it stops or
/// after `limit` seconds.
pub fn coast(joints: Joints, dt: f32, friction: Friction, limit: f64) -> Coast {
    let mut s = DriveScene::new(joints, dt, friction, 0.0);
    s.drive([DRIVE_UP.0; 2], DRIVE_UP.1);
    for _ in 0..steps(DRIVE_UP.2, dt) {
        s.sim.step();
    }
    s.drive([0.0; 2], 0.0);
    let x0 = s.chassis().translation().x as f64;
    let v = |s: &DriveScene| s.chassis().linvel().x as f64;
    let mut run = Coast { v0: v(&s), ..Default::default() };
    let mut k = 0;
    while k < steps(limit, dt) {
        s.sim.step();
        k += 1;
        if v(&s) <= 0.0 {
            break;
        }
    }
    run.stop_time = k as f64 * dt as f64;
    run.distance = s.chassis().translation().x as f64 - x0;
    run.v_end = v(&s);
    run
}

/// Turning in place with wheel torques bounded by `torque` (targets ∓2 rad/s), the robot kept
/// awake ([`DriveScene::keep_awake`]): the yaw after [`TURN_RUN`] (rad).
pub fn turn(joints: Joints, dt: f32, friction: Friction, torque: f64) -> f64 {
    let mut s = DriveScene::new(joints, dt, friction, 0.0);
    s.keep_awake();
    for _ in 0..steps(0.5, dt) {
        s.sim.step();
    }
    let yaw0 = s.yaw();
    s.drive([-2.0, 2.0], torque);
    for _ in 0..steps(TURN_RUN, dt) {
        s.sim.step();
    }
    (s.yaw() - yaw0).abs()
}

/// The yaw acceleration (rad/s²) of turning in place with wheel torques bounded by `torque`, the
/// robot kept awake: the chassis' yaw rate change from 0.1 s to 0.3 s after the motors start,
/// over 0.2 s.
pub fn turn_accel(joints: Joints, dt: f32, friction: Friction, torque: f64) -> f64 {
    let mut s = DriveScene::new(joints, dt, friction, 0.0);
    s.keep_awake();
    for _ in 0..steps(0.5, dt) {
        s.sim.step();
    }
    s.drive([-TURN_TARGET, TURN_TARGET], torque);
    let rate = |s: &DriveScene| s.chassis().angvel().z as f64;
    for _ in 0..steps(0.1, dt) {
        s.sim.step();
    }
    let w1 = rate(&s);
    for _ in 0..steps(0.2, dt) {
        s.sim.step();
    }
    (rate(&s) - w1) / 0.2
}

/// The analytic yaw acceleration of turning in place once turning, with wheel torques `τ`:
/// the yaw ψ turns each wheel by `φ = ψ b/r` (`b` half the track), so
/// `α = (2 (b/r)(τ − c_w N_w) − 2 c_s N_w − l c_c N_c/r_c)/I_eff` with
/// `I_eff = I_chassis + m_ch 0.06² + 2 (I_w,z + m_w b²) + m_c l² + I_c (l/r_c)² + 2 I_w (b/r)²`
/// (`l` the caster's distance behind the axle; the caster ball rolls at `ψ' l/r_c`).
pub fn turn_accel_expected(torque: f64) -> f64 {
    ((torque - turn_torque(Friction::Tribo)) * turn_accel_per_torque()).max(0.0)
}

/// The yaw acceleration per newton metre of wheel torque above τ* once turning,
/// `2 (b/r)/I_eff` (rad/s² per N m; see [`turn_accel_expected`]).
pub fn turn_accel_per_torque() -> f64 {
    let (b, l) = GEOMETRY;
    let (r, rc) = RADII;
    let ratio = b / r;
    let i_eff = CHASSIS_IZZ
        + MASSES.0 * 0.06f64.powi(2)
        + 2.0 * (INERTIAS.0 + MASSES.1 * b * b)
        + MASSES.2 * l * l
        + INERTIAS.1 * (l / rc).powi(2)
        + 2.0 * INERTIAS.0 * ratio * ratio;
    2.0 * ratio / i_eff
}

/// The chassis' moment of inertia about the vertical through its centre of mass (kg m²).
pub const CHASSIS_IZZ: f64 = 0.0433;
/// The wheels' velocity targets while turning in place (rad/s).
pub const TURN_TARGET: f64 = 2.0;

/// How long a turning run drives (s).
pub const TURN_RUN: f64 = 2.0;

/// Parked with locked wheels (velocity target 0, 50 N m) on flat ground, then the slope tilts
/// up to `theta` over [`PARK_SETTLE`] (a quasi-static load, so the normal loads follow the
/// tilt): the chassis' drift (m) over the [`PARK_WINDOW`] after it.
pub fn park(joints: Joints, dt: f32, friction: Friction, theta: f64) -> f64 {
    let mut s = DriveScene::new(joints, dt, friction, 0.0);
    s.drive([0.0; 2], 50.0);
    let n = steps(PARK_SETTLE, dt);
    for k in 1..=n {
        let (sin, cos) = (theta * k as f64 / n as f64).sin_cos();
        s.sim.world.gravity = Vector::new((G * sin) as f32, 0.0, -(G * cos) as f32);
        // A change of gravity does not wake sleeping bodies.
        for link in &s.robot.links {
            if let Some(rb) = s.sim.world.bodies.get_mut(link.body) {
                rb.wake_up(true);
            }
        }
        s.sim.step();
    }
    for _ in 0..steps(PARK_REST, dt) {
        s.sim.step();
    }
    let x0 = s.chassis().translation();
    for _ in 0..steps(PARK_WINDOW, dt) {
        s.sim.step();
        if (s.chassis().translation() - x0).length() > 0.05 {
            break;
        }
    }
    (s.chassis().translation() - x0).length() as f64
}

/// The settling time before a parked robot's drift is measured (s).
pub const PARK_SETTLE: f64 = 1.0;
/// The rest after the tilt before a parked robot's drift is measured (s).
pub const PARK_REST: f64 = 0.5;
/// The window over which a parked robot's drift is measured (s).
pub const PARK_WINDOW: f64 = 5.0;

/// How long a coast may run (s): longer than the tribo robot's stop time (2.8 s from 0.5 m/s).
pub const COAST_RUN: f64 = 5.0;

/// The robot's rows (see [`super::rows`]): coasting, turning in place and parking, on
/// multibody joints at dt = 1/60 and 1/240 and on impulse joints at 1/240. (On impulse joints
/// at 1/60 rapier's joints alone brake the robot, stock rapier too: docs/robots.md.)
pub fn validation_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    let configs = [
        (Joints::Multibody, 1.0 / 60.0, "multibody joints, dt=1/60"),
        (Joints::Multibody, 1.0 / 240.0, "multibody joints, dt=1/240"),
        (Joints::Impulse, 1.0 / 240.0, "impulse joints, dt=1/240"),
    ];
    for (joints, dt, name) in configs {
        let case = format!("robot drive coast, {name}");
        let c = coast(joints, dt, Friction::Tribo, COAST_RUN);
        let a = coast_decel(Friction::Tribo);
        let (t, d) = (c.v0 / a, c.v0 * c.v0 / (2.0 * a));
        rows.push(Row::new(
            &case,
            "tribo: stop time after release [s]",
            t,
            c.stop_time,
            Tolerance::Abs(0.01 * t + dt as f64),
            "t = v0/a, a = (c_w/r) M g/M_eff (c_w/r = c_c/r_c); within 1 % + one step",
        ));
        rows.push(Row::new(
            &case,
            "tribo: coasting distance [m]",
            d,
            c.distance,
            Tolerance::Abs(0.01 * d + c.v0 * dt as f64),
            "d = v0²/(2 a); within 1 % + one step",
        ));
        let stock = coast(joints, dt, Friction::Stock, COAST_RUN);
        rows.push(Row::new(
            &case,
            format!("stock: speed {COAST_RUN} s after release [m/s] (coasts on)"),
            0.4,
            stock.v_end,
            Tolerance::AtLeast,
            "stock: no rolling resistance, nothing stops the robot",
        ));

        let case = format!("robot drive turn in place, {name}");
        let tau = turn_torque(Friction::Tribo);
        rows.push(Row::new(
            &case,
            "tribo: yaw acceleration at wheel torque 1.5 τ* [rad/s²]",
            turn_accel_expected(1.5 * tau),
            turn_accel(joints, dt, Friction::Tribo, 1.5 * tau),
            Tolerance::Rel(0.02),
            "α = (2 (b/r)(τ − c_w N_w) − 2 c_s N_w − l c_c N_c/r_c)/I_eff; τ* = 0.0525 N m",
        ));
        // The breakaway torque from the acceleration just above it: τ = 1.02 τ* − α/(2 (b/r)/I_eff).
        let alpha = turn_accel(joints, dt, Friction::Tribo, 1.02 * tau);
        rows.push(Row::new(
            &case,
            "tribo: breakaway wheel torque, from the yaw acceleration at 1.02 τ* [N m]",
            tau,
            1.02 * tau - alpha / turn_accel_per_torque(),
            Tolerance::Rel(0.02),
            "τ* = c_w N_w + r (2 c_s N_w + l c_c N_c/r_c)/(2 b) = 0.0525 N m",
        ));
        rows.push(Row::new(
            &case,
            format!("tribo: yaw after {TURN_RUN} s at 0.9 τ* [rad] (does not turn)"),
            0.002,
            turn(joints, dt, Friction::Tribo, 0.9 * tau),
            Tolerance::AtMost,
            "τ < τ* = c_w N_w + r (2 c_s N_w + l c_c N_c/r_c)/(2 b): no turn",
        ));
        rows.push(Row::new(
            &case,
            format!("stock: yaw after {TURN_RUN} s at 0.9 τ* [rad] (turns)"),
            0.5,
            turn(joints, dt, Friction::Stock, 0.9 * tau),
            Tolerance::AtLeast,
            "stock: no spin or rolling resistance, τ* = 0",
        ));

        let case = format!("robot drive parked on a slope, {name}");
        for friction in [Friction::Tribo, Friction::Stock] {
            let n = if friction == Friction::Tribo { "tribo" } else { "stock" };
            let limit = slope_limit(friction);
            let src = if friction == Friction::Tribo {
                "μs 2 N_w + (c_c/r_c) N_c = M g sin θ*: θ* = 25.38°"
            } else {
                "stock (no rolling resistance): μs 2 N_w = M g sin θ*: θ* = 25.11°"
            };
            rows.push(Row::new(
                &case,
                format!("{n}: drift over {PARK_WINDOW} s at 0.98 θ* [m] (held; rapier's sleeping on)"),
                1e-4,
                park(joints, dt, friction, 0.98 * limit),
                Tolerance::AtMost,
                src,
            ));
            rows.push(Row::new(
                &case,
                format!("{n}: drift at 1.02 θ* [m] (slides)"),
                0.05,
                park(joints, dt, friction, 1.02 * limit),
                Tolerance::AtLeast,
                src,
            ));
        }
    }
    rows
}

//! The parallel-jaw gripper (`lab/robots/gripper_flat.urdf`, `gripper_round.urdf`) holding
//! objects against gravity, against the mechanics of a two-point grip.
//!
//! The base is fixed; each finger slides on a prismatic joint and is closed by a velocity
//! motor (target 0.05 m/s closing) bounded by the grip force `F`: pressed against an object, the
//! finger pushes with `F`, so each pad's normal force is `N = F`. The object is set between the
//! pads weightless (`gravity_scale` 0) while they close, for [`SQUEEZE`]; then its weight comes on
//! in one step ("the load"). z is up, g = 9.81 m/s².
//!
//! Derivations (each pad's contact carries `N = F`):
//! * **box** (flat pads), mass `m`: the two pads' friction holds at most `2 μs F`, so it is held
//!   iff `2 μs F ≥ m g`: the threshold force `F* = m g/(2 μs)`. Below it the box slips, with the
//!   kinetic friction `2 μk F` against its weight: `a = g − 2 μk F/m`. A box already slipping at
//!   a force between `m g/(2 μs)` and `m g/(2 μk)` keeps slipping at that `a` (static friction
//!   would hold it, kinetic cannot stop it: hysteresis); at a force above `m g/(2 μk)` it
//!   decelerates at `2 μk F/m − g` and is held again from the step its slip stops.
//! * **rod** pinched off its centre of mass by `d` (round pads, point contacts): the weight is held
//!   by the pads' slide friction (`2 μs F ≫ m g`), and its moment `m g d` about the grip axis by
//!   the two contacts' spin resistance, `c_s N` each (spin resistance length `c_s`): held iff
//!   `m g d ≤ 2 c_s F`, the threshold offset `d* = 2 c_s F/(m g)`. Beyond it the rod swings about
//!   the grip axis against the kinetic capacity `2 c_k F`: `α = (m g d cos θ − 2 c_k F)/(I_c + m d²)`
//!   (`I_c` its moment of inertia about the axis through its centre of mass along the grip axis,
//!   θ its swing angle). Stock rapier has one point per pad (no torsional friction at all).
//! * **ball** with an inner weight (centre of mass `d` off its centre), pinched by round pads:
//!   the Hertz patch law, spin capacity `½ a μs N` per contact with the contact radius
//!   `a = (3 N R/(4 E*))^{1/3}` (`1/R = 1/R_ball + 1/R_pad`, `E*` the pads' effective modulus,
//!   docs/tracking.md §4.3(b)): held iff `m g ℓ ≤ a μs F`, `ℓ` the weight's lever arm about the
//!   line through the two contacts, about which the ball turns ([`weight_arm`]; it exceeds `d` by
//!   the squeezed ball's small offset from the pads' axis).

use crate::rapier::scenarios::{Friction, Sim};
use tribo::tracking::SpinModel;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::urdf::{fixed_root, Joints, Robot};
use tribo_rapier::FrictionMaterial;

/// Gravity (m/s², along −z).
pub const G: f64 = 9.81;
/// The time the pads close on the weightless object before its weight comes on (s).
pub const SQUEEZE: f64 = 0.5;
/// The pads' friction coefficients (μs, μk).
pub const MU: (f64, f64) = (0.6, 0.45);
/// The closing speed the finger motors aim at (m/s).
const CLOSING: f32 = 0.05;
/// The grip centre: where the pads meet, in the world (the base is at the origin).
const CENTRE: Vector = Vector::new(0.0, 0.0, -0.08);

/// The gripper's pads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pads {
    /// Flat box pads, 10 × 80 × 80 mm (`gripper_flat.urdf`).
    Flat,
    /// Round pads, spheres of radius [`PAD_RADIUS`] (`gripper_round.urdf`).
    Round,
}

/// The round pads' radius (m).
pub const PAD_RADIUS: f64 = 0.01;

/// The gripped box: a 40 mm cube of this mass (kg).
pub const BOX_MASS: f64 = 0.2;
/// The rod: 40 (across the grip) × 300 × 20 mm, this mass (kg).
pub const ROD_MASS: f64 = 0.3;
/// The rod's half extents (m).
const ROD_HALF: [f64; 3] = [0.02, 0.15, 0.01];
/// The rod's pads' spin resistance lengths `(c_s, c_k)` (m).
pub const ROD_SPIN: (f64, f64) = (0.004, 0.003);
/// The grip force on the rod and on the ball (N).
pub const PINCH_FORCE: f64 = 10.0;
/// The ball: radius (m) and mass (kg); its inertia about its centre of mass is a uniform
/// ball's, `2/5 m r²`.
pub const BALL: (f64, f64) = (0.02, 0.2);
/// The ball pads' Young's modulus (Pa) and Poisson ratio (a soft rubber).
pub const PAD_RUBBER: (f64, f64) = (5e6, 0.5);

/// Which object the gripper holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Object {
    /// The box, flat pads.
    Box,
    /// The rod, pinched by the round pads `d` (m) off its centre of mass.
    Rod(f64),
    /// The ball, its centre of mass `d` (m) off its centre, pinched by the round pads.
    Ball(f64),
}

impl Object {
    fn pads(self) -> Pads {
        match self {
            Object::Box => Pads::Flat,
            _ => Pads::Round,
        }
    }
}

/// Where the lab's robot files are.
pub fn robots_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("robots")
}

/// The pads' material for `object`: μs, μk of [`MU`]; no rolling resistance; spin: none (box),
/// lengths [`ROD_SPIN`] (rod), Hertz with [`PAD_RUBBER`] (ball).
pub fn pad_material(object: Object) -> FrictionMaterial {
    let b = FrictionMaterial::builder().friction(MU.0, MU.1).no_rolling_resistance();
    let b = match object {
        Object::Box => b.spin(SpinModel::Off),
        Object::Rod(_) => b.spinning_resistances(ROD_SPIN.0, ROD_SPIN.1),
        Object::Ball(_) => b.spin(SpinModel::hertz(PAD_RUBBER.0, PAD_RUBBER.1).expect("valid rubber")),
    };
    b.build().expect("valid pad material")
}

/// The box's threshold grip force `F* = m g/(2 μs)` (N).
pub fn box_hold_force() -> f64 {
    BOX_MASS * G / (2.0 * MU.0)
}

/// The box's acceleration while it slips at grip force `f`: `g − 2 μk f/m` (m/s², down).
pub fn box_slip_accel(f: f64) -> f64 {
    G - 2.0 * MU.1 * f / BOX_MASS
}

/// The rod's threshold offset `d* = 2 c_s F/(m g)` (m).
pub fn rod_hold_offset() -> f64 {
    2.0 * ROD_SPIN.0 * PINCH_FORCE / (ROD_MASS * G)
}

/// The rod's moment of inertia about the grip axis through its centre of mass (kg m²).
pub fn rod_inertia() -> f64 {
    ROD_MASS * ((2.0 * ROD_HALF[1]).powi(2) + (2.0 * ROD_HALF[2]).powi(2)) / 12.0
}

/// The rod's angular acceleration about the grip axis as it starts to swing (θ = 0) at offset
/// `d`: `(m g d − 2 c_k F)/(I_c + m d²)` (rad/s²); with `capacity` = false, stock rapier's
/// free swing `m g d/(I_c + m d²)`.
pub fn rod_swing_accel(d: f64, capacity: bool) -> f64 {
    let brake = if capacity { 2.0 * ROD_SPIN.1 * PINCH_FORCE } else { 0.0 };
    (ROD_MASS * G * d - brake) / (rod_inertia() + ROD_MASS * d * d)
}

/// The Hertz contact radius of a round pad on the ball at normal force `n`:
/// `a = (3 n R/(4 E*))^{1/3}`, `1/R = 1/R_ball + 1/R_pad`, `E* = E/(1 − ν²)` (m).
pub fn ball_contact_radius(n: f64) -> f64 {
    let r = 1.0 / (1.0 / BALL.0 + 1.0 / PAD_RADIUS);
    let e = PAD_RUBBER.0 / (1.0 - PAD_RUBBER.1 * PAD_RUBBER.1);
    (3.0 * n * r / (4.0 * e)).cbrt()
}

/// The ball's threshold offset: `m g d* = 2 · ½ a μs F` (m).
pub fn ball_hold_offset() -> f64 {
    ball_contact_radius(PINCH_FORCE) * MU.0 * PINCH_FORCE / (BALL.1 * G)
}

/// The lever arm (m) of the object's weight about the line through its two pad contacts
/// (tribo's contact points): the object turns about that line, so it is held iff
/// `m g · arm` ≤ the two contacts' spin capacity. `None` without tribo or without two contacts.
///
/// For the ball the line does not pass through its centre: squeezed, the ball sits off the
/// pads' axis by a fraction of a millimetre, and the arm exceeds `d` by 0.3–0.5 mm, 5–8 % of
/// its nominal threshold offset (5.99 mm). The rod's arm is its offset `d` to within 1 %
/// (`d*` = 27 mm).
pub fn weight_arm(s: &GripScene) -> Option<f64> {
    let t = s.sim.tribo.as_ref()?;
    let mut points =
        t.contacts().filter(|c| c.collider1 == s.object.1 || c.collider2 == s.object.1).map(|c| c.point);
    let (p1, p2) = (points.next()?, points.next()?);
    let axis = (p2 - p1).normalize_or_zero();
    let down = Vector::new(0.0, 0.0, -1.0);
    let arm = (s.body().center_of_mass() - p1).cross(down).dot(axis).abs() as f64;
    (axis != Vector::ZERO && arm.is_finite()).then_some(arm)
}

/// The pinched ball's threshold torque: the two pads' Hertz spin capacity `2 · ½ a μs F`
/// (N m, [`ball_contact_radius`] at `N = F` = [`PINCH_FORCE`]).
pub fn ball_hold_torque() -> f64 {
    ball_contact_radius(PINCH_FORCE) * MU.0 * PINCH_FORCE
}

/// A gripper holding an object, built and squeezed (weightless) for [`SQUEEZE`].
pub struct GripScene {
    /// The world.
    pub sim: Sim,
    /// The gripper.
    pub robot: Robot,
    /// The held object's body and collider.
    pub object: (RigidBodyHandle, ColliderHandle),
}

impl GripScene {
    /// The gripper of `object`'s pads on `joints`, the object between its pads, the fingers
    /// closing with force `force` (N) for [`SQUEEZE`] with the object weightless.
    pub fn new(object: Object, joints: Joints, dt: f32, friction: Friction, force: f64) -> GripScene {
        let mut sim = Sim::new(Vector::new(0.0, 0.0, -G as f32), dt, friction);
        let file = robots_dir().join(match object.pads() {
            Pads::Flat => "gripper_flat.urdf",
            Pads::Round => "gripper_round.urdf",
        });
        let robot =
            Robot::load(file, joints, &fixed_root(), &mut sim.world).expect("the lab's gripper loads");
        let fingers = ["finger_left", "finger_right"];
        let material = pad_material(object);
        match &mut sim.tribo {
            Some(t) => robot.set_materials(t, &fingers.map(|f| (f, material))).expect("fingers have pads"),
            None => {
                for f in fingers {
                    robot.set_friction(&mut sim.world, f, MU.0 as f32).expect("a finger");
                }
            }
        }
        let (body, collider) = match object {
            Object::Box => (
                RigidBodyBuilder::dynamic().translation(CENTRE),
                ColliderBuilder::cuboid(0.02, 0.02, 0.02).mass(BOX_MASS as f32),
            ),
            Object::Rod(d) => (
                RigidBodyBuilder::dynamic().translation(CENTRE + Vector::Y * d as f32),
                ColliderBuilder::cuboid(ROD_HALF[0] as f32, ROD_HALF[1] as f32, ROD_HALF[2] as f32)
                    .mass(ROD_MASS as f32),
            ),
            Object::Ball(d) => {
                let (r, m) = (BALL.0 as f32, BALL.1 as f32);
                let props = MassProperties::new(Vector::Y * d as f32, m, Vector::splat(0.4 * m * r * r));
                (
                    RigidBodyBuilder::dynamic().translation(CENTRE),
                    ColliderBuilder::ball(r).mass_properties(props),
                )
            }
        };
        // Stock: the object's own rapier friction is μs too (rapier averages the two).
        let b = sim.world.bodies.insert(body.gravity_scale(0.0).can_sleep(false));
        let c =
            sim.world.colliders.insert_with_parent(collider.friction(MU.0 as f32), b, &mut sim.world.bodies);
        let mut scene = GripScene { sim, robot, object: (b, c) };
        scene.set_force(force);
        if joints == Joints::Multibody {
            scene.robot.set_multibody_damping(&mut scene.sim.world, 0.0).expect("a valid damping");
        }
        for _ in 0..steps(SQUEEZE, dt) {
            scene.sim.step();
        }
        scene
    }

    /// Both fingers close with force `force` (N).
    pub fn set_force(&mut self, force: f64) {
        for j in ["left_slide", "right_slide"] {
            self.robot.set_motor(&mut self.sim.world, j, CLOSING, force as f32).expect("a prismatic joint");
        }
    }

    /// The object's weight comes on.
    pub fn load(&mut self) {
        if let Some(rb) = self.sim.world.bodies.get_mut(self.object.0) {
            rb.set_gravity_scale(1.0, true);
        }
    }

    /// The object's body.
    pub fn body(&self) -> &RigidBody {
        self.sim.body(self.object.0)
    }

    /// The object's height (m).
    pub fn height(&self) -> f64 {
        self.body().translation().z as f64
    }

    /// The object's turn about the grip axis (x) from its start (rad).
    pub fn swing(&self) -> f64 {
        let y = *self.body().rotation() * Vector::Y;
        (y.z as f64).atan2(y.y as f64)
    }
}

fn steps(seconds: f64, dt: f32) -> usize {
    (seconds / dt as f64).round() as usize
}

/// What a hold run measured after the load came on.
#[derive(Clone, Copy, Debug, Default)]
pub struct HoldRun {
    /// The object's drop (box) or |swing| (rod, ball) from the load to the end (m or rad).
    pub total: f64,
    /// The same over the run's last [`HOLD_WINDOW`] seconds: the creep of a held object.
    pub creep: f64,
    /// Mean acceleration (m/s² down, or rad/s²) from 0.05 s to 0.1 s after the load.
    pub accel: f64,
}

/// The window over which a held object's creep is measured (s).
pub const HOLD_WINDOW: f64 = 2.0;
/// A hold run's length after the load (s).
pub const HOLD_RUN: f64 = 2.5;

/// `object` gripped with force `force` on `joints`; its weight comes on after the squeeze and
/// the run goes on for [`HOLD_RUN`] (or until the object has dropped 30 mm, or swung 0.5 rad).
pub fn hold(object: Object, joints: Joints, dt: f32, friction: Friction, force: f64) -> HoldRun {
    let s = GripScene::new(object, joints, dt, friction, force);
    hold_scene(s, !matches!(object, Object::Box))
}

/// [`hold`] of a scene already squeezed: its object's weight comes on, and the run measures
/// its drop or (`angular`) its swing.
pub fn hold_scene(mut s: GripScene, angular: bool) -> HoldRun {
    let dt = s.sim.world.integration_parameters.dt;
    let at = |s: &GripScene| if angular { s.swing().abs() } else { -s.height() };
    let rate =
        |s: &GripScene| if angular { s.body().angvel().x.abs() as f64 } else { -s.body().linvel().z as f64 };
    s.load();
    let start = at(&s);
    let n = steps(HOLD_RUN, dt);
    let window_start = n - steps(HOLD_WINDOW, dt);
    let (k1, k2) = (steps(0.05, dt), steps(0.1, dt));
    let (mut w1, mut window_at) = (0.0, start);
    let mut run = HoldRun::default();
    for k in 1..=n {
        s.sim.step();
        if k == k1 {
            w1 = rate(&s);
        }
        if k == k2 {
            run.accel = (rate(&s) - w1) / ((k2 - k1) as f64 * dt as f64);
        }
        if k == window_start {
            window_at = at(&s);
        }
        run.total = at(&s) - start;
        run.creep = at(&s) - window_at;
        if run.total > if angular { 0.5 } else { 0.03 } {
            break;
        }
    }
    run
}

/// What a re-grip run measured (see [`regrip`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Regrip {
    /// The box's speed (m/s, down) when the grip force went up to [`REGRIP_FORCES`]`[1]`.
    pub v_mid: f64,
    /// Its mean acceleration (m/s², down) over the [`REGRIP_PHASES`]`[1]` at that force.
    pub accel_mid: f64,
    /// Its speed (m/s, down) when the force went up to [`REGRIP_FORCES`]`[2]`.
    pub v_last: f64,
    /// The time from then until it stopped (s): the first step its speed was ≤ 0.
    pub stop_time: f64,
    /// Its drop over the [`HOLD_WINDOW`] after it stopped (m).
    pub creep: f64,
}

/// The grip forces of a re-grip run, in units of the hold force `m g/(2 μs)`: the box slips at
/// the first; the second lies between the hold force and `m g/(2 μk)` (μs/μk = 1.33 of it): a
/// static grip would hold there, the kinetic friction cannot stop the slip; at the third, above
/// `m g/(2 μk)`, the kinetic friction stops it.
pub const REGRIP_FORCES: [f64; 3] = [0.98, 1.1, 1.5];
/// How long the box slips at the first force and at the second (s).
pub const REGRIP_PHASES: [f64; 2] = [0.05, 0.05];

/// The box gripped at [`REGRIP_FORCES`]`[0]` times the hold force slips when its weight comes
/// on; the force goes up to the second for [`REGRIP_PHASES`]`[1]`, then to the third, until it
/// stops, and [`HOLD_WINDOW`] more. Expected (tribo): `a = g − 2 μk F/m` at the middle force
/// (the slip goes on), a stop after `v/(2 μk F/m − g)` at the last force, held after it.
/// Stock rapier, one coefficient (μs), decelerates already at the middle force.
pub fn regrip(joints: Joints, dt: f32, friction: Friction) -> Regrip {
    let hold = box_hold_force();
    let mut s = GripScene::new(Object::Box, joints, dt, friction, REGRIP_FORCES[0] * hold);
    let speed = |s: &GripScene| -s.body().linvel().z as f64;
    s.load();
    for _ in 0..steps(REGRIP_PHASES[0], dt) {
        s.sim.step();
    }
    let mut run = Regrip { v_mid: speed(&s), ..Default::default() };
    s.set_force(REGRIP_FORCES[1] * hold);
    let n = steps(REGRIP_PHASES[1], dt);
    for _ in 0..n {
        s.sim.step();
    }
    run.v_last = speed(&s);
    run.accel_mid = (run.v_last - run.v_mid) / (n as f64 * dt as f64);
    s.set_force(REGRIP_FORCES[2] * hold);
    let mut k = 0;
    while speed(&s) > 0.0 && k < steps(1.0, dt) {
        s.sim.step();
        k += 1;
    }
    run.stop_time = k as f64 * dt as f64;
    let z = s.height();
    for _ in 0..steps(HOLD_WINDOW, dt) {
        s.sim.step();
    }
    run.creep = z - s.height();
    run
}

//! Engine-scene fidelity: the scenes a game developer builds first, against the friction
//! model's closed forms (docs/tracking.md §3.3 and App. D: roll torque 2 η_r μ R N for a ball
//! on a plane), with tribo and with stock rapier, at dt = 1/30, 1/60 and 1/240. Used by
//! `tests/rapier_fidelity.rs` and the `validate` rows.

use crate::rapier::scenarios::{brick_on_slope, slope_gravity, Friction, Sim};
use crate::validation::{Row, Tolerance};
use tribo::tracking::{Material, Mode, SpinModel};
use tribo_rapier::rapier3d::prelude::*;

/// The time steps of the fidelity scenes.
pub const DTS: [f32; 3] = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 240.0];
/// Gravity (m/s²).
pub const G: f32 = 9.81;

/// Ball material of the rolling scenes: μs = 0.6, μk = 0.5, η_r = 0.05, spin off.
pub fn rolling_material() -> Material {
    Material::new(0.6, 0.5)
        .and_then(|m| m.with_roll_eta(0.05))
        .and_then(|m| m.with_spin(SpinModel::Off))
        .expect("valid")
}

/// A ball of radius `r` (density 1000) on flat ground, rolling without slip at `v0` along +x.
/// Returns the world, the ground, the ball's body and collider.
pub fn rolling_ball(
    dt: f32,
    r: f32,
    v0: f32,
    friction: Friction,
) -> (Sim, ColliderHandle, RigidBodyHandle, ColliderHandle) {
    rolling_on_ground(dt, r, v0, friction, ColliderBuilder::ball(r))
}

/// Result of [`thrown_sliding`].
#[derive(Clone, Copy, Debug)]
pub struct ThrownRun {
    /// Steps reported `Kinetic` slide from the first step on, before the first `Static` one.
    pub kinetic_steps: usize,
    /// Time of the first `Static` slide step (s) (`NaN` if none within the run).
    pub static_at: f64,
    /// Speed of the centre then (m/s).
    pub speed_at_static: f64,
    /// Fraction of the steps after that, to the end of the run, with the slide `Static`.
    pub static_after: f64,
}

/// A ball of radius 0.2 m (the rolling material, μk = 0.5) set on flat ground sliding along
/// +x at 2 m/s without spin, run for 1 s: it slides until `t* = v0/(μk g (1 + (1 − 2η_r)/j))`
/// = 0.12546 s (the kinetic roll torque opposes the spin-up), then rolls from
/// `v* = v0 − μk g t*` = 1.3846 m/s.
pub fn thrown_sliding(dt: f32) -> ThrownRun {
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, Friction::Tribo);
    let ground = sim.add_ground(100.0);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.2, 0.0)).linvel(Vector::X * 2.0),
        ColliderBuilder::ball(0.2).density(1000.0),
        &rolling_material(),
    );
    let mut run =
        ThrownRun { kinetic_steps: 0, static_at: f64::NAN, speed_at_static: f64::NAN, static_after: 0.0 };
    let (mut after, mut after_static) = (0usize, 0usize);
    for k in 1..=(1.0 / dt).round() as usize {
        sim.step();
        let slide = sim.tribo.as_ref().and_then(|t| t.contact(ground, c)).map(|i| i.slide);
        if run.static_at.is_nan() {
            if slide == Some(Mode::Static) {
                run.static_at = k as f64 * dt as f64;
                run.speed_at_static = sim.body(b).linvel().length() as f64;
            } else if slide == Some(Mode::Kinetic) {
                run.kinetic_steps += 1;
            }
        } else {
            after += 1;
            after_static += usize::from(slide == Some(Mode::Static));
        }
    }
    run.static_after = after_static as f64 / after.max(1) as f64;
    run
}

/// The stop time and distance of a body set down rolling at `v0` (m/s) that then decelerates
/// at `a` (m/s²), at the time step `dt`: `(dt + v0/a, v0 dt + v0²/(2a))`. Its contact is new in
/// the first step, which carries no roll torque (the model's first contact step has no load,
/// docs/tracking.md §1.2: the torque bounds come from a step's normal force), so the body rolls
/// that step at `v0`.
pub fn roll_out(v0: f64, a: f64, dt: f32) -> (f64, f64) {
    let dt = dt as f64;
    (dt + v0 / a, v0 * dt + v0 * v0 / (2.0 * a))
}

/// Kinetic deceleration of the rolling ball: `a = T R/(I + m R²) = 2 η_r μk g/1.4`.
pub fn rolling_deceleration() -> f64 {
    2.0 * 0.05 * 0.5 * G as f64 / 1.4
}

/// A solid cylinder of radius `r` and length 0.2 m (density 1000) lying on its side on flat
/// ground, its axis along z, rolling without slip at `v0` along +x. Returns the world, the
/// ground, the cylinder's body and collider.
pub fn rolling_cylinder(
    dt: f32,
    r: f32,
    v0: f32,
    friction: Friction,
) -> (Sim, ColliderHandle, RigidBodyHandle, ColliderHandle) {
    // rapier's cylinder axis is y: turned by 90° about x.
    let cylinder = ColliderBuilder::cylinder(0.1, r).rotation(Vector::X * std::f32::consts::FRAC_PI_2);
    rolling_on_ground(dt, r, v0, friction, cylinder)
}

/// A body of `collider` (density 1000, the rolling material) whose lowest point is a radius `r`
/// below its centre, on flat ground, rolling without slip at `v0` along +x about z.
fn rolling_on_ground(
    dt: f32,
    r: f32,
    v0: f32,
    friction: Friction,
    collider: ColliderBuilder,
) -> (Sim, ColliderHandle, RigidBodyHandle, ColliderHandle) {
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, friction);
    let ground = sim.add_ground(100.0);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, r, 0.0))
            .linvel(Vector::X * v0)
            .angvel(Vector::Z * (-v0 / r)),
        collider.density(1000.0),
        &rolling_material(),
    );
    (sim, ground, b, c)
}

/// Kinetic deceleration of the rolling cylinder: the roll torque bound is the ball's,
/// `T = 2 η_r μk N/(κ_i + κ_j)` with the curvature `1/R` along the rolling direction and the flat
/// ground's 0, so `T = 2 η_r μk R m g`; with `I = ½ m R²`, `a = T R/(I + m R²) = 2 η_r μk g/1.5`.
pub fn cylinder_deceleration() -> f64 {
    2.0 * 0.05 * 0.5 * G as f64 / 1.5
}

/// Result of a rolling-stop run.
#[derive(Clone, Copy, Debug)]
pub struct StopRun {
    /// First time both |v| and |ω| are below 1e-4 (s), or the run length.
    pub stop_time: f64,
    /// Distance rolled by then (m).
    pub distance: f64,
    /// Largest |v| (m/s) after the first stopped step, over the next second.
    pub speed_after_stop: f64,
    /// Largest |ω| (rad/s) after the first stopped step, over the next second.
    pub spin_after_stop: f64,
    /// Largest back-motion after the first stopped step, over the next second: the larger of
    /// |v_x| (m/s) and |ω_z| (rad/s), the rolling direction and the rolling axis.
    pub roll_after_stop: f64,
    /// Fraction of the steps while rolling (after the first) with the slide reported static.
    pub static_slide_fraction: f64,
}

/// A ball of radius 0.2 m rolling from 2 m/s on flat ground, run until 1 s after it stops or
/// for 8 s.
pub fn rolling_stop(dt: f32, friction: Friction) -> StopRun {
    let (sim, ground, b, c) = rolling_ball(dt, 0.2, 2.0, friction);
    stop_run(sim, dt, ground, (b, c), 8.0)
}

/// [`rolling_cylinder`] of radius 0.2 m from 2 m/s, run until 1 s after it stops or for 8 s.
pub fn cylinder_stop(dt: f32, friction: Friction) -> StopRun {
    cylinder_stop_from(dt, friction, 0.0)
}

/// [`cylinder_stop`] with the cylinder started `z` m along its axis from the origin (rapier's
/// cylinder–cuboid contact differs in its rounding from place to place: at some starts the
/// cylinder hops off the ground for a step).
pub fn cylinder_stop_from(dt: f32, friction: Friction, z: f32) -> StopRun {
    let (mut sim, ground, b, c) = rolling_cylinder(dt, 0.2, 2.0, friction);
    if let Some(rb) = sim.world.bodies.get_mut(b) {
        let mut pose = *rb.position();
        pose.translation.z += z;
        rb.set_position(pose, true);
    }
    stop_run(sim, dt, ground, (b, c), 8.0)
}

/// The rolling cylinder of [`cylinder_stop`] inserted before the ground, so that it is the first
/// collider of its contact pair: rapier's manifold normal is then the one parry keeps in the
/// cylinder's frame (see `tribo_rapier`'s README, "Cylinders on boxes").
pub fn cylinder_first_stop(dt: f32, friction: Friction) -> StopRun {
    let (sim, ground, b, c) = cylinder_first(dt, friction);
    stop_run(sim, dt, ground, (b, c), 8.0)
}

/// Over the first `seconds` of the cylinder of [`cylinder_first_stop`], the steps whose contact
/// normal (as tribo reports it) is tilted from the vertical by 0.01° to 2° (the normal turned with
/// the cylinder), by more than 2° (parry's manifold is off), and the steps without a loaded
/// contact.
pub fn cylinder_first_normal_tilts(dt: f32, seconds: f32) -> [usize; 3] {
    let (mut sim, ground, _, c) = cylinder_first(dt, Friction::Tribo);
    let mut counts = [0; 3];
    for _ in 0..(seconds / dt) as usize {
        sim.step();
        match sim.tribo.as_ref().and_then(|t| t.contact(c, ground)) {
            Some(i) if i.collider1 == c && i.normal_force > 0.0 => {
                let cos = (-i.normal.y as f64 / i.normal.length() as f64).clamp(-1.0, 1.0);
                let tilt = cos.acos().to_degrees();
                if tilt > 2.0 {
                    counts[1] += 1;
                } else if tilt > 0.01 {
                    counts[0] += 1;
                }
            }
            _ => counts[2] += 1,
        }
    }
    counts
}

/// What [`cylinder_first_absences`] measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct AbsenceRun {
    /// Steps whose contact pair had no contact point while tribo kept the rolling contact.
    pub absent_steps: usize,
    /// Absences (runs of such steps) followed by a step with points.
    pub landings: usize,
    /// Largest change of the cylinder's angular velocity about its axis (rad/s) from the end of
    /// the last step with points before an absence to the start of the first step with points
    /// after it (the cylinder flies meanwhile: no torque acts on it).
    pub max_turn_lost: f64,
    /// Of the landing steps and the steps right after them, those with the slide reported
    /// `Kinetic`.
    pub kinetic_after_landing: usize,
}

/// The rolling cylinder of [`cylinder_first_stop`] (the first collider of its pair, whose parry
/// contact loses its points for a step now and then), stepped for `seconds` with tribo's three
/// calls made one by one: the angular velocity the next step starts from is read after
/// `before_step`.
pub fn cylinder_first_absences(dt: f32, seconds: f32) -> AbsenceRun {
    let (mut sim, ground, b, c) = cylinder_first(dt, Friction::Tribo);
    let mut run = AbsenceRun::default();
    let (mut absent, mut after_landing, mut w_last) = (false, 0usize, 0.0f32);
    for _ in 0..(seconds / dt) as usize {
        let Some(t) = sim.tribo.as_mut() else { break };
        let w = &mut sim.world;
        t.before_step(&w.integration_parameters, &mut w.bodies, &mut w.colliders, &mut w.impulse_joints);
        let w_start = w.bodies.get(b).map_or(0.0, |rb| rb.angvel().z);
        w.step_with_events(&t.hooks(&()), &());
        t.after_step(
            &w.integration_parameters,
            &w.bodies,
            &w.colliders,
            &w.narrow_phase,
            &mut w.impulse_joints,
        );
        sim.time += dt as f64;
        let points: usize = w
            .narrow_phase
            .contact_pair(c, ground)
            .map_or(0, |p| p.solver_manifolds().iter().map(|m| m.data.solver_contacts.len()).sum());
        let info = t.contact(c, ground);
        if points == 0 {
            if info.is_some() {
                run.absent_steps += 1;
                absent = true;
            }
            continue;
        }
        if absent {
            absent = false;
            run.landings += 1;
            run.max_turn_lost = run.max_turn_lost.max((w_start - w_last).abs() as f64);
            after_landing = 2;
        }
        if after_landing > 0 {
            after_landing -= 1;
            run.kinetic_after_landing += usize::from(info.is_some_and(|i| i.slide == Mode::Kinetic));
        }
        w_last = w.bodies.get(b).map_or(0.0, |rb| rb.angvel().z);
    }
    run
}

/// A cylinder (radius 0.2 m, length 0.2 m, axis along z) rolling at 1 m/s along +x on a fixed
/// box whose top face ends at x = 1 m: where (x of its centre) it has dropped 1 cm below its
/// rolling height, or NaN if it has not within 5 s. `cylinder_first`: inserted before the box
/// (the first collider of its contact pair).
pub fn cylinder_off_edge(dt: f32, friction: Friction, cylinder_first: bool) -> f64 {
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, friction);
    let add_box = |sim: &mut Sim| sim.add_fixed_box(Vector::new(-2.0, -0.5, 0.0), Vector::new(3.0, 0.5, 1.0));
    if !cylinder_first {
        add_box(&mut sim);
    }
    let (b, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.2, 0.0))
            .linvel(Vector::X)
            .angvel(Vector::Z * -5.0),
        ColliderBuilder::cylinder(0.1, 0.2).rotation(Vector::X * std::f32::consts::FRAC_PI_2).density(1000.0),
        &rolling_material(),
    );
    if cylinder_first {
        add_box(&mut sim);
    }
    for _ in 0..(5.0 / dt) as usize {
        sim.step();
        let p = sim.body(b).translation();
        if p.y < 0.19 {
            return p.x as f64;
        }
    }
    f64::NAN
}

fn cylinder_first(dt: f32, friction: Friction) -> (Sim, ColliderHandle, RigidBodyHandle, ColliderHandle) {
    let (r, v0) = (0.2, 2.0);
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, friction);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, r, 0.0))
            .linvel(Vector::X * v0)
            .angvel(Vector::Z * (-v0 / r)),
        ColliderBuilder::cylinder(0.1, r).rotation(Vector::X * std::f32::consts::FRAC_PI_2).density(1000.0),
        &rolling_material(),
    );
    let ground = sim.add_ground(100.0);
    (sim, ground, b, c)
}

/// Steps a body rolling along +x on `ground` until 1 s after it stops (|v| and |ω| below 1e-4)
/// or for `seconds`.
fn stop_run(
    mut sim: Sim,
    dt: f32,
    ground: ColliderHandle,
    (b, c): (RigidBodyHandle, ColliderHandle),
    seconds: f32,
) -> StopRun {
    let (mut stop, mut distance, mut rolling, mut static_slide) = (None, 0.0, 0, 0);
    let (mut after, mut spin_after, mut roll_after) = (0.0f64, 0.0f64, 0.0f64);
    for k in 1..=(seconds / dt) as usize {
        sim.step();
        let rb = sim.body(b);
        let t = k as f64 * dt as f64;
        if let Some(ts) = stop {
            after = after.max(rb.linvel().length() as f64);
            spin_after = spin_after.max(rb.angvel().length() as f64);
            roll_after = roll_after.max(rb.linvel().x.abs().max(rb.angvel().z.abs()) as f64);
            if t > ts + 1.0 {
                break;
            }
        } else if rb.linvel().length() < 1e-4 && rb.angvel().length() < 1e-4 {
            stop = Some(t);
            distance = rb.translation().x as f64;
        } else if k > 1 {
            rolling += 1;
            let slide = sim.tribo.as_ref().and_then(|tr| tr.contact(ground, c)).map(|i| i.slide);
            static_slide += usize::from(slide == Some(Mode::Static));
        }
    }
    let rb = sim.body(b);
    StopRun {
        stop_time: stop.unwrap_or(sim.time),
        distance: if stop.is_some() { distance } else { rb.translation().x as f64 },
        speed_after_stop: if stop.is_some() { after } else { rb.linvel().length() as f64 },
        spin_after_stop: if stop.is_some() { spin_after } else { rb.angvel().length() as f64 },
        roll_after_stop: if stop.is_some() {
            roll_after
        } else {
            rb.linvel().x.abs().max(rb.angvel().z.abs()) as f64
        },
        static_slide_fraction: static_slide as f64 / rolling.max(1) as f64,
    }
}

/// A ball of radius 0.1 m set down at rest on a slope of `tan_alpha` with the material
/// μs = 0.6, μk = 0.4, η_r = 0.09: the static roll limit is tan α = 2 η_r μs = 0.108, the
/// kinetic one 2 η_r μk = 0.072. Returns (final displacement in the slope plane after
/// `seconds`, final roll mode; `Static` for stock).
pub fn set_down_on_slope(dt: f32, tan_alpha: f32, seconds: f32, friction: Friction) -> (f64, Mode) {
    let m = Material::new(0.6, 0.4)
        .and_then(|m| m.with_roll_eta(0.09))
        .and_then(|m| m.with_spin(SpinModel::Off))
        .expect("valid");
    let mut sim = Sim::new(slope_gravity(G, tan_alpha.atan()), dt, friction);
    let ground = sim.add_ground(100.0);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.1, 0.0)),
        ColliderBuilder::ball(0.1).density(1000.0),
        &m,
    );
    for _ in 0..(seconds / dt) as usize {
        sim.step();
    }
    let d = sim.body(b).translation();
    let roll = sim.tribo.as_ref().and_then(|t| t.contact(ground, c)).map_or(Mode::Static, |i| i.roll);
    ((d.x as f64).hypot(d.z as f64), roll)
}

/// A ball of radius 0.1 m (density 1000: m g = 41.09 N) set down at rest on flat ground with a
/// constant torque `torque` (N·m) about the vertical, material μs = 0.6, μk = 0.4, spinning
/// resistance 4 mm static and 2 mm kinetic: the spin torque bound is 0.004 m g = 0.1644 N·m
/// while sticking and 0.002 m g = 0.0822 N·m while spinning. Returns (angle turned about the
/// vertical after `seconds` (rad), final spin mode; `Static` for stock).
pub fn set_down_with_spin_torque(dt: f32, torque: f32, seconds: f32, friction: Friction) -> (f64, Mode) {
    let m = Material::new(0.6, 0.4).and_then(|m| m.with_spinning_resistances(0.004, 0.002)).expect("valid");
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, friction);
    let ground = sim.add_ground(100.0);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.1, 0.0)),
        ColliderBuilder::ball(0.1).density(1000.0),
        &m,
    );
    sim.world.bodies[b].add_torque(Vector::Y * torque, true);
    for _ in 0..(seconds / dt) as usize {
        sim.step();
    }
    let q = *sim.body(b).rotation();
    // Turned about y: the angle of the body's x axis in the horizontal plane.
    let x = q * Vector::X;
    let spin = sim.tribo.as_ref().and_then(|t| t.contact(ground, c)).map_or(Mode::Static, |i| i.spin);
    ((x.z as f64).atan2(x.x as f64).abs(), spin)
}

/// The joints of a cart's axles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axles {
    /// rapier impulse joints (`ImpulseJointSet`): each wheel a free body held to the chassis by
    /// the joint's constraint rows.
    Impulse,
    /// rapier multibody joints (`MultibodyJointSet`, reduced coordinates): the chassis is the
    /// multibody's root and each wheel turns about its axle exactly. rapier gives each free
    /// angular degree of freedom of a multibody joint a damping of 0.1 by default; the scenes
    /// set it to zero (the analytic deceleration has none).
    Multibody,
}

/// A cart: a 1 m × 0.1 m × 0.6 m chassis (density 500) on four ball wheels of radius 0.2 m
/// (density 1000, the rolling material) on revolute joints about z (on `axles`), its chassis'
/// centre at `x = start_x`, rolled at `v0` (m/s) along +x. Returns the world, the chassis and
/// the wheels.
fn cart_with(
    dt: f32,
    friction: Friction,
    start_x: f32,
    axles: Axles,
    v0: f32,
) -> (Sim, RigidBodyHandle, [RigidBodyHandle; 4]) {
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, friction);
    sim.add_ground(100.0);
    let r = 0.2f32;
    // The chassis touches nothing; the wheels touch the ground only.
    let (chassis_group, wheel_group) = (Group::GROUP_2, Group::GROUP_1);
    let chassis = sim
        .world
        .bodies
        .insert(RigidBodyBuilder::dynamic().translation(Vector::new(start_x, r, 0.0)).linvel(Vector::X * v0));
    sim.world.colliders.insert_with_parent(
        ColliderBuilder::cuboid(0.5, 0.05, 0.3).density(500.0).collision_groups(InteractionGroups::new(
            chassis_group,
            Group::NONE,
            InteractionTestMode::And,
        )),
        chassis,
        &mut sim.world.bodies,
    );
    let wheels = [(-0.4, -0.45), (-0.4, 0.45), (0.4, -0.45), (0.4, 0.45)].map(|(x, z)| {
        let (w, _) = sim.add_dynamic(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(start_x + x, r, z))
                .linvel(Vector::X * v0)
                .angvel(Vector::Z * (-v0 / r)),
            ColliderBuilder::ball(r).density(1000.0).collision_groups(InteractionGroups::new(
                wheel_group,
                Group::GROUP_1,
                InteractionTestMode::And,
            )),
            &rolling_material(),
        );
        let axle = RevoluteJointBuilder::new(Vector::Z)
            .local_anchor1(Vector::new(x, 0.0, z))
            .contacts_enabled(false);
        match axles {
            Axles::Impulse => {
                sim.world.impulse_joints.insert(chassis, w, axle, true);
            }
            Axles::Multibody => {
                sim.world.multibody_joints.insert(chassis, w, axle, true).expect("a tree");
            }
        }
        w
    });
    if axles == Axles::Multibody {
        launch_multibody_cart(&mut sim, chassis, v0, r);
    }
    (sim, chassis, wheels)
}

/// A cart: a 1 m × 0.1 m × 0.6 m chassis (density 500) on four ball wheels of radius 0.2 m
/// (density 1000, the rolling material) on revolute joints about z, rolled at 2 m/s along +x.
/// Returns (stop time: first step with chassis |v| < 1e-4, distance then), or the run's end.
pub fn cart_stop(dt: f32, friction: Friction) -> (f64, f64) {
    cart_stop_on(dt, friction, Axles::Impulse)
}

/// [`cart_stop`] with the wheels on `axles`.
pub fn cart_stop_on(dt: f32, friction: Friction, axles: Axles) -> (f64, f64) {
    let (mut sim, chassis, _) = cart_with(dt, friction, 0.0, axles, 2.0);
    for k in 1..=(10.0 / dt) as usize {
        sim.step();
        let rb = sim.body(chassis);
        if rb.linvel().length() < 1e-4 {
            return (k as f64 * dt as f64, rb.translation().x as f64);
        }
    }
    (sim.time, sim.body(chassis).translation().x as f64)
}

/// What [`cart_after_stop`] measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct CartStopRun {
    /// First time the chassis' |v| and |ω| are both below 1e-4 (s), or `None`.
    pub stop_time: Option<f64>,
    /// The chassis' travel along x at that step (m).
    pub distance: f64,
    /// Largest chassis |v| in the second after that step (m/s).
    pub speed_after: f64,
    /// Largest chassis |ω| in the second after that step (rad/s).
    pub spin_after: f64,
    /// Largest |ω| of a wheel relative to the chassis in the second after that step (rad/s).
    pub wheel_spin_after: f64,
}

/// The cart of [`cart_stop`] rolled out (tribo) for up to 10 s: the first step at which the chassis' |v|
/// and |ω| are below 1e-4, and the chassis' and the wheels' (relative to the chassis) motion
/// over the second after it. The cart starts at the origin and stops 5.4 m from it.
pub fn cart_after_stop(dt: f32) -> CartStopRun {
    cart_after_stop_from(dt, 0.0)
}

/// [`cart_after_stop`] with the chassis starting at `x = start_x` (m): it stops about 5.4 m
/// further on (`start_x = -5.4`: at the origin).
pub fn cart_after_stop_from(dt: f32, start_x: f32) -> CartStopRun {
    cart_after_stop_on(dt, start_x, Axles::Impulse)
}

/// [`cart_after_stop_from`] with the wheels on `axles`.
pub fn cart_after_stop_on(dt: f32, start_x: f32, axles: Axles) -> CartStopRun {
    let (mut sim, chassis, wheels) = cart_with(dt, Friction::Tribo, start_x, axles, 2.0);
    let mut run = CartStopRun::default();
    for k in 1..=(10.0 / dt) as usize {
        sim.step();
        let t = k as f64 * dt as f64;
        let rb = sim.body(chassis);
        let (v, w) = (rb.linvel(), rb.angvel());
        match run.stop_time {
            None => {
                if v.length() < 1e-4 && w.length() < 1e-4 {
                    run.stop_time = Some(t);
                    run.distance = (rb.translation().x - start_x) as f64;
                }
            }
            Some(ts) => {
                run.speed_after = run.speed_after.max(v.length() as f64);
                run.spin_after = run.spin_after.max(w.length() as f64);
                for &wb in &wheels {
                    let rel = (sim.body(wb).angvel() - w).length() as f64;
                    run.wheel_spin_after = run.wheel_spin_after.max(rel);
                }
                if t > ts + 1.0 - 0.5 * dt as f64 {
                    break;
                }
            }
        }
    }
    run
}

/// What [`cart_set_down`] measured over its last two seconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct CartRestRun {
    /// Largest chassis |v| (m/s).
    pub speed: f64,
    /// Largest chassis |ω| (rad/s).
    pub spin: f64,
    /// Largest |ω| of a wheel relative to the chassis (rad/s).
    pub wheel_spin: f64,
}

/// The cart of [`cart_stop`] set down at rest (no initial velocity) with its five bodies kept
/// awake, run for 3 s; the motion over the last 2 s.
pub fn cart_set_down(dt: f32, friction: Friction) -> CartRestRun {
    cart_set_down_on(dt, friction, Axles::Impulse, None)
}

/// [`cart_set_down`] with the wheels on `axles`, and tribo's `settings` (none: the defaults).
pub fn cart_set_down_on(
    dt: f32,
    friction: Friction,
    axles: Axles,
    settings: Option<tribo_rapier::Settings>,
) -> CartRestRun {
    let (mut sim, chassis, wheels) = cart_with(dt, friction, 0.0, axles, 0.0);
    if let (Some(t), Some(settings)) = (&mut sim.tribo, settings) {
        t.set_settings(settings);
    }
    for h in std::iter::once(chassis).chain(wheels) {
        if let Some(rb) = sim.world.bodies.get_mut(h) {
            rb.set_linvel(Vector::ZERO, true);
            rb.set_angvel(Vector::ZERO, true);
            *rb.activation_mut() = RigidBodyActivation::cannot_sleep();
        }
    }
    let mut run = CartRestRun::default();
    for k in 1..=(3.0 / dt).round() as usize {
        sim.step();
        if (k as f64) * (dt as f64) < 1.0 {
            continue;
        }
        let rb = sim.body(chassis);
        let w = rb.angvel();
        run.speed = run.speed.max(rb.linvel().length() as f64);
        run.spin = run.spin.max(w.length() as f64);
        for &wb in &wheels {
            run.wheel_spin = run.wheel_spin.max((sim.body(wb).angvel() - w).length() as f64);
        }
    }
    run
}

/// Deceleration of [`cart_stop`]'s cart: the four wheels' kinetic roll torques
/// `Σ T_i = 2 η_r μk R M g` against the translating mass and the wheels' spin inertia,
/// `a = Σ T_i/(R (M + Σ I_w/R²)) = 2 η_r μk g M/(M + 4·0.4 m_w)` (M the total mass, m_w a
/// wheel's).
pub fn cart_deceleration() -> f64 {
    let pi = std::f64::consts::PI;
    let m_w = 1000.0 * 4.0 / 3.0 * pi * 0.2f64.powi(3);
    let m = 500.0 * 1.0 * 0.1 * 0.6 + 4.0 * m_w;
    2.0 * 0.05 * 0.5 * G as f64 * m / (m + 4.0 * 0.4 * m_w)
}

/// The contact path of a [`cube_stack`] run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackContacts {
    /// tribo friction (default settings: cubes whose contacts stick are off the hook).
    Tribo,
    /// Stock rapier friction: rapier recycles the contacts of a pair that barely moved (keeps
    /// their solver contacts, lever arms and normal from the last full update).
    Stock,
    /// Stock rapier friction with `ActiveHooks::MODIFY_SOLVER_CONTACTS` on every cube and a hook
    /// that changes nothing: rapier's path for hooked pairs (tribo's), which it never recycles.
    StockHooked,
}

/// Result of a [`cube_stack`] run.
#[derive(Clone, Copy, Debug)]
pub struct StackRun {
    /// Largest horizontal displacement of a cube's centre from where it was built (m).
    pub drift: f64,
    /// Largest tilt of a cube's vertical axis (degrees).
    pub tilt_deg: f64,
    /// Largest speed of a cube over the last 10 s (m/s).
    pub late_speed: f64,
}

/// A stack of 10 cubes of edge 0.5 m (density 1000; μs = 0.6, μk = 0.5, spin off; stock:
/// collider friction μs) built exactly aligned, face on face, on fixed ground (no material,
/// rapier friction μs), run for 20 s.
/// The stack settles within the first second (it sinks into its soft contacts and rebounds)
/// and then sleeps; drift and tilt are what that settling left.
pub fn cube_stack(dt: f32, contacts: StackContacts) -> StackRun {
    cube_stack_gapped(dt, contacts, 0.0)
}

/// [`cube_stack`] built with a vertical `gap` (m) between neighbouring cubes (the bottom cube
/// on the ground): the cubes drop onto each other and every contact between them is a new one
/// (its first step on the hook), where the exactly aligned stack's contacts exist from the
/// start.
pub fn cube_stack_gapped(dt: f32, contacts: StackContacts, gap: f32) -> StackRun {
    cube_stack_gapped_mu_k(dt, contacts, gap, 0.5)
}

/// [`cube_stack_gapped`] with the cubes' kinetic coefficient `mu_k` (μs stays 0.6).
pub fn cube_stack_gapped_mu_k(dt: f32, contacts: StackContacts, gap: f32, mu_k: f64) -> StackRun {
    cube_stack_gapped_sleep(dt, contacts, gap, mu_k, true)
}

/// [`cube_stack_gapped_mu_k`] with rapier's sleeping on (its default) or off for the cubes
/// (`RigidBodyBuilder::can_sleep`). rapier puts a body to sleep after 0.5 s below 0.05 m/s and
/// 0.5 rad/s, and a dropped stack's upper cubes still sway at about 1 cm/s then: with sleeping
/// the drift is where that sway stood when the stack fell asleep.
pub fn cube_stack_gapped_sleep(
    dt: f32,
    contacts: StackContacts,
    gap: f32,
    mu_k: f64,
    sleep: bool,
) -> StackRun {
    let friction = if contacts == StackContacts::Tribo { Friction::Tribo } else { Friction::Stock };
    let mut sim = Sim::new(Vector::new(0.0, -G, 0.0), dt, friction);
    // The ground has no material: its rapier friction is the cubes' μs, so that the bottom
    // contact has μs under stock rapier as under tribo (rapier averages the two colliders').
    let ground = sim.add_ground(50.0);
    if let Some(g) = sim.world.colliders.get_mut(ground) {
        g.set_friction(0.6);
    }
    let m = Material::new(0.6, mu_k).and_then(|m| m.with_spin(SpinModel::Off)).expect("valid");
    let hooks = if contacts == StackContacts::StockHooked {
        ActiveHooks::MODIFY_SOLVER_CONTACTS
    } else {
        ActiveHooks::empty()
    };
    let h = 0.25f32;
    let cubes: Vec<RigidBodyHandle> = (0..10)
        .map(|k| {
            sim.add_dynamic(
                RigidBodyBuilder::dynamic().can_sleep(sleep).translation(Vector::new(
                    0.0,
                    h + (2.0 * h + gap) * k as f32,
                    0.0,
                )),
                ColliderBuilder::cuboid(h, h, h).density(1000.0).active_hooks(hooks),
                &m,
            )
            .0
        })
        .collect();
    let starts: Vec<Vector> = cubes.iter().map(|&b| sim.body(b).translation()).collect();
    let steps = (20.0 / dt) as usize;
    let mut late_speed = 0.0f64;
    for k in 1..=steps {
        sim.step();
        if k as f64 * dt as f64 > 10.0 {
            for &b in &cubes {
                late_speed = late_speed.max(sim.body(b).linvel().length() as f64);
            }
        }
    }
    let (mut drift, mut tilt) = (0.0f64, 0.0f64);
    for (&b, s) in cubes.iter().zip(&starts) {
        let rb = sim.body(b);
        let d = rb.translation() - *s;
        drift = drift.max((d.x as f64).hypot(d.z as f64));
        let up = rb.rotation() * Vector::Y;
        tilt = tilt.max((up.x as f64).hypot(up.z as f64).atan2(up.y as f64).to_degrees());
    }
    StackRun { drift, tilt_deg: tilt, late_speed }
}

/// How the drift and tilt of [`cube_stack_gapped_mu_k`] spread over builds that differ only in
/// their gap: the median, quartiles and largest value of each (m, degrees).
#[derive(Clone, Copy, Debug)]
pub struct StackSpread {
    /// Drift: median, lower and upper quartile, largest (m).
    pub drift: [f64; 4],
    /// Tilt: median, lower and upper quartile, largest (degrees).
    pub tilt_deg: [f64; 4],
}

/// The default gaps of the `stack_spread` tool: 10, 15, 20 and 25 mm, each also ±0.4, ±0.8 and ±1.2 mm (28).
pub fn spread_gaps() -> Vec<f32> {
    [10e-3f32, 15e-3, 20e-3, 25e-3]
        .iter()
        .flat_map(|&g| (-3..=3).map(move |k| g + k as f32 * 0.4e-3))
        .collect()
}

/// The 121 gaps from 20 to 26 mm, 0.05 mm apart: only builds whose cubes start beyond rapier's
/// contact prediction (gaps above 19.6 mm) differ between stock rapier and tribo (docs/rapier.md
/// §2), and a chaotic drift needs many of them for its median.
pub fn dense_landing_gaps() -> Vec<f32> {
    (0..=120).map(|k| 20e-3 + k as f32 * 0.05e-3).collect()
}

/// [`cube_stack_gapped_sleep`] over `gaps` (not empty): the drift's and the tilt's median,
/// quartiles and largest value. A dropped stack ends where chaotic details of its rebounds put
/// it, so a single gap says little about a friction model.
pub fn stack_spread(gaps: &[f32], dt: f32, contacts: StackContacts, mu_k: f64, sleep: bool) -> StackSpread {
    let runs: Vec<StackRun> =
        gaps.iter().map(|&gap| cube_stack_gapped_sleep(dt, contacts, gap, mu_k, sleep)).collect();
    let stats = |f: &dyn Fn(&StackRun) -> f64| {
        let mut v: Vec<f64> = runs.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        [v[n / 2], v[n / 4], v[3 * n / 4], v[n - 1]]
    };
    StackSpread { drift: stats(&|r| r.drift), tilt_deg: stats(&|r| r.tilt_deg) }
}

fn dt_name(dt: f32) -> String {
    format!("1/{}", (1.0 / dt).round())
}

/// The source of the carts' analytic deceleration (the wheels' inertia included).
const CART_DECELERATION: &str = "a = 2 η_r μk g M/(M + Σ I_w/R²)";

/// The rows of a cart rolled at 2 m/s (deceleration `ca`, time step `dt`): its stop time within
/// 1 % + `stop_steps` steps of the analytic one ([`roll_out`], source note `stop_src`), its
/// distance within 1 %, the rows after its stop ([`cart_after_stop_rows`]) and stock rapier's distance after 10 s
/// (`stock_x`, at least 19 m).
fn cart_rows(
    rows: &mut Vec<Row>,
    case: &str,
    (ca, dt): (f64, f32),
    r: &CartStopRun,
    stock_x: f64,
    (stop_steps, stop_src): (f64, &str),
    wheels: bool,
) {
    let (t_exp, x_exp) = roll_out(2.0, ca, dt);
    rows.push(Row::new(
        case,
        "stop time [s] (tribo)",
        t_exp,
        r.stop_time.unwrap_or(f64::NAN),
        Tolerance::Abs(0.01 * t_exp + stop_steps * dt as f64),
        stop_src,
    ));
    rows.push(Row::new(
        case,
        "distance [m] (tribo)",
        x_exp,
        r.distance,
        Tolerance::Rel(0.01),
        CART_DECELERATION,
    ));
    cart_after_stop_rows(rows, case, r, wheels);
    rows.push(Row::new(
        case,
        "distance after 10 s [m] (stock rapier)",
        19.0,
        stock_x,
        Tolerance::AtLeast,
        "stock: keeps rolling",
    ));
}

/// The rows of a cart after its stop: the chassis' largest |v| and |ω|, and with `wheels` the
/// wheels' largest |ω| relative to the chassis, each at most 1e-4.
fn cart_after_stop_rows(rows: &mut Vec<Row>, case: &str, r: &CartStopRun, wheels: bool) {
    let mut quantities = vec![
        ("max chassis |v| after the first stopped step [m/s] (tribo)", r.speed_after),
        ("max chassis |ω| after the first stopped step [rad/s] (tribo)", r.spin_after),
    ];
    if wheels {
        quantities.push((
            "max wheel |ω| relative to the chassis after the first stopped step [rad/s] (tribo)",
            r.wheel_spin_after,
        ));
    }
    for (quantity, measured) in quantities {
        rows.push(no_back_motion_row(case, quantity, measured));
    }
}

/// A row of a body after its roll stopped: `measured` (a speed or a spin) at most 1e-4.
fn no_back_motion_row(case: &str, quantity: &str, measured: f64) -> Row {
    Row::new(case, quantity, 1e-4, measured, Tolerance::AtMost, "a stopped roll holds: no back-motion")
}

/// The stock column of a roll-out: without rolling resistance stock rapier still rolls at
/// nearly its 2 m/s after 8 s.
fn stock_rolls_on_row(case: &str, speed: f64) -> Row {
    Row::new(
        case,
        "speed after 8 s [m/s] (stock rapier)",
        1.9,
        speed,
        Tolerance::AtLeast,
        "stock: no rolling resistance",
    )
}

/// Validation rows of the fidelity scenes, tribo and stock, at [`DTS`].
pub fn validation_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    let a = rolling_deceleration();
    for dt in DTS {
        let d = dt_name(dt);
        ball_roll_rows(&mut rows, dt, &d, a);
        cylinder_roll_rows(&mut rows, dt, &d);
        cart_stop_rows(&mut rows, dt, &d);
        set_down_rows(&mut rows, dt, &d);
        cube_stack_rows(&mut rows, dt, &d);
        tilted_trough_rows(&mut rows, dt, &d);
    }
    rows
}

/// F1 rows: a ball rolling out from 2 m/s at deceleration `a`, tribo and stock.
fn ball_roll_rows(rows: &mut Vec<Row>, dt: f32, d: &str, a: f64) {
    let (t_exp, x_exp) = roll_out(2.0, a, dt);
    let case = format!("rapier F1 ball rolling from 2 m/s, dt={d}");
    let (t, s) = (rolling_stop(dt, Friction::Tribo), rolling_stop(dt, Friction::Stock));
    let src = "docs/tracking.md §3.3: a = 2 η_r μk g/1.4, from the second step (§1.2)";
    rows.push(Row::new(
        &case,
        "rolling steps with static slide (tribo)",
        1.0,
        t.static_slide_fraction,
        Tolerance::AtLeast,
        "rolling without slip is stick",
    ));
    rows.push(Row::new(
        &case,
        "stop time [s] (tribo)",
        t_exp,
        t.stop_time,
        Tolerance::Abs(0.01 * t_exp + dt as f64),
        src,
    ));
    rows.push(Row::new(&case, "distance [m] (tribo)", x_exp, t.distance, Tolerance::Rel(0.01), src));
    rows.push(no_back_motion_row(
        &case,
        "max |v| after the first stopped step [m/s] (tribo)",
        t.speed_after_stop,
    ));
    rows.push(no_back_motion_row(
        &case,
        "max |ω| after the first stopped step [rad/s] (tribo)",
        t.spin_after_stop,
    ));
    rows.push(stock_rolls_on_row(&case, s.speed_after_stop));
}

/// F6 rows: a solid cylinder on its side rolling out from 2 m/s, tribo and stock.
fn cylinder_roll_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    let case = format!("rapier F6 solid cylinder on its side rolling from 2 m/s, dt={d}");
    let (ct, cx) = roll_out(2.0, cylinder_deceleration(), dt);
    let (t, s) = (cylinder_stop(dt, Friction::Tribo), cylinder_stop(dt, Friction::Stock));
    let src = "docs/tracking.md §3.3: T = 2 η_r μk R N, I = ½ m R², a = 2 η_r μk g/1.5, from the second step";
    rows.push(Row::new(
        &case,
        "stop time [s] (tribo)",
        ct,
        t.stop_time,
        Tolerance::Abs(0.01 * ct + dt as f64),
        src,
    ));
    rows.push(Row::new(&case, "distance [m] (tribo)", cx, t.distance, Tolerance::Rel(0.01), src));
    // Started elsewhere along its axis: at 0.3 m the cylinder hops off the ground for a step
    // (rapier's cylinder–cuboid contact), which must not end the kinetic roll.
    rows.push(Row::new(
        &case,
        "distance, started 0.3 m along the axis [m] (tribo)",
        cx,
        cylinder_stop_from(dt, Friction::Tribo, 0.3).distance,
        Tolerance::Rel(0.01),
        src,
    ));
    rows.push(no_back_motion_row(
        &case,
        "max back-motion |v_x|, |ω_z| after the first stopped step (tribo)",
        t.roll_after_stop,
    ));
    rows.push(stock_rolls_on_row(&case, s.speed_after_stop));
}

/// F3 rows: the cart on four ball wheels, on impulse and on multibody revolute joints.
fn cart_stop_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    let case = format!("rapier F3 cart on four ball wheels (revolute joints) from 2 m/s, dt={d}");
    // One run gives the stop (first step with the chassis' |v| and |ω| below 1e-4), the
    // distance and the chassis after the stop (its wheels' single-step kicks on rapier's
    // impulse joints, one f32 spacing of x per step, are in docs/rapier.md §0).
    let (ca, after, (_, sx)) = (cart_deceleration(), cart_after_stop(dt), cart_stop(dt, Friction::Stock));
    cart_rows(rows, &case, (ca, dt), &after, sx, (1.0, CART_DECELERATION), false);
    let case = format!("rapier F3 cart on four ball wheels (multibody revolute joints) from 2 m/s, dt={d}");
    let (m, (_, msx)) =
        (cart_after_stop_on(dt, 0.0, Axles::Multibody), cart_stop_on(dt, Friction::Stock, Axles::Multibody));
    // At 1/30 the stop comes a step later (a one-step kick of the chassis as the wheels
    // stop; see the lab test `a_cart_on_multibody_joints_stops_on_time_and_stands_still`).
    let steps = if dt > 0.03 { 2.0 } else { 1.0 };
    let stop_src = "a = 2 η_r μk g M/(M + Σ I_w/R²); 1 % + one step (two at 1/30)";
    cart_rows(rows, &case, (ca, dt), &m, msx, (steps, stop_src), true);
}

/// F2 rows: bodies set down at rest inside their static capacity (roll, slide, spin), tribo and
/// stock.
fn set_down_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    let case = format!("rapier F2 ball set down at rest, tan α=0.09 in (2η_rμk, 2η_rμs), dt={d}");
    let ((td, _), (sd, _)) = (
        set_down_on_slope(dt, 0.09, 10.0, Friction::Tribo),
        set_down_on_slope(dt, 0.09, 10.0, Friction::Stock),
    );
    rows.push(Row::new(
        &case,
        "drift over 10 s [m] (tribo)",
        1e-4,
        td,
        Tolerance::AtMost,
        "static roll capacity holds from the first step",
    ));
    rows.push(Row::new(
        &case,
        "drift over 10 s [m] (stock rapier)",
        1.0,
        sd,
        Tolerance::AtLeast,
        "stock: rolls away",
    ));
    let case = format!("rapier F2 brick set down at rest, tan α=0.423 in (μk, μs) = (0.3, 0.5), dt={d}");
    let (tb, sb) = (
        brick_on_slope(0.4, 0.0, dt, Friction::Tribo, 10.0),
        brick_on_slope(0.4, 0.0, dt, Friction::Stock, 10.0),
    );
    rows.push(Row::new(
        &case,
        "drift over 10 s [m] (tribo)",
        1e-4,
        tb.drift,
        Tolerance::AtMost,
        "static slide capacity holds from the first step",
    ));
    rows.push(Row::new(
        &case,
        "drift over 10 s [m] (stock rapier)",
        1e-3,
        sb.drift,
        Tolerance::AtMost,
        "stock (μ = μs) holds too, after its first step slid",
    ));
    let case = format!(
        "rapier F2 ball set down at rest under a spin torque of 0.11 N·m in (c_ψk m g, c_ψs m g), dt={d}"
    );
    let ((ta, _), (sa, _)) = (
        set_down_with_spin_torque(dt, 0.11, 10.0, Friction::Tribo),
        set_down_with_spin_torque(dt, 0.11, 0.5, Friction::Stock),
    );
    rows.push(Row::new(
        &case,
        "equator travel over 10 s [m] (tribo)",
        1e-4,
        0.1 * ta,
        Tolerance::AtMost,
        "static spin capacity holds from the first step",
    ));
    rows.push(Row::new(
        &case,
        "turn after 0.5 s [rad] (stock rapier)",
        0.5,
        sa,
        Tolerance::AtLeast,
        "stock: spins up, τ t²/(2I) = 0.82 rad",
    ));
}

/// F7 rows: a stack of ten cubes built face on face, tribo against stock.
fn cube_stack_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    let case = format!("rapier F7 stack of 10 cubes built aligned face on face, 20 s, dt={d}");
    let (t, s) = (cube_stack(dt, StackContacts::Tribo), cube_stack(dt, StackContacts::Stock));
    let src = "stock rapier in the same scene (issue 14: flat-on-flat at least as still as stock); docs/rapier.md §2 \"Hooked pairs\"";
    rows.push(Row::new(&case, "max drift [m] (tribo, vs stock)", s.drift, t.drift, Tolerance::AtMost, src));
    rows.push(Row::new(
        &case,
        "max tilt [°] (tribo, vs stock)",
        s.tilt_deg,
        t.tilt_deg,
        Tolerance::AtMost,
        src,
    ));
    rows.push(Row::new(
        &case,
        "max speed over the last 10 s [m/s] (tribo)",
        1e-4,
        t.late_speed,
        Tolerance::AtMost,
        "settled stacks stand still",
    ));
    let src = "stands (recycled contacts: docs/rapier.md §2 \"Hooked pairs\")";
    rows.push(Row::new(&case, "max drift [m] (stock rapier)", 0.1, s.drift, Tolerance::AtMost, src));
    rows.push(Row::new(&case, "max tilt [°] (stock rapier)", 2.0, s.tilt_deg, Tolerance::AtMost, src));
}

/// F4/F5 rows: a ball rolling down the right-angle trough tilted 10° (`crate::rapier::trough::tilted_roll`),
/// μ = 0.5 (rolls without slip) and μ = 0.05 (below the 0.0554 rolling needs: slides).
fn tilted_trough_rows(rows: &mut Vec<Row>, dt: f32, d: &str) {
    use crate::rapier::trough::{tilted_roll, tilted_roll_acceleration, tilted_slide_acceleration};
    let secs = 1.5;
    let case = format!("rapier F4 ball rolling down a 10° V-trough, μ 0.5, dt={d}");
    let (t, s) = (tilted_roll(dt, 0.5, secs, Friction::Tribo), tilted_roll(dt, 0.5, secs, Friction::Stock));
    let steps = t.steps.max(1) as f64;
    rows.push(Row::new(
        &case,
        "steps with both contacts static slide (tribo)",
        1.0,
        t.both_static_steps as f64 / steps,
        Tolerance::AtLeast,
        "rolling without slip is stick",
    ));
    rows.push(Row::new(
        &case,
        "steps with a realizable monitor report (tribo)",
        1.0,
        t.realizable_reports as f64 / steps,
        Tolerance::AtLeast,
        "the rolling ball is realizable at every step",
    ));
    let v = tilted_roll_acceleration(G as f64) * secs;
    let src = "a = g sin θ/(1 + 2j), rolling about the contact chord";
    speed_rows(rows, &case, v, [t.final_speed, s.final_speed], Tolerance::Rel(0.01), src);
    let case = format!("rapier F5 ball in a 10° V-trough, μ 0.05 < 0.0554 (slides), dt={d}");
    let (t, s) = (tilted_roll(dt, 0.05, secs, Friction::Tribo), tilted_roll(dt, 0.05, secs, Friction::Stock));
    rows.push(Row::new(
        &case,
        "steps to the first kinetic step (tribo)",
        3.0,
        (t.first_kinetic / dt as f64).round(),
        Tolerance::AtMost,
        "slip is detected within three steps",
    ));
    let v = tilted_slide_acceleration(G as f64, 0.05) * secs;
    let src = "a = g (sin θ − √2 μk cos θ)";
    speed_rows(rows, &case, v, [t.final_speed, s.final_speed], Tolerance::Rel(0.02), src);
}

/// The trough's speed rows after 1.5 s, tribo and stock rapier against the same expected value.
fn speed_rows(
    rows: &mut Vec<Row>,
    case: &str,
    expected: f64,
    [tribo, stock]: [f64; 2],
    tol: Tolerance,
    src: &str,
) {
    for (who, v) in [("tribo", tribo), ("stock rapier", stock)] {
        rows.push(Row::new(case, format!("speed after 1.5 s [m/s] ({who})"), expected, v, tol, src));
    }
}

/// Launches a cart whose chassis `chassis` is the root of a multibody with its wheels (radius `r`)
/// on revolute axles: along +x at `v0`, its wheels rolling, rapier's multibody damping off. A
/// multibody moves by its generalized velocities (the root's six, then each axle's turn), not by
/// its links' body velocities.
pub fn launch_multibody_cart(sim: &mut Sim, chassis: RigidBodyHandle, v0: f32, r: f32) {
    let link = *sim.world.multibody_joints.rigid_body_link(chassis).expect("the root link");
    let mb = sim.world.multibody_joints.get_multibody_mut(link.multibody).expect("the multibody");
    mb.damping_mut().fill(0.0);
    let ndofs = mb.ndofs();
    let mut v = mb.generalized_velocity_mut();
    v[0] = v0;
    for k in 6..ndofs {
        v[k] = -v0 / r;
    }
}

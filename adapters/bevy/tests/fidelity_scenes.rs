//! Engine-scene fidelity in bevy beyond the ball on flat ground, at dt = 1/30, 1/60 and 1/240
//! (frames of dt, one rapier step each, f32 transforms): a ball rolling down a tilted V-trough,
//! a cylinder rolling on its side, a cart on four wheels on revolute joints (impulse joints,
//! and multibody joints set down at rest), a stack of ten cubes, a brick and a ball set down at rest inside the gap between their static and kinetic
//! capacities. The scenes are the lab's rapier scenes (`lab/src/rapier/fidelity.rs`,
//! `lab/src/rapier/trough.rs`); the expected values are the friction model's closed forms
//! (docs/tracking.md §3.3: roll torque bound `2 η_r μ R N` for a ball or a cylinder on a plane).

use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_2, FRAC_PI_4, SQRT_2};

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use bevy_tribo::{Mode, SpinModel};

mod common;

use common::G;

const DTS: [f32; 3] = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 240.0];

/// A headless app with tribo, one rapier step of `dt` per frame of `dt` and gravity `gravity`.
fn app(dt: f32, gravity: Vec3) -> App {
    let mut app = common::app_with_frames(TimestepMode::Fixed { dt, substeps: 1 }, dt);
    common::set_gravity(&mut app, gravity);
    app
}

/// Number of frames of `dt` covering `seconds`.
fn frames(seconds: f64, dt: f32) -> usize {
    (seconds / dt as f64).round() as usize
}

/// The rolling material of the lab's roll-out scenes: μs = 0.6, μk = 0.5, η_r = 0.05 (kinetic
/// roll torque bound `2 η_r μk R N` = 0.05 R N on a plane), spin off.
fn rolling_material() -> FrictionMaterial {
    FrictionMaterial::builder().friction(0.6, 0.5).roll_eta(0.05).spin(SpinModel::Off).build().unwrap()
}

/// The contact between the colliders `a` and `b` in this frame's reports.
fn contact(app: &App, a: Entity, b: Entity) -> Option<ContactReport> {
    let contacts = app.world().resource::<TriboContacts>();
    contacts.involving(a).find(|c| c.collider1 == b || c.collider2 == b).copied()
}

fn velocity(app: &App, e: Entity) -> Velocity {
    common::velocity(app, e)
}

// ------------------------------------------------------------------------------------------
// 1. Ball rolling down a tilted V-trough

/// Realizability reports of the current frame.
#[derive(Resource, Default)]
struct Reports(Vec<RealizabilityReport>);

fn collect(mut r: MessageReader<RealizabilityReport>, mut out: ResMut<Reports>) {
    out.0.extend(r.read().cloned());
}

/// Tilt of the trough axis (deg).
const TILT_DEG: f32 = 10.0;

/// What a tilted-trough run measured.
#[derive(Debug, Default)]
struct TroughRun {
    frames: usize,
    /// Frames with both wall contacts reported and `Static` slide.
    both_static: usize,
    /// Frames with a realizability report of the ball.
    reports: usize,
    /// Of these, frames whose report says "realizable".
    realizable: usize,
    /// Speed of the ball's centre at the end (m/s).
    final_speed: f32,
    /// Largest distance of the ball's centre from the trough axis (m).
    max_offset: f32,
}

/// The lab's tilted trough (`tribo_lab::rapier::trough::tilted_roll`): two perpendicular fixed
/// walls inclined at 45° about the trough axis z, whose bottom line passes at √2 r below the
/// ball centre, the axis tilted by 10° (gravity `g (0, −cos θ, sin θ)`, the ball runs along
/// +z); a ball of radius 0.1 m (density 1000) released at rest in the bottom, μs = μk = `mu`
/// at both walls, no rolling or spin resistance; the realizability monitor on; run for
/// `seconds`.
fn tilted_trough(dt: f32, mu: f64, seconds: f64) -> TroughRun {
    let r = 0.1f32;
    let tilt = TILT_DEG.to_radians();
    let mut app = app(dt, Vec3::new(0.0, -G * tilt.cos(), G * tilt.sin()));
    app.world_mut().resource_mut::<RealizabilityMonitor>().enabled = true;
    app.init_resource::<Reports>().add_systems(PostUpdate, collect.after(TriboSet::Step));
    let (ex, ey) =
        (Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0), Vec3::new(-FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0));
    // Walls from z = −0.5 m to past where the ball gets (½ a t² + 1 m).
    let a = G * tilt.sin() / 1.8;
    let half_axis = 0.5 * (0.5 * a * (seconds * seconds) as f32 + 1.5);
    let (half_len, half_thick) = (5.0 * r, 0.5 * r);
    let bottom = Vec3::new(0.0, -SQRT_2 * r, 0.0);
    let mut walls = [Entity::PLACEHOLDER; 2];
    for (i, (n, angle)) in [(ey, FRAC_PI_4), (ex, -FRAC_PI_4)].into_iter().enumerate() {
        let along = Vec3::Z.cross(n);
        let up = if along.y > 0.0 { along } else { -along };
        let center = bottom + up * half_len - n * half_thick + Vec3::Z * (half_axis - 0.5);
        walls[i] = app
            .world_mut()
            .spawn((
                Transform::from_translation(center).with_rotation(Quat::from_rotation_z(angle)),
                Collider::cuboid(half_len, half_thick, half_axis),
                Friction::coefficient(mu as f32),
            ))
            .id();
    }
    let material =
        FrictionMaterial::new(mu, mu).unwrap().with_roll_eta(0.0).unwrap().with_spin(SpinModel::Off).unwrap();
    let ball = app
        .world_mut()
        .spawn((
            Transform::IDENTITY,
            RigidBody::Dynamic,
            Collider::ball(r),
            ColliderMassProperties::Density(1000.0),
            Sleeping::disabled(),
            Velocity::zero(),
            material,
        ))
        .id();
    let mut run = TroughRun::default();
    for _ in 0..frames(seconds, dt) {
        app.world_mut().resource_mut::<Reports>().0.clear();
        app.update();
        run.frames += 1;
        let modes = walls.map(|w| contact(&app, ball, w).map(|c| c.slide));
        run.both_static += usize::from(modes.iter().all(|m| *m == Some(Mode::Static)));
        let reports = &app.world().resource::<Reports>().0;
        if let Some(rep) = reports.iter().find(|r| r.body == Some(ball)) {
            run.reports += 1;
            run.realizable += usize::from(rep.realizable());
        }
        let p = common::position(&app, ball);
        run.max_offset = run.max_offset.max(p.x.hypot(p.y));
        run.final_speed = velocity(&app, ball).linear.length();
    }
    run
}

/// A ball released in the trough tilted by θ = 10° rolls without slip about the chord through
/// its two contact points, at ρ = r/√2 from its centre: `m a = m g sin θ − F`, `I a/ρ = F ρ`
/// with `I = j m r²`, j = 2/5, so `a = g sin θ/(1 + j r²/ρ²) = g sin θ/(1 + 2j)`
/// = 9.81 · 0.173648/1.8 = 0.94638 m/s², and after 1.5 s `v = 1.41957 m/s`. Rolling needs
/// the axial friction `F = m g sin θ · 2j/(1 + 2j)` from two walls each pressed by
/// `N = m g cos θ/√2`: μ ≥ √2 j tan θ/(1 + 2j) = 0.0554, far below μ = 0.5. So both contacts
/// stick (`Static` slide, μs) every frame, the realizability monitor (it analyses bodies on two
/// sticking contacts) reports the ball as realizable every frame, and the speed is the rolling
/// law's within 1 % (the lab's rapier tolerance).
#[test]
fn a_ball_rolling_down_a_tilted_v_trough_is_static_sliding_and_monitored() {
    let g = G as f64;
    let th = (TILT_DEG as f64).to_radians();
    let want = g * th.sin() / (1.0 + 2.0 * 0.4) * 1.5;
    assert!((want - 1.41957).abs() < 1e-4, "{want}");
    let mu_needed = SQRT_2 as f64 * 0.4 * th.tan() / 1.8;
    assert!(mu_needed < 0.056, "{mu_needed}");
    for dt in DTS {
        let r = tilted_trough(dt, 0.5, 1.5);
        assert_eq!(r.frames, frames(1.5, dt));
        assert_eq!(r.both_static, r.frames, "dt {dt}: {r:?}");
        assert_eq!(r.reports, r.frames, "dt {dt}: {r:?}");
        assert_eq!(r.realizable, r.frames, "dt {dt}: {r:?}");
        assert!((r.final_speed as f64 - want).abs() < 0.01 * want, "dt {dt}: {r:?}, analytic {want}");
        // It stays in the trough bottom (rapier's resting penetration is millimetres at 1/30).
        assert!(r.max_offset < 0.01, "dt {dt}: {r:?}");
    }
}

// ------------------------------------------------------------------------------------------
// 2.–3. Roll-outs: cylinder on its side, cart on four wheels

/// What a roll-out run measured.
#[derive(Debug, Default)]
struct StopRun {
    /// First time both |v| and |ω| of the watched body are below 1e-4 (s); `None` if never.
    stop_time: Option<f64>,
    /// Distance along x by then (m).
    distance: f64,
    /// Largest |v| (m/s) and |ω| (rad/s) of the watched body in the second after the first
    /// stopped frame.
    speed_after: f32,
    spin_after: f32,
    /// Largest back-motion then: |v_x| and |ω_z|, the rolling direction and axis.
    roll_after: f32,
    /// Frames while rolling (after the first) and those with every contact of the rolling
    /// colliders with the ground reported `Static` slide.
    rolling: usize,
    static_slide: usize,
}

/// Runs `app` for up to `seconds`, until 1 s after `body` stops (|v| and |ω| below 1e-4),
/// checking the slide mode of the contacts between `ground` and `rollers` while it rolls.
fn stop_run(
    app: &mut App,
    dt: f32,
    body: Entity,
    ground: Entity,
    rollers: &[Entity],
    seconds: f64,
) -> StopRun {
    let mut run = StopRun::default();
    for k in 1..=frames(seconds, dt) {
        app.update();
        let t = k as f64 * dt as f64;
        let v = velocity(app, body);
        match run.stop_time {
            Some(ts) => {
                run.speed_after = run.speed_after.max(v.linear.length());
                run.spin_after = run.spin_after.max(v.angular.length());
                run.roll_after = run.roll_after.max(v.linear.x.abs()).max(v.angular.z.abs());
                if t > ts + 1.0 - 0.5 * dt as f64 {
                    break;
                }
            }
            None if v.linear.length() < 1e-4 && v.angular.length() < 1e-4 => {
                run.stop_time = Some(t);
                run.distance = common::position(app, body).x as f64;
            }
            None if k > 1 => {
                run.rolling += 1;
                let all_static =
                    rollers.iter().all(|&c| contact(app, c, ground).is_some_and(|c| c.slide == Mode::Static));
                run.static_slide += usize::from(all_static);
            }
            None => {}
        }
    }
    run
}

/// Stop time within 1 % + one frame of `t_exp`, distance within 1 % of `x_exp`.
fn assert_stops_on_time(r: &StopRun, (t_exp, x_exp): (f64, f64), dt: f32) {
    let ts = r.stop_time.unwrap_or_else(|| panic!("dt {dt}: no stop: {r:?}"));
    assert!(
        (ts - t_exp).abs() <= 0.01 * t_exp + dt as f64,
        "dt {dt}: stop at {ts} s, analytic {t_exp}: {r:?}"
    );
    assert!(
        (r.distance - x_exp).abs() <= 0.01 * x_exp,
        "dt {dt}: stopped at {} m, analytic {x_exp}: {r:?}",
        r.distance
    );
}

/// A solid cylinder (radius R = 0.2 m, length 0.2 m, density 1000) lying on its side, axis
/// along z, rolling without slip at 2 m/s along +x: returns the stop run over up to 8 s.
fn cylinder_roll_out(dt: f32) -> StopRun {
    let (r, v0) = (0.2f32, 2.0f32);
    let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
    let ground = common::ground(&mut app, None);
    // bevy_rapier's cylinder axis is local y: turned by 90° about x, it lies along z.
    let cyl = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, r, 0.0).with_rotation(Quat::from_rotation_x(FRAC_PI_2)),
            RigidBody::Dynamic,
            Collider::cylinder(0.1, r),
            ColliderMassProperties::Density(1000.0),
            Velocity { linear: Vec3::X * v0, angular: Vec3::Z * (-v0 / r) },
            rolling_material(),
        ))
        .id();
    stop_run(&mut app, dt, cyl, ground, &[cyl], 8.0)
}

/// The cylinder's roll torque bound is the ball's, `T = 2 η_r μk N/(κ_i + κ_j)` with the
/// curvature 1/R along the rolling direction and the flat ground's 0: `T = 2 η_r μk R m g`
/// = 0.05 R m g. With `I = ½ m R²` the energy balance `(m + I/R²) v a = T v/R` gives
/// `a = 2 η_r μk g/1.5` = 0.05 · 9.81/1.5 = 0.327 m/s²: from 2 m/s it stops at
/// `v0/a` = 6.1162 s after `v0²/(2a)` = 6.1162 m, from its contact's second step on
/// (`common::roll_out`).
fn cylinder_stop_expected(dt: f32) -> (f64, f64) {
    let a = 2.0 * 0.05 * 0.5 * G as f64 / 1.5;
    assert!((2.0 / a - 6.1162).abs() < 1e-3, "{a}");
    common::roll_out(2.0, a, dt)
}

/// Once the cylinder has stopped (first frame with |v| and |ω| below 1e-4), it does not move
/// back along its roll: |v_x| and |ω_z| stay below 1e-4 for the next second (the static roll
/// holds it where it stopped).
#[test]
fn a_stopped_cylinder_does_not_move_back_along_its_roll() {
    cylinder_stop_expected(DTS[0]);
    for dt in DTS {
        let r = cylinder_roll_out(dt);
        assert!(r.stop_time.is_some(), "dt {dt}: no stop: {r:?}");
        assert!(r.roll_after < 1e-4, "dt {dt}: moved back after the stop: {r:?}");
    }
}

/// The cylinder stops within 1 % + one frame of the analytic time and within 1 % of the
/// analytic distance at dt = 1/30, 1/60 and 1/240 (measured: 6.167 s and 6.149 m, 6.150 s and
/// 6.146 m, 6.125 s and 6.124 m, for 6.116 s and 6.116 m). In this scene the cylinder is its
/// contact pair's first collider, whose manifold normal rapier takes from the cylinder's frame:
/// tribo takes the ground's face normal instead (tribo_rapier's README, "Cylinders on boxes");
/// with the cylinder's normal the roll-out came 3–6 % late (6.300 s at 1/30 and 1/60, 6.508 s
/// at 1/240, the normal force alternating between 160 and 330 N from step to step at 1/240).
/// In this order rapier's contact also loses its points for a step now and then; tribo keeps the
/// contact (and its kinetic roll) over such steps and gives back the turn its motor took off
/// the cylinder in them: dropped with its points, the roll-out at 1/240 would end after 6.011 m.
#[test]
fn a_cylinder_rolling_on_its_side_stops_on_time() {
    for dt in DTS {
        assert_stops_on_time(&cylinder_roll_out(dt), cylinder_stop_expected(dt), dt);
    }
}

/// The cylinder rolls with `Static` slide on every rolling frame and, in the second after the
/// first stopped frame, |v| and |ω| stay below 1e-4, at dt = 1/30, 1/60 and 1/240 (183, 367 and
/// 1468 rolling frames; after the stop |v| at most 8.3e-6 m/s and |ω| 3.9e-5 rad/s). rapier's
/// cylinder–cuboid contact with the cylinder as the pair's first collider loses its points now
/// and then (stock rapier too; parry's EPA finds no penetration and leaves the manifold empty):
/// the cylinder falls for a frame and lands deep in the ground, and the solver, rolling it about
/// a point inside it, leaves it slipping while it is pushed back out (the lab's scene in this
/// order: up to 1.5 cm and 0.05 m/s at 1/30, `lab/tests/rapier_fidelity.rs`). tribo gives back the turn the roll motor took off the cylinder in the frame without
/// points, lets a sticking slide's deflection go while the surfaces are apart, and starts it
/// again from the end of the landing step, so the landing stays within the static threshold.
#[test]
fn a_cylinder_rolling_on_its_side_is_static_sliding_and_still_after_its_stop() {
    cylinder_stop_expected(DTS[0]);
    for dt in DTS {
        let r = cylinder_roll_out(dt);
        assert!(r.rolling > 0 && r.static_slide == r.rolling, "dt {dt}: {r:?}");
        assert!(r.speed_after < 1e-4 && r.spin_after < 1e-4, "dt {dt}: |v| or |ω| after the stop: {r:?}");
    }
}

/// Chassis half extents (m) and density of the cart.
const CHASSIS: (Vec3, f32) = (Vec3::new(0.5, 0.05, 0.3), 500.0);
/// Wheel radius (m) and density of the cart's ball wheels.
const WHEEL: (f32, f32) = (0.2, 1000.0);

/// The joints of the cart's axles.
#[derive(Clone, Copy, PartialEq)]
enum Axles {
    /// `ImpulseJoint`s.
    Impulse,
    /// `MultibodyJoint`s, the chassis the multibody's root.
    Multibody,
}

/// The lab's cart (`tribo_lab::rapier::fidelity::cart_stop`): a 1 m × 0.1 m × 0.6 m chassis
/// (density 500) that touches nothing, on four ball wheels (radius 0.2 m, density 1000, the
/// rolling material) at (±0.4, ±0.45) on revolute joints about z (on `axles`), all rolling at
/// `v0` along +x. Returns the chassis and the wheels.
fn spawn_cart(app: &mut App, v0: f32, axles: Axles) -> (Entity, Vec<Entity>) {
    let ((half, density), (r, wheel_density)) = (CHASSIS, WHEEL);
    let chassis = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, r, 0.0),
            RigidBody::Dynamic,
            Collider::cuboid(half.x, half.y, half.z),
            ColliderMassProperties::Density(density),
            CollisionGroups::new(Group::GROUP_2, Group::NONE),
            Velocity::linear(Vec3::X * v0),
        ))
        .id();
    let mut wheels = Vec::new();
    for (x, z) in [(-0.4, -0.45), (-0.4, 0.45), (0.4, -0.45), (0.4, 0.45)] {
        let mut axle = RevoluteJointBuilder::new(Vec3::Z).local_anchor1(Vec3::new(x, 0.0, z)).build();
        axle.set_contacts_enabled(false);
        let mut wheel = app.world_mut().spawn((
            Transform::from_xyz(x, r, z),
            RigidBody::Dynamic,
            Collider::ball(r),
            ColliderMassProperties::Density(wheel_density),
            CollisionGroups::new(Group::GROUP_1, Group::GROUP_1),
            Velocity { linear: Vec3::X * v0, angular: Vec3::Z * (-v0 / r) },
            rolling_material(),
        ));
        match axles {
            Axles::Impulse => wheel.insert(ImpulseJoint::new(chassis, axle)),
            Axles::Multibody => wheel.insert(MultibodyJoint::new(chassis, axle.into())),
        };
        wheels.push(wheel.id());
    }
    (chassis, wheels)
}

/// The cart of [`spawn_cart`] on impulse joints rolled at 2 m/s: the stop run of the chassis
/// over up to 10 s.
fn cart_roll_out(dt: f32) -> StopRun {
    let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
    let ground = common::ground(&mut app, None);
    let (chassis, wheels) = spawn_cart(&mut app, 2.0, Axles::Impulse);
    stop_run(&mut app, dt, chassis, ground, &wheels, 10.0)
}

/// The cart's deceleration with the wheels' inertia. Each wheel's kinetic roll torque is
/// `T_i = 2 η_r μk R N_i` (N_i its share of the weight), `Σ T_i = 0.05 R M g` with M the total
/// mass. Energy: `d/dt [½ M v² + ½ Σ I_w (v/R)²] = −Σ T_i v/R`, so
/// `a = Σ T_i/(R (M + Σ I_w/R²)) = 0.05 g M/(M + 4 · 0.4 m_w)` (I_w = 0.4 m_w R², solid ball).
/// m_w = 1000 · 4/3 π 0.2³ = 33.510 kg, M = 500 · 0.06 + 4 m_w = 164.04 kg:
/// a = 0.4905 · 164.04/217.66 = 0.36967 m/s² (0.4905 without the wheels' inertia).
fn cart_deceleration() -> f64 {
    let m_w = WHEEL.1 as f64 * 4.0 / 3.0 * std::f64::consts::PI * (WHEEL.0 as f64).powi(3);
    let h = CHASSIS.0.as_dvec3();
    let m = CHASSIS.1 as f64 * 8.0 * h.x * h.y * h.z + 4.0 * m_w;
    2.0 * 0.05 * 0.5 * G as f64 * m / (m + 4.0 * 0.4 * m_w)
}

/// From 2 m/s the cart stops at `v0/a` = 5.4102 s after `v0²/(2a)` = 5.4102 m, from its
/// contacts' second step on (`common::roll_out`).
fn cart_stop_expected(dt: f32) -> (f64, f64) {
    let a = cart_deceleration();
    assert!((a - 0.36967).abs() < 1e-4, "{a}");
    common::roll_out(2.0, a, dt)
}

/// The cart stops (chassis |v| and |ω| < 1e-4) within 1 % + one frame of the analytic time
/// and within 1 % of the analytic distance at 1/30, 1/60 and 1/240, and the chassis' |v| and
/// |ω| stay below 1e-4 in the second after the first stopped frame (measured 9.0e-6, 1.3e-5,
/// 2.2e-5 m/s and 1.2e-5, 1.1e-5, 5.4e-5 rad/s at 1/30, 1/60, 1/240, as the lab's rapier cart to
/// the last digit). The wheels' friction acts in their centre-of-mass planes in their last
/// kinetic frame and in the one after their stop (docs/rapier.md §0 item 6): without the first,
/// at 1/30 the chassis moved on at 1.5e-4 m/s after its stop.
///
/// The wheels' slide is not asserted (the issue asks it of the ball, the trough and the
/// cylinder): at 1/30 rapier leaves the jointed wheels an apparent slip of 1–2 % of the speed
/// (0.02–0.04 m/s in the first 3 s) and one or two wheels are reported `Kinetic` on 85 of 161
/// rolling frames (`Static` throughout at 1/60 and 1/240).
#[test]
fn a_cart_on_four_wheels_stops_on_time() {
    for dt in DTS {
        let r = cart_roll_out(dt);
        assert_stops_on_time(&r, cart_stop_expected(dt), dt);
        assert!(r.speed_after < 1e-4 && r.spin_after < 1e-4, "dt {dt}: chassis after the stop: {r:?}");
    }
}

/// The cart of [`spawn_cart`] on multibody joints set down at rest with its bodies kept awake,
/// for 3 s: over the last 2 s the chassis' |v| and |ω| and each wheel's |ω| relative to the
/// chassis (largest).
fn multibody_cart_set_down(dt: f32) -> (f32, f32, f32) {
    let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
    common::ground(&mut app, None);
    let (chassis, wheels) = spawn_cart(&mut app, 0.0, Axles::Multibody);
    for &e in std::iter::once(&chassis).chain(&wheels) {
        app.world_mut().entity_mut(e).insert(Sleeping::disabled());
    }
    let (mut speed, mut spin, mut wheel_spin) = (0.0f32, 0.0f32, 0.0f32);
    for k in 1..=frames(3.0, dt) {
        app.update();
        if (k as f64) * (dt as f64) < 1.0 {
            continue;
        }
        let v = velocity(&app, chassis);
        speed = speed.max(v.linear.length());
        spin = spin.max(v.angular.length());
        for &w in &wheels {
            wheel_spin = wheel_spin.max((velocity(&app, w).angular - v.angular).length());
        }
    }
    (speed, spin, wheel_spin)
}

/// A cart on multibody joints set down at rest stands: bevy_tribo tells the store which bodies
/// are multibody links, so the wheels' contacts get no anchor pull-back (as on impulse joints).
/// Over the second and third seconds at 1/60 the chassis' |v| and |ω| and the wheels' |ω|
/// relative to the chassis stay below 1e-4 (measured wheels 2.7e-6 rad/s, with bevy_rapier's
/// default multibody damping; the lab's rapier cart 2.0e-6); with the pull-backs the wheels
/// turned at up to 3.5e-4 rad/s.
#[test]
fn a_cart_on_multibody_joints_set_down_at_rest_stands_still() {
    let (speed, spin, wheel_spin) = multibody_cart_set_down(1.0 / 60.0);
    assert!(speed < 1e-4 && spin < 1e-4, "chassis |v| {speed}, |ω| {spin}");
    assert!(wheel_spin < 1e-4, "wheels {wheel_spin} rad/s relative to the chassis");
}

// ------------------------------------------------------------------------------------------
// 4. Stack of ten cubes

/// What a stack run measured.
#[derive(Debug)]
struct StackRun {
    /// Largest horizontal displacement of a cube's centre from where it was built (m).
    drift: f32,
    /// Largest tilt of a cube's vertical axis (deg).
    tilt_deg: f32,
    /// Largest speed of a cube over the second half of the run (m/s).
    late_speed: f32,
}

/// The lab's stack (`tribo_lab::rapier::fidelity::cube_stack`): ten cubes of edge 0.5 m
/// (density 1000) built exactly aligned, face on face, on fixed ground, run for `seconds`.
/// With `tribo`, each cube carries μs = 0.6, μk = 0.5 (spin off); without, stock rapier
/// friction. Both cases give every collider (ground included) the rapier friction 0.6, so the
/// bottom contact has μs under stock rapier as under tribo.
fn cube_stack(dt: f32, tribo: bool, seconds: f64) -> StackRun {
    let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
    let ground = common::ground(&mut app, None);
    app.world_mut().entity_mut(ground).insert(Friction::coefficient(0.6));
    let material = FrictionMaterial::builder().friction(0.6, 0.5).spin(SpinModel::Off).build().unwrap();
    let h = 0.25f32;
    let cubes: Vec<(Entity, Vec3)> = (0..10)
        .map(|k| {
            let start = Vec3::new(0.0, h + 2.0 * h * k as f32, 0.0);
            let mut e = app.world_mut().spawn((
                Transform::from_translation(start),
                RigidBody::Dynamic,
                Collider::cuboid(h, h, h),
                ColliderMassProperties::Density(1000.0),
                Friction::coefficient(0.6),
                Velocity::zero(),
            ));
            if tribo {
                e.insert(material);
            }
            (e.id(), start)
        })
        .collect();
    let n = frames(seconds, dt);
    let mut late_speed = 0.0f32;
    for k in 1..=n {
        app.update();
        if 2 * k > n {
            for &(c, _) in &cubes {
                late_speed = late_speed.max(velocity(&app, c).linear.length());
            }
        }
    }
    let (mut drift, mut tilt_deg) = (0.0f32, 0.0f32);
    for &(c, start) in &cubes {
        let tf = app.world().get::<Transform>(c).unwrap();
        let d = tf.translation - start;
        drift = drift.max(d.x.hypot(d.z));
        let up = tf.rotation * Vec3::Y;
        tilt_deg = tilt_deg.max(up.x.hypot(up.z).atan2(up.y).to_degrees());
    }
    StackRun { drift, tilt_deg, late_speed }
}

/// Flat-on-flat contacts are at least as still as stock: the stack with tribo drifts and
/// tilts no more than the same stack with stock friction, stands (drift < 0.1 m, tilt < 2°)
/// and is still over the last 10 s (every cube below 1e-4 m/s).
fn assert_stack_as_still_as_stock(dt: f32) {
    let (t, s) = (cube_stack(dt, true, 20.0), cube_stack(dt, false, 20.0));
    let msg = format!("dt {dt}: tribo {t:?}, stock {s:?}");
    assert!(t.drift <= s.drift, "{msg}");
    assert!(t.tilt_deg <= s.tilt_deg, "{msg}");
    assert!(t.drift < 0.1 && t.tilt_deg < 2.0, "{msg}");
    assert!(t.late_speed < 1e-4, "{msg}");
}

/// Over 20 s at 1/30, 1/60 and 1/240. The cubes leave the hook after their first step
/// (`Settings::unhook_settled`) and stay off through the stack's rebound from its soft
/// contacts, when the cubes rock and their relative turn shows at the faces as slip of a few
/// cm/s while the contacts stick: the run is stock rapier's (1/30: 18.0 mm, 0.393°; 1/60:
/// 8.36 mm, 0.140°; 1/240: 8.38 mm, 0.230°).
#[test]
fn a_stack_of_ten_aligned_cubes_stands_as_still_as_stock() {
    for dt in DTS {
        assert_stack_as_still_as_stock(dt);
    }
}

// ------------------------------------------------------------------------------------------
// 5.–6. Set down at rest inside the static/kinetic gap

/// The lab's brick (`tribo_lab::rapier::scenarios::brick_on_slope`): a 0.4 × 0.2 × 0.3 m
/// brick (density 1000), μs = 0.5, μk = 0.3, set down at rest on a slope of `alpha` (gravity
/// tilted: `g (sin α, −cos α, 0)`, +x down-slope) and run for `seconds`. Returns its
/// displacement in the slope plane (m) and its final slide mode.
fn brick_set_down(dt: f32, alpha: f32, seconds: f64) -> (f32, Option<Mode>) {
    let mut app = app(dt, Vec3::new(G * alpha.sin(), -G * alpha.cos(), 0.0));
    let ground = common::ground(&mut app, None);
    let brick = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 0.1, 0.0),
            RigidBody::Dynamic,
            Collider::cuboid(0.2, 0.1, 0.15),
            ColliderMassProperties::Density(1000.0),
            Velocity::zero(),
            FrictionMaterial::new(0.5, 0.3).unwrap(),
        ))
        .id();
    common::run(&mut app, frames(seconds, dt));
    let p = common::position(&app, brick);
    (p.x.hypot(p.z), contact(&app, brick, ground).map(|c| c.slide))
}

/// α = 0.4 rad: tan α = 0.4228 lies between μk = 0.3 and μs = 0.5. Holding needs the friction
/// `m g sin α` = 0.389 m g against the static capacity `μs m g cos α` = 0.461 m g, so static
/// friction holds the brick from its first step; once sliding it would keep sliding at
/// `g (sin α − μk cos α)` = 1.11 m/s² (1 m in 1.3 s).
const BRICK_ALPHA: f32 = 0.4;

/// The brick holds: drift over 10 s < 0.1 mm, slide `Static`, at the three dt. rapier's normal
/// force (and the friction bound with it) builds up over the contact's first step, so the brick
/// first slides (stock rapier: 0.46 mm at 1/30); tribo's onset hold returns it.
/// Above atan μs (α = 0.6) it slides away at `g (sin α − μk cos α)` = 3.11 m/s²: more than 1 m
/// in 1 s (1.55 m), `Kinetic`.
#[test]
fn a_brick_set_down_on_a_slope_between_its_kinetic_and_static_friction_holds() {
    assert!(0.3 < BRICK_ALPHA.tan() && BRICK_ALPHA.tan() < 0.5);
    for dt in DTS {
        let (drift, slide) = brick_set_down(dt, BRICK_ALPHA, 10.0);
        assert!(drift < 1e-4, "dt {dt}: drifted {drift} m");
        assert_eq!(slide, Some(Mode::Static), "dt {dt}");
    }
    for dt in DTS {
        let (drift, slide) = brick_set_down(dt, 0.6, 1.0);
        assert!(drift > 1.0, "dt {dt}: only {drift} m");
        assert_eq!(slide, Some(Mode::Kinetic), "dt {dt}");
    }
}

/// The lab's spin set-down (`set_down_with_spin_torque`): a ball of radius 0.1 m (density
/// 1000: m g = 41.09 N) set down at rest on flat ground with a constant torque `torque` (N·m)
/// about the vertical, μs = 0.6, μk = 0.4, spinning resistance 4 mm static and 2 mm kinetic;
/// with `tribo` false, stock rapier friction. Returns (angle turned about the vertical after
/// `seconds` (rad), final spin mode).
fn spin_set_down(dt: f32, torque: f32, seconds: f64, tribo: bool) -> (f32, Option<Mode>) {
    let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
    let ground = common::ground(&mut app, None);
    let material =
        FrictionMaterial::builder().friction(0.6, 0.4).spinning_resistances(0.004, 0.002).build().unwrap();
    let mut e = app.world_mut().spawn((
        Transform::from_xyz(0.0, 0.1, 0.0),
        RigidBody::Dynamic,
        Collider::ball(0.1),
        ColliderMassProperties::Density(1000.0),
        Velocity::zero(),
        ExternalForce { force: Vec3::ZERO, torque: Vec3::Y * torque },
    ));
    if tribo {
        e.insert(material);
    }
    let ball = e.id();
    common::run(&mut app, frames(seconds, dt));
    // Turned about y: the angle of the body's x axis in the horizontal plane.
    let x = app.world().get::<Transform>(ball).unwrap().rotation * Vec3::X;
    (x.z.atan2(x.x).abs(), contact(&app, ball, ground).map(|c| c.spin))
}

/// Spin torque bounds `c N`: 0.004 m g = 0.1644 N·m sticking, 0.002 m g = 0.0822 N·m spinning.
/// 0.11 N·m lies in the gap: held from the first step, the equator (R = 0.1 m) travels
/// < 0.1 mm in 10 s. Above the static bound (0.2 N·m) it spins; stock rapier has no spin
/// resistance and spins up freely, `θ = τ t²/(2I)` with `I = 0.4 m R²` = 0.016755 kg m²:
/// 0.82 rad after 0.5 s.
#[test]
fn a_ball_set_down_under_a_torque_within_its_static_spin_capacity_holds() {
    for dt in DTS {
        let (angle, spin) = spin_set_down(dt, 0.11, 10.0, true);
        assert!(angle * 0.1 < 1e-4, "dt {dt}: turned {angle} rad");
        assert_eq!(spin, Some(Mode::Static), "dt {dt}");
        let (_, spin) = spin_set_down(dt, 0.2, 1.0, true);
        assert_eq!(spin, Some(Mode::Kinetic), "dt {dt}");
        let (angle, _) = spin_set_down(dt, 0.11, 0.5, false);
        assert!(angle > 0.5, "stock dt {dt}: turned {angle} rad");
    }
}

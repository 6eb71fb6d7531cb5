//! The mechanisms that can carry a contact's rolling and spinning resistance into rapier,
//! measured side by side on docs/rapier.md §8's scenes (ball R = 0.5 m, density 1, μ = 0.8,
//! rolling resistance c = 0.15 m, spin bound 0.05 m · N), at dt = 1/60 and 1/240, 5 s:
//!
//! * `stock`: rapier's friction only;
//! * `impulse`: a clamped angular impulse before each step, `min(I |ω|, T_max dt)` against ω
//!   (I about the contact for rolling, about the normal for spin);
//! * `lever`: the hook moves the solver contacts' points by `d = c (ω̂_t × n)` while the ball
//!   rolls, so the normal impulse carries the rolling torque `|d| N` (kinetic rolling only;
//!   spin has no lever on a one-point contact);
//! * `torque`: [`tribo::resistance::ResistanceTorque`] for the rolling (tangent plane) and the
//!   spin (normal) of the contact: a torque held over the next step, from an observer of the
//!   load, static and kinetic;
//! * `tribo`: tribo_rapier with its motor joints (`RollSpin::Motors`), material μ = 0.8, c = 0.15 m, spin
//!   η_ψ = 0.125 (bound η_ψ μ N R = 0.05 N); `tribo_torques`: the same with
//!   `RollSpin::Torques` (the motor's rows as torques, see docs/rapier.md §8.1).
//!
//! Scenes: `roll` (flat, rolling at 2 m/s: stop distance, closed form v²/(2a) with
//! a = 5 c g / (7 R)), `hold10` (at rest on 10°, tan 10° < c/R: holds; drift after 5 s), `roll20`
//! (from rest on 20°, tan 20° > c/R: distance after 2 s, closed form a t²/2 with
//! a = 5/7 g (sin α − c/R cos α)), `spin` (spinning at 20 rad/s about the normal: the time it
//! stops, closed form I ω / (0.05 N)).
//!
//! `cargo run --release -p tribo_lab --example roll_mechanisms`
//! (`-- cost` also times 1000 balls rolling apart, see `pile_timing --scene=rolling`, with the
//! `torque` mechanism beside stock.)

use std::time::Instant;
use tribo::resistance::{Axes, ResistanceInput, ResistanceTorque};
use tribo::tracking::{Material, SpinModel};
use tribo_lab::rapier::scenarios::{slope_gravity, Friction, NoopHook, Sim};
use tribo_rapier::rapier3d::prelude::*;

/// Radius and rolling resistance of §8's ball.
const R: f32 = 0.5;
const C: f64 = 0.15;
/// Radius and rolling resistance (c = R/10) of the fast ball, and its speed (ω·dt = 1.5 at 1/60).
const FAST_R: f32 = 0.1;
const FAST_C: f64 = 0.01;
const FAST_V: f32 = 9.0;
const SPIN: f64 = 0.05;
const MU: f32 = 0.8;
const G: f32 = 9.81;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mech {
    Stock,
    Impulse,
    Lever,
    Torque,
    Tribo,
    TriboTorques,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Scene {
    Roll,
    Hold10,
    Roll20,
    Spin,
    Fast,
    FastUphill,
}

impl Scene {
    /// The ball's radius, rolling resistance and density.
    fn ball(self) -> (f32, f64, f32) {
        match self {
            Scene::Fast | Scene::FastUphill => (FAST_R, FAST_C, 1000.0),
            _ => (R, C, 1.0),
        }
    }
}

/// The lever hook: the solver contacts of the ball move by `d = c (ω̂_t × n)` while it rolls.
struct Lever {
    ball: RigidBodyHandle,
    c: f32,
}

impl PhysicsHooks for Lever {
    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        let (ball_second, other) = if context.rigid_body2 == Some(self.ball) {
            (true, context.rigid_body1)
        } else {
            (false, context.rigid_body2)
        };
        let n = if ball_second { *context.normal } else { -*context.normal };
        let w =
            context.bodies[self.ball].angvel() - other.map_or(Vector::ZERO, |h| context.bodies[h].angvel());
        let wt = w - n * n.dot(w);
        if wt.length() < 1e-3 {
            return;
        }
        let d = wt.normalize().cross(n) * self.c;
        for c in context.solver_contacts.iter_mut() {
            c.anchor1 += d;
            c.anchor2 += d;
        }
    }
}

/// The pair's normal impulses of the points the solver used, and their warm starts.
fn impulses(np: &NarrowPhase, a: ColliderHandle, b: ColliderHandle) -> (f64, f64) {
    np.contact_pair(a, b).map_or((0.0, 0.0), |pair| {
        let (mut sum, mut warm) = (0.0, 0.0);
        for m in pair.solver_manifolds() {
            for c in &m.data.solver_contacts {
                let id = c.contact_indices()[0] as usize;
                if let Some(p) = m.points.get(id) {
                    sum += p.data.impulse.max(0.0) as f64;
                    warm += p.data.warmstart_impulse.max(0.0) as f64;
                }
            }
        }
        (sum, warm)
    })
}

/// One step of `world` (hooked by a no-op hook) and the pair's normal force in it: rapier 0.35's
/// `ContactData::impulse` includes the warm start the step began with (docs/rapier.md,
/// `compat::IMPULSE_INCLUDES_WARMSTART`), read before the step and subtracted.
fn step_reading_n(world: &mut PhysicsWorld, pairs: &[(ColliderHandle, ColliderHandle)]) -> Vec<f64> {
    let warm: Vec<f64> = pairs.iter().map(|&(a, b)| impulses(&world.narrow_phase, a, b).1).collect();
    world.step_with_events(&NoopHook, &());
    let dt = world.integration_parameters.dt as f64;
    pairs
        .iter()
        .zip(warm)
        .map(|(&(a, b), w)| ((impulses(&world.narrow_phase, a, b).0 - w) / dt).max(0.0))
        .collect()
}

struct Ball {
    sim: Sim,
    r: f32,
    c: f64,
    ball: RigidBodyHandle,
    ball_collider: ColliderHandle,
    ground: ColliderHandle,
    roll: ResistanceTorque,
    spin: ResistanceTorque,
    /// The normal force of the last step.
    n: f64,
}

fn scene(mech: Mech, sc: Scene, dt: f32) -> Ball {
    let alpha: f32 = match sc {
        Scene::Hold10 => 10f32.to_radians(),
        Scene::Roll20 => 20f32.to_radians(),
        // Rising along +x, the way the ball rolls.
        Scene::FastUphill => -5f32.to_radians(),
        _ => 0.0,
    };
    let (r, c, density) = sc.ball();
    let tribo = matches!(mech, Mech::Tribo | Mech::TriboTorques);
    let friction = if tribo { Friction::Tribo } else { Friction::Stock };
    let mut sim = Sim::new(slope_gravity(G, alpha), dt, friction);
    if let Some(t) = sim.tribo.as_mut().filter(|_| mech == Mech::TriboTorques) {
        t.set_settings(tribo_rapier::Settings {
            roll_spin: tribo_rapier::RollSpin::Torques,
            ..*t.settings()
        });
    }
    let ground = sim.add_ground(80.0);
    sim.world.colliders[ground].set_friction(MU);
    let (v, w) = match sc {
        Scene::Roll => (Vector::new(2.0, 0.0, 0.0), Vector::new(0.0, 0.0, -2.0 / R)),
        Scene::Fast | Scene::FastUphill => {
            (Vector::new(FAST_V, 0.0, 0.0), Vector::new(0.0, 0.0, -FAST_V / r))
        }
        Scene::Spin => (Vector::ZERO, Vector::new(0.0, 20.0, 0.0)),
        _ => (Vector::ZERO, Vector::ZERO),
    };
    let material = Material::new(MU as f64, MU as f64)
        .and_then(|m| m.with_rolling_resistance(c))
        .and_then(|m| m.with_spin(SpinModel::Heuristic { eta_psi: 0.125, curvature: None }))
        .expect("valid");
    let mut collider = ColliderBuilder::ball(r).density(density);
    // The lever needs the hook; the torque reads the normal force, which only a pair rapier
    // does not recycle reports fresh (docs/rapier.md §2): a hooked pair, as under tribo.
    if matches!(mech, Mech::Lever | Mech::Torque) {
        collider = collider.active_hooks(ActiveHooks::MODIFY_SOLVER_CONTACTS);
    }
    let (ball, ball_collider) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, r, 0.0)).linvel(v).angvel(w),
        collider,
        &material,
    );
    Ball {
        sim,
        r,
        c,
        ball,
        ball_collider,
        ground,
        roll: ResistanceTorque::new(),
        spin: ResistanceTorque::new(),
        n: 0.0,
    }
}

impl Ball {
    fn step(&mut self, mech: Mech) {
        let dt = self.sim.world.integration_parameters.dt;
        let n = Vector::Y;
        match mech {
            Mech::Stock | Mech::Tribo | Mech::TriboTorques => self.sim.step(),
            Mech::Lever => {
                let hook = Lever { ball: self.ball, c: self.c as f32 };
                self.sim.world.step_with_events(&hook, &());
            }
            Mech::Impulse => {
                let nf = self.n as f32;
                let rb = &mut self.sim.world.bodies[self.ball];
                let (m, w) = (rb.mass(), rb.angvel());
                let (ic, i) = (1.4 * m * self.r * self.r, 0.4 * m * self.r * self.r);
                let (wt, wn) = (w - n * n.dot(w), n * n.dot(w));
                let mut j = Vector::ZERO;
                if wt.length() > 0.0 {
                    j -= wt.normalize() * (ic * wt.length()).min(self.c as f32 * nf * dt);
                }
                if wn.length() > 0.0 {
                    j -= wn.normalize() * (i * wn.length()).min(SPIN as f32 * nf * dt);
                }
                // A pure angular impulse turns the ball about its contact (the contact's
                // friction moves the centre with it): Δω = J / I_c.
                rb.apply_torque_impulse(j, true);
                self.n = step_reading_n(&mut self.sim.world, &[(self.ground, self.ball_collider)])[0];
            }
            Mech::Torque => {
                self.n = step_reading_n(&mut self.sim.world, &[(self.ground, self.ball_collider)])[0];
                let rb = &mut self.sim.world.bodies[self.ball];
                let r2 = (self.r * self.r) as f64;
                resist(rb, (&mut self.roll, &mut self.spin), r2, (self.c, SPIN), self.n, dt as f64);
            }
        }
    }
}

/// The `torque` mechanism on a ball (radius² `r2`) on a floor whose normal is +y, with normal
/// force `nf`: its roll (bound `c N`, inertia about the contact) and spin (bound `spin N`,
/// inertia about its centre) controllers' torque for the next step, as the ball's user torque.
fn resist(
    rb: &mut RigidBody,
    (roll, spin_ctl): (&mut ResistanceTorque, &mut ResistanceTorque),
    r2: f64,
    (c, spin): (f64, f64),
    nf: f64,
    dt: f64,
) {
    let m = rb.mass() as f64;
    let (ic, i) = (1.4 * m * r2, 0.4 * m * r2);
    let w = rb.angvel();
    let omega = glam::DVec3::new(w.x as f64, w.y as f64, w.z as f64);
    let nd = glam::DVec3::Y;
    let input = |axes, inertia, bound| ResistanceInput {
        axes,
        omega,
        inertia,
        static_bound: bound,
        kinetic_bound: bound,
        dt,
    };
    let t = roll.update(&input(Axes::Plane(nd), ic, c * nf)).expect("valid")
        + spin_ctl.update(&input(Axes::Line(nd), i, spin * nf)).expect("valid");
    rb.reset_torques(false);
    rb.add_torque(Vector::new(t.x as f32, t.y as f32, t.z as f32), false);
}

/// The scene's measured quantity and its closed form.
fn measure(mech: Mech, sc: Scene, dt: f32) -> (f64, f64) {
    let mut b = scene(mech, sc, dt);
    let steps = |s: f64| (s / dt as f64).round() as usize;
    let (g, r) = (G as f64, R as f64);
    match sc {
        Scene::Roll => {
            for _ in 0..steps(5.0) {
                b.step(mech);
            }
            let x = b.sim.body(b.ball).translation().x as f64;
            (x, 4.0 / (2.0 * 5.0 * C * g / (7.0 * r)))
        }
        Scene::Hold10 => {
            for _ in 0..steps(5.0) {
                b.step(mech);
            }
            (1e3 * b.sim.body(b.ball).translation().x as f64, 0.0)
        }
        Scene::Roll20 => {
            for _ in 0..steps(2.0) {
                b.step(mech);
            }
            let a = 20f64.to_radians();
            let acc = 5.0 / 7.0 * g * (a.sin() - C / r * a.cos());
            (b.sim.body(b.ball).translation().x as f64, 0.5 * acc * 4.0)
        }
        Scene::Fast | Scene::FastUphill => {
            // Stop time: the first step the ball's speed is below 1 mm/s.
            let (fr, fc) = (FAST_R as f64, FAST_C);
            let a = if sc == Scene::Fast {
                5.0 * fc * g / (7.0 * fr)
            } else {
                let s = 5f64.to_radians();
                5.0 / 7.0 * g * (s.sin() + fc / fr * s.cos())
            };
            let mut stop = f64::NAN;
            for k in 0..steps(16.0) {
                b.step(mech);
                if stop.is_nan() && b.sim.body(b.ball).linvel().length() < 1e-3 {
                    stop = (k + 1) as f64 * dt as f64;
                    break;
                }
            }
            (stop, FAST_V as f64 / a)
        }
        Scene::Spin => {
            let n = steps(6.0);
            let mut stop = f64::NAN;
            for k in 0..n {
                b.step(mech);
                if stop.is_nan() && b.sim.body(b.ball).angvel().y.abs() < 1e-3 {
                    stop = (k + 1) as f64 * dt as f64;
                }
            }
            (stop, 0.4 * r * r * 20.0 / (SPIN * g))
        }
    }
}

/// 1000 balls (R 0.1 m, c = 5 mm, spin η_ψ 0.05 ↔ 0.05·μ·N·R) rolling apart at 2 m/s for 5 s
/// with the `torque` mechanism; wall time and mean speed.
fn cost_torque(n: usize) -> (f64, f64) {
    use tribo_lab::rapier::scenarios::{rolling_config_scene, PileConfig};
    let (mut sim, handles) = rolling_config_scene(PileConfig::NoopHook, n);
    let ground =
        sim.world.colliders.iter().find(|(_, c)| c.parent().is_none()).map(|(h, _)| h).expect("ground");
    let colliders: Vec<ColliderHandle> =
        handles.iter().map(|&h| sim.world.bodies[h].colliders()[0]).collect();
    let mut ctl: Vec<(ResistanceTorque, ResistanceTorque)> = vec![Default::default(); n];
    let (r, c, spin) = (0.1f64, 0.005f64, 0.05 * 0.6 * 0.1);
    let dt = 1.0 / 60.0;
    let t0 = Instant::now();
    let pairs: Vec<_> = colliders.iter().map(|&c| (ground, c)).collect();
    for _ in 0..300 {
        let nfs = step_reading_n(&mut sim.world, &pairs);
        for (k, &h) in handles.iter().enumerate() {
            let (roll, spin_ctl) = &mut ctl[k];
            resist(&mut sim.world.bodies[h], (roll, spin_ctl), r * r, (c, spin), nfs[k], dt);
        }
    }
    let wall = t0.elapsed().as_secs_f64();
    let mean = handles.iter().map(|&h| sim.body(h).linvel().length() as f64).sum::<f64>() / n as f64;
    (wall, mean)
}

/// Stock rapier, or stock with the no-op hook on every collider (rapier recycles no pair), on
/// the same scene.
fn cost_stock(n: usize, hooked: bool) -> f64 {
    use tribo_lab::rapier::scenarios::{rolling_config_scene, PileConfig};
    let config = if hooked { PileConfig::NoopHook } else { PileConfig::Stock };
    let (mut sim, _) = rolling_config_scene(config, n);
    let t0 = Instant::now();
    for _ in 0..300 {
        sim.world.step_with_events(&NoopHook, &());
    }
    t0.elapsed().as_secs_f64()
}

/// A narrow wheel (solid cylinder R = 0.1 m, 3 cm wide, density 1000, axis horizontal) rolling
/// on its rim at 2 m/s against c = R/10 under tribo (`torques`: `RollSpin::Torques`) or stock:
/// the time it stops (|v| < 1 mm/s; NaN if it still rolls after 6 s) and the fraction of its
/// rolling steps (roll kinetic, before the stop) with the slide static. Closed form: I_c = 3/2
/// m R², a = c g / (1.5 R), t = 1.5 R v0 / (c g) = 3.058 s.
fn wheel(mech: Mech, dt: f32) -> (f64, f64) {
    let (r, half_width, c, v0) = (0.1f32, 0.015f32, 0.01f64, 2.0f32);
    let tribo = matches!(mech, Mech::Tribo | Mech::TriboTorques);
    let mut sim = Sim::new(slope_gravity(G, 0.0), dt, if tribo { Friction::Tribo } else { Friction::Stock });
    if let Some(t) = sim.tribo.as_mut().filter(|_| mech == Mech::TriboTorques) {
        t.set_settings(tribo_rapier::Settings {
            roll_spin: tribo_rapier::RollSpin::Torques,
            ..*t.settings()
        });
    }
    let ground = sim.add_ground(80.0);
    sim.world.colliders[ground].set_friction(MU);
    let material =
        Material::new(MU as f64, MU as f64).and_then(|m| m.with_rolling_resistance(c)).expect("valid");
    // The cylinder's axis (y) turned onto z: it rolls along x about z.
    let (b, col) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, r, 0.0))
            .rotation(Vector::new(std::f32::consts::FRAC_PI_2, 0.0, 0.0))
            .linvel(Vector::new(v0, 0.0, 0.0))
            .angvel(Vector::new(0.0, 0.0, -v0 / r)),
        ColliderBuilder::cylinder(half_width, r).density(1000.0),
        &material,
    );
    let (mut rolling, mut sticking, mut stop) = (0u32, 0u32, f64::NAN);
    for k in 1..=(6.0 / dt) as usize {
        sim.step();
        if let Some(i) = sim.tribo.as_ref().and_then(|t| t.contact(ground, col)) {
            if i.roll == tribo::tracking::Mode::Kinetic {
                rolling += 1;
                sticking += u32::from(i.slide == tribo::tracking::Mode::Static);
            }
        }
        if sim.body(b).linvel().length() < 1e-3 {
            stop = k as f64 * dt as f64;
            break;
        }
    }
    (stop, if rolling > 0 { sticking as f64 / rolling as f64 } else { f64::NAN })
}

fn main() {
    let mechs = [Mech::Stock, Mech::Impulse, Mech::Lever, Mech::Torque, Mech::Tribo, Mech::TriboTorques];
    let scenes = [
        (Scene::Roll, "flat, rolling at 2 m/s: stop distance (m)"),
        (Scene::Hold10, "at rest on 10° (holds): x after 5 s (mm)"),
        (Scene::Roll20, "from rest on 20°: x after 2 s (m)"),
        (Scene::Spin, "spinning at 20 rad/s: stop time (s)"),
        (Scene::Fast, "R 0.1, c = R/10, 9 m/s (ω·dt 1.5 at 1/60), flat: stop time (s)"),
        (Scene::FastUphill, "the same, uphill 5° (then holds): stop time (s)"),
    ];
    for dt in [1.0 / 60.0, 1.0 / 240.0] {
        println!("\ndt = 1/{:.0}", 1.0 / dt);
        println!("| scene | closed form | {} |", mechs.map(|m| format!("{m:?}")).join(" | "));
        println!("|---|---|{}", "---|".repeat(mechs.len()));
        for (sc, name) in scenes {
            let cells: Vec<(f64, f64)> = mechs.iter().map(|&m| measure(m, sc, dt)).collect();
            let closed = cells[0].1;
            let row: Vec<String> = cells.iter().map(|(v, _)| format!("{v:.4}")).collect();
            println!("| {name} | {closed:.4} | {} |", row.join(" | "));
        }
    }
    println!("\nNarrow wheel (R 0.1 m, 3 cm wide, c = R/10) rolling at 2 m/s: stop time (closed form 3.058 s), rolling steps with the slide static");
    println!("| dt | stock | tribo (motors) | tribo (torques) |");
    println!("|---|---|---|---|");
    for dt in [1.0 / 60.0f32, 1.0 / 240.0] {
        let cells: Vec<String> = [Mech::Stock, Mech::Tribo, Mech::TriboTorques]
            .iter()
            .map(|&m| {
                let (t, f) = wheel(m, dt);
                if f.is_nan() {
                    format!("{t:.4} s")
                } else {
                    format!("{t:.4} s, {:.1} %", 100.0 * f)
                }
            })
            .collect();
        println!("| 1/{:.0} | {} |", 1.0 / dt, cells.join(" | "));
    }
    if std::env::args().any(|a| a == "cost") {
        println!("\n1000 balls rolling apart, 300 steps at 1/60, medians of 3 interleaved rounds:");
        let (mut stock, mut hooked, mut torque) = (Vec::new(), Vec::new(), Vec::new());
        let mut mean = 0.0;
        for _ in 0..3 {
            stock.push(cost_stock(1000, false));
            hooked.push(cost_stock(1000, true));
            let (w, m) = cost_torque(1000);
            torque.push(w);
            mean = m;
        }
        let med = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[1]
        };
        let (s, h, t) = (med(stock), med(hooked), med(torque));
        println!(
            "stock {s:.3} s; no-op hook {h:.3} s ({:.2} ×); torque (no-op hook, a contact-pair lookup per ball \
             and the controller) {t:.3} s ({:.2} ×); torque's mean speed after 5 s {mean:.4} m/s (closed \
             form {:.4})",
            h / s,
            t / s,
            tribo_lab::rapier::scenarios::rolling_closed_form_speed(5.0)
        );
    }
}

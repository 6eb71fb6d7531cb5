//! A measured floor for tribo's per-contact cost: the least a slide stick/slip update can cost
//! on rapier's API, done entirely inside the contact-modification hook, on the 1000-sphere pile
//! of the `pile_timing` benchmark (300 steps at 1/60).
//!
//! Per manifold with solver contacts the hook finds its state through the manifold's user data
//! (no lookup), takes the normal force from the last solve's impulses that rapier keeps on the
//! manifold's points, the slip from both bodies' velocities at the mean contact point, advances
//! the deflection or switches the mode (static: deflection past μs N times a compliance;
//! kinetic: slip below the slip-detection speed), and sets the coefficient and the anchor
//! pull-back in the same call. There is no `before_step` and no `after_step`.
//!
//! It is not a friction model to use: it leaves out everything the hook cannot see or do and
//! all the bookkeeping tribo's store does (see `docs/rapier.md` §10, "A slide update inside the
//! hook"), and it is serial only (its state is written from `&self`).
//!
//! `cargo build --release -p tribo_lab --example hook_floor`, then
//! `valgrind --tool=callgrind target/release/examples/hook_floor` and read the inclusive cost of
//! `<hook_floor::Floor as PhysicsHooks>::modify_solver_contacts` against the printed visits.

use std::cell::{Cell, UnsafeCell};
use tribo_lab::rapier::scenarios::*;
use tribo_rapier::rapier3d::prelude::*;

#[derive(Default, Clone, Copy)]
struct S {
    defl: Vector,
    kinetic: bool,
    seen: u32,
}

struct Floor {
    states: UnsafeCell<Vec<S>>,
    step: Cell<u32>,
    dt: f32,
    /// The pile's slide coefficients ([`pile_material`]).
    mu: [f32; 2],
}
// SAFETY: the lab builds rapier without its `parallel` feature, so the narrow phase calls the
// hook from one thread, one manifold at a time.
unsafe impl Sync for Floor {}

impl PhysicsHooks for Floor {
    #[inline(never)]
    fn modify_solver_contacts(&self, ctx: &mut ContactModificationContext) {
        if ctx.solver_contacts.is_empty() {
            return;
        }
        // SAFETY: one call at a time (see the `Sync` impl), and no other reference is alive.
        let states = unsafe { &mut *self.states.get() };
        let slot = if *ctx.user_data == 0 {
            states.push(S::default());
            *ctx.user_data = states.len() as u32;
            states.len() - 1
        } else {
            (*ctx.user_data - 1) as usize
        };
        let dt = self.dt;
        let imp: f32 = ctx.manifold.points.iter().map(|p| p.data.impulse.max(0.0)).sum();
        let n_force = imp / dt;
        let mut p = Vector::ZERO;
        for c in ctx.solver_contacts.iter() {
            p += (c.anchor1 + c.anchor2) * 0.5;
        }
        p /= ctx.solver_contacts.len() as f32;
        let v = |b: Option<RigidBodyHandle>| {
            b.and_then(|h| ctx.bodies.get(h)).map_or(Vector::ZERO, |rb| rb.velocity_at_point(p))
        };
        let dv = v(ctx.rigid_body2) - v(ctx.rigid_body1);
        let nrm = *ctx.normal;
        let slip = dv - nrm * dv.dot(nrm);
        let s = &mut states[slot];
        s.seen = self.step.get();
        let ([mu_s, mu_k], per_newton, eps) = (self.mu, 1e-5f32, 1e-3f32);
        if s.kinetic {
            if slip.length_squared() < eps * eps {
                s.kinetic = false;
                s.defl = Vector::ZERO;
            }
        } else {
            let d = s.defl + slip * dt;
            let d = d - nrm * d.dot(nrm);
            if d.length_squared() > (mu_s * n_force * per_newton).powi(2) && n_force > 0.0 {
                s.kinetic = true;
                s.defl = Vector::ZERO;
            } else {
                s.defl = d;
            }
        }
        *ctx.friction = if s.kinetic { mu_k } else { mu_s };
        if !s.kinetic {
            let tv = (-s.defl * (0.5 / dt)).clamp_length_max(eps);
            for c in ctx.solver_contacts.iter_mut() {
                c.tangent_velocity += tv;
            }
        }
    }
}

fn main() {
    let (mut sim, _) = pile_config_scene(PileConfig::NoopHook);
    let dt = sim.world.integration_parameters.dt;
    let m = pile_material();
    let mu = [m.mu_s() as f32, m.mu_k() as f32];
    let floor = Floor { states: UnsafeCell::new(Vec::new()), step: Cell::new(0), dt, mu };
    let mut asleep = None;
    let mut contact_steps = 0u64;
    for step in 0..300 {
        floor.step.set(step + 1);
        sim.world.step_with_events(&floor, &());
        // SAFETY: between steps no hook call is running.
        let states = unsafe { &*floor.states.get() };
        contact_steps += states.iter().filter(|s| s.seen == step + 1).count() as u64;
        if asleep.is_none() && sim.all_asleep() {
            asleep = Some(step + 1);
        }
    }
    let asleep = asleep.map_or("never".to_string(), |s| s.to_string());
    println!("hook_floor: asleep at step {asleep}; {contact_steps} contact visits (manifolds with solver contacts)");
}

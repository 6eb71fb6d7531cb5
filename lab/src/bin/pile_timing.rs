//! Times the 1000-sphere pile (300 steps at 1/60), stock vs tribo, and splits tribo's time into
//! before_step / rapier step / after_step. `cargo run --release -p tribo_lab --bin pile_timing`

use std::time::{Duration, Instant};
use tribo_lab::rapier::scenarios::*;

fn main() {
    let only = std::env::args().nth(1);
    for fr in [Friction::Stock, Friction::Tribo] {
        if only.as_deref().is_some_and(|o| o != format!("{fr:?}").to_lowercase()) {
            continue;
        }
        let (mut sim, handles) = pile_scene(1000, 1.2, 1.0 / 60.0, fr);
        let (mut tb, mut ts, mut ta) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
        let t0 = Instant::now();
        let mut awake_steps = 0;
        for _ in 0..300 {
            awake_steps += sim.world.bodies.iter().any(|(_, b)| b.is_dynamic() && !b.is_sleeping()) as usize;
            match &mut sim.tribo {
                Some(t) => {
                    let w = &mut sim.world;
                    let a = Instant::now();
                    t.before_step(
                        &w.integration_parameters,
                        &mut w.bodies,
                        &mut w.colliders,
                        &mut w.impulse_joints,
                    );
                    let b = Instant::now();
                    w.step_with_events(&t.hooks(&()), &());
                    let c = Instant::now();
                    t.after_step(
                        &w.integration_parameters,
                        &w.bodies,
                        &w.colliders,
                        &w.narrow_phase,
                        &mut w.impulse_joints,
                    );
                    tb += b - a;
                    ts += c - b;
                    ta += c.elapsed();
                }
                None => {
                    let a = Instant::now();
                    sim.world.step();
                    ts += a.elapsed();
                }
            }
        }
        let s = pile_summary(&sim, &handles, 1.2);
        println!(
            "{fr:?}: total {:.3} s (before_step {:.3}, rapier step {:.3}, after_step {:.3}); {awake_steps} steps with awake bodies, {:.2} ms per such step; KE {:.3e} J, escaped {}, tribo contacts {}, joints {} ({} without motor rows)",
            t0.elapsed().as_secs_f64(),
            tb.as_secs_f64(),
            ts.as_secs_f64(),
            ta.as_secs_f64(),
            t0.elapsed().as_secs_f64() * 1e3 / awake_steps.max(1) as f64,
            s.kinetic_energy,
            s.escaped,
            s.contacts,
            sim.world.impulse_joints.len(),
            sim.world.impulse_joints.iter().filter(|(_, j)| j.data.motor_axes.is_empty()).count(),
        );
    }
}

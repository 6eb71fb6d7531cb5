//! Times the 1000-sphere pile (300 steps at 1/60) in the four configurations of
//! [`PileConfig`] — stock rapier, stock with a no-op contact-modification hook on every
//! collider, tribo slide-only, tribo full — in interleaved rounds (A B C D A B C D …), and
//! prints per configuration the median total time, the step at which the pile falls asleep,
//! tribo's own before_step/after_step time, and the ratios that matter (slide-only ÷ no-op
//! hook, full ÷ stock): the ratio of the medians, and the median and range of the ratios of
//! the runs within each round (run seconds apart, they share the machine's speed of the
//! moment: on a shared machine that drifts, these are the steadier figure). It also prints the
//! full pile's time less tribo's before_step/after_step against stock: rapier's part of the full
//! model (mostly its motor joints), below which the full ratio cannot go.
//!
//! The two tribo configurations also run with `Settings::unhook_settled` off (`slide_only_hooked`,
//! `full_hooked`: every material collider on the hook, so rapier recycles none of their pairs).
//!
//! `cargo run --release -p tribo_lab --bin pile_timing [ROUNDS] [CONFIG]` — ROUNDS defaults to
//! 3; CONFIG (`stock`, `noop_hook`, `slide_only`, `full`, `slide_only_hooked`, `full_hooked`)
//! runs one configuration only (for callgrind:
//! `valgrind --tool=callgrind target/release/pile_timing 1 full`).
//!
//! `--checksum` (e.g. `pile_timing 1 --checksum`: all six configurations once, or
//! `pile_timing 1 full --checksum`) also prints, per run, a checksum of the final world: an
//! FNV-1a hash of the f32 bits of every body's position, rotation, linear and angular velocity
//! after the 300 steps (bodies in handle order), and of the step at which the pile fell asleep.
//! Equal checksums before and after a refactor that should not change the simulation show that
//! it changed no result by a single bit.
//!
//! `--seeds=K` builds each configuration's pile from K jitter seeds (`PILE_SEED` and the K − 1
//! after it) in every round, and prints the steps at which they fell asleep. When a pile falls
//! asleep is chaotic: a change in the last bits of the contacts' arithmetic moves it by tens
//! of steps, and with it the run's length of awake stepping, so comparisons that do not keep
//! every bit need several seeds. `--steps=N` runs N steps instead of 300 (when the piles fall
//! asleep, with runs long enough for all of them to).

use std::time::{Duration, Instant};
use tribo_lab::rapier::scenarios::*;

struct Run {
    total: Duration,
    before: Duration,
    after: Duration,
    /// First step after which no dynamic body is awake.
    asleep_at: Option<usize>,
    contact_steps: u64,
    /// FNV-1a hash of the final world (see the module's doc comment).
    checksum: u64,
}

/// FNV-1a hash of every body's pose and velocities (f32 bits, bodies in handle order) and of
/// the step the pile fell asleep at.
fn world_checksum(bodies: &tribo_rapier::rapier3d::dynamics::RigidBodySet, asleep_at: Option<usize>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u32| {
        for b in x.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut handles: Vec<_> = bodies.iter().map(|(h, _)| h).collect();
    handles.sort_by_key(|h| h.into_raw_parts());
    for handle in handles {
        let b = &bodies[handle];
        let r = b.rotation();
        let p = b.translation();
        for v in [p.x, p.y, p.z, r.x, r.y, r.z, r.w] {
            eat(v.to_bits());
        }
        for v in [b.linvel(), b.angvel()] {
            for x in [v.x, v.y, v.z] {
                eat(x.to_bits());
            }
        }
    }
    eat(asleep_at.map_or(u32::MAX, |s| s as u32));
    h
}

/// A configuration of the pile and whether its tribo store keeps every collider hooked.
#[derive(Clone, Copy, PartialEq)]
struct Cfg(PileConfig, bool);

impl Cfg {
    const ALL: [Cfg; 6] = [
        Cfg(PileConfig::Stock, false),
        Cfg(PileConfig::NoopHook, false),
        Cfg(PileConfig::SlideOnly, false),
        Cfg(PileConfig::Full, false),
        Cfg(PileConfig::SlideOnly, true),
        Cfg(PileConfig::Full, true),
    ];

    fn name(self) -> String {
        if self.1 {
            format!("{}_hooked", self.0.name())
        } else {
            self.0.name().to_string()
        }
    }
}

fn run(cfg: Cfg, seed: u32, steps: usize) -> Run {
    let Cfg(config, hooked) = cfg;
    let (mut sim, _handles) = pile_config_scene_seeded(config, seed);
    if let Some(t) = sim.tribo.as_mut().filter(|_| hooked) {
        t.set_settings(tribo_rapier::Settings { unhook_settled: false, ..*t.settings() });
    }
    let (mut before, mut after) = (Duration::ZERO, Duration::ZERO);
    let mut asleep_at = None;
    let mut contact_steps = 0u64;
    let t0 = Instant::now();
    for step in 0..steps {
        match (&mut sim.tribo, config) {
            (Some(t), PileConfig::SlideOnly | PileConfig::Full) => {
                let w = &mut sim.world;
                let a = Instant::now();
                t.before_step(
                    &w.integration_parameters,
                    &mut w.bodies,
                    &mut w.colliders,
                    &mut w.impulse_joints,
                );
                before += a.elapsed();
                w.step_with_events(&t.hooks(&()), &());
                let c = Instant::now();
                t.after_step(
                    &w.integration_parameters,
                    &w.bodies,
                    &w.colliders,
                    &w.narrow_phase,
                    &mut w.impulse_joints,
                );
                after += c.elapsed();
                contact_steps += t.len() as u64;
            }
            _ => pile_config_step(&mut sim, config),
        }
        if asleep_at.is_none() && sim.all_asleep() {
            asleep_at = Some(step + 1);
        }
    }
    let total = t0.elapsed();
    let checksum = world_checksum(&sim.world.bodies, asleep_at);
    Run { total, before, after, asleep_at, contact_steps, checksum }
}

/// The median and range of the ratios `a[k] / b[k]` of the rounds (`b[k]` > 0), as printed
/// after a ratio of medians.
fn within_rounds(a: &[f64], b: &[f64]) -> String {
    let r: Vec<f64> = a.iter().zip(b).filter(|(_, y)| **y > 0.0).map(|(x, y)| x / y).collect();
    let (lo, hi) = r.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    format!("; within rounds: median {:.2} ×, {lo:.2}–{hi:.2} ×", median(r))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

fn main() {
    let (flags, mut args): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let checksum = flags.iter().any(|a| a == "--checksum");
    let seeds: u32 = flags
        .iter()
        .find_map(|a| a.strip_prefix("--seeds="))
        .and_then(|k| k.parse().ok())
        .unwrap_or(1)
        .max(1);
    let steps: usize =
        flags.iter().find_map(|a| a.strip_prefix("--steps=")).and_then(|k| k.parse().ok()).unwrap_or(300);
    let mut args = args.drain(..);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3).max(1);
    let only = args.next();
    let configs: Vec<Cfg> =
        Cfg::ALL.into_iter().filter(|c| only.as_deref().is_none_or(|o| o == c.name())).collect();
    let mut runs: Vec<Vec<Run>> = configs.iter().map(|_| Vec::new()).collect();
    for round in 0..rounds {
        for (k, &c) in configs.iter().enumerate() {
            for seed in (0..seeds).map(|i| PILE_SEED + i) {
                let r = run(c, seed, steps);
                println!(
                    "round {round} {:>10}: {:.3} s (tribo before_step {:.3}, after_step {:.3}), asleep at step {}{}",
                    c.name(),
                    r.total.as_secs_f64(),
                    r.before.as_secs_f64(),
                    r.after.as_secs_f64(),
                    r.asleep_at.map_or("never".to_string(), |s| s.to_string()),
                    if seeds > 1 { format!(" (seed {seed})") } else { String::new() },
                );
                if checksum {
                    println!("checksum {:>10}: {:016x}", c.name(), r.checksum);
                }
                runs[k].push(r);
            }
        }
    }
    println!("\n1000-sphere pile, {steps} steps at 1/60, medians of {rounds} interleaved rounds:");
    let mut med = Vec::new();
    for (k, &c) in configs.iter().enumerate() {
        let m = median(runs[k].iter().map(|r| r.total.as_secs_f64()).collect());
        let tribo = median(runs[k].iter().map(|r| (r.before + r.after).as_secs_f64()).collect());
        // One round's piles (every seed once): their contact-steps and sleep steps.
        let last = &runs[k][runs[k].len() - seeds as usize..];
        let cs: u64 = last.iter().map(|r| r.contact_steps).sum();
        let asleep: Vec<String> =
            last.iter().map(|r| r.asleep_at.map_or("never".to_string(), |s| s.to_string())).collect();
        println!(
            "{:>10}: {m:.3} s; tribo before+after_step {tribo:.3} s ({} contact-steps); asleep at step {}",
            c.name(),
            cs,
            asleep.join(", "),
        );
        med.push((c, m));
    }
    let get = |c: PileConfig| med.iter().find(|(x, _)| *x == Cfg(c, false)).map(|(_, m)| *m);
    // Each round's sum of `f` over a configuration's runs (its seeds').
    let round_sums = |c: Cfg, f: fn(&Run) -> f64| -> Option<Vec<f64>> {
        let k = configs.iter().position(|x| *x == c)?;
        Some(runs[k].chunks(seeds as usize).map(|round| round.iter().map(f).sum()).collect())
    };
    let total = |r: &Run| r.total.as_secs_f64();
    // The ratio of medians, and the median and range of the ratios within each round: two runs
    // of one round are seconds apart, so a slow drift of the shared machine's speed cancels in
    // them.
    let ratio = |a: PileConfig, b: PileConfig| match (get(a), get(b)) {
        (Some(x), Some(y)) if y > 0.0 => {
            let per_round = match (round_sums(Cfg(a, false), total), round_sums(Cfg(b, false), total)) {
                (Some(ta), Some(tb)) if rounds > 1 => within_rounds(&ta, &tb),
                _ => String::new(),
            };
            format!("{:.2} ×{per_round}", x / y)
        }
        _ => "-".to_string(),
    };
    println!("no-op hook ÷ stock:      {}", ratio(PileConfig::NoopHook, PileConfig::Stock));
    println!(
        "slide-only ÷ no-op hook: {} (target ≤ 1.15 ×)",
        ratio(PileConfig::SlideOnly, PileConfig::NoopHook)
    );
    println!("slide-only ÷ stock:      {}", ratio(PileConfig::SlideOnly, PileConfig::Stock));
    println!("full ÷ stock:            {} (target ≤ 2.0 ×)", ratio(PileConfig::Full, PileConfig::Stock));
    // The full pile's time less tribo's `before_step` and `after_step` (its hook runs inside
    // rapier's step and stays in): rapier's part of the full model, mostly the motor joints it
    // builds and solves in every substep, against stock; the full ratio cannot go below it.
    let rapier_part = |r: &Run| (r.total - r.before - r.after).as_secs_f64();
    let without_tribo = match (
        round_sums(Cfg(PileConfig::Full, false), rapier_part),
        round_sums(Cfg(PileConfig::Stock, false), total),
    ) {
        (Some(full), Some(stock)) => {
            let of_medians = median(full.clone()) / median(stock.clone());
            let per_round = if rounds > 1 { within_rounds(&full, &stock) } else { String::new() };
            format!("{of_medians:.2} ×{per_round}")
        }
        _ => "-".to_string(),
    };
    println!("full less tribo's before/after_step ÷ stock: {without_tribo}");
    let hooked = |c: PileConfig| {
        let on = med.iter().find(|(x, _)| *x == Cfg(c, true)).map(|(_, m)| *m);
        match (get(c), on) {
            (Some(x), Some(y)) if y > 0.0 => format!("{:.2} ×", x / y),
            _ => "-".to_string(),
        }
    };
    println!("slide-only ÷ slide-only hooked: {}", hooked(PileConfig::SlideOnly));
    println!("full ÷ full hooked:             {}", hooked(PileConfig::Full));
}

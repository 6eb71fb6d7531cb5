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
//! `--scene=rolling` times the same configurations on 1000 of the pile's spheres rolling apart
//! on a plane ([`rolling_config_scene`]: every contact rolling, c = 5 mm) instead of the pile,
//! and prints their mean speed after the run beside the closed form. Every run also prints
//! tribo's motor joints per step (those in the joint set after each step, marked with
//! `TRIBO_JOINT_USER_DATA`; the count is not timed).
//!
//! `full_torques` is the full model with `Settings::roll_spin = RollSpin::Torques` (roll and
//! spin carried by torques, no motor joints; docs/rapier.md §8.1).
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
//!
//! `--threads=1,2,…` (built with `--features parallel`: rapier's parallel pipeline and tribo's
//! parallel contact pass) runs stock, the no-op hook, slide-only and full in rayon pools of
//! each size, interleaved (round by round, pool size by pool size), and prints per pool size the
//! median times, the ratios to stock and tribo's before_step / rapier step / after_step split;
//! then, from the 1- and 2-thread medians, each part's parallel fraction (Amdahl: `T(n) =
//! T(1) (1 − p + p/n)`, so `p = 2 (1 − T(2)/T(1))`) and the ratios to stock this projects to
//! at 4, 8 and 16 threads. Checksums (`--checksum`) are equal at every pool size.
//! `cargo run --release -p tribo_lab --features parallel --bin pile_timing -- 5 --threads=1,2`.

use std::time::{Duration, Instant};
use tribo_lab::rapier::scenarios::*;

struct Run {
    total: Duration,
    before: Duration,
    after: Duration,
    /// First step after which no dynamic body is awake.
    asleep_at: Option<usize>,
    contact_steps: u64,
    /// tribo's motor joints summed over the steps (counted after each step).
    joint_steps: u64,
    /// Mean speed of the dynamic bodies after the run (m/s).
    mean_speed: f64,
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

/// A configuration of the pile, whether its tribo store keeps every collider hooked, and
/// whether it carries roll and spin by torques (`RollSpin::Torques`) instead of motors.
#[derive(Clone, Copy, PartialEq)]
struct Cfg(PileConfig, bool, bool);

impl Cfg {
    const ALL: [Cfg; 7] = [
        Cfg(PileConfig::Stock, false, false),
        Cfg(PileConfig::NoopHook, false, false),
        Cfg(PileConfig::SlideOnly, false, false),
        Cfg(PileConfig::Full, false, false),
        Cfg(PileConfig::SlideOnly, true, false),
        Cfg(PileConfig::Full, true, false),
        Cfg(PileConfig::Full, false, true),
    ];

    fn name(self) -> String {
        match self {
            Cfg(c, true, _) => format!("{}_hooked", c.name()),
            Cfg(c, false, true) => format!("{}_torques", c.name()),
            Cfg(c, false, false) => c.name().to_string(),
        }
    }
}

/// The scene timed: the pile dropped in a box, or the balls rolling apart on a plane.
#[derive(Clone, Copy, PartialEq)]
enum Scene {
    Pile,
    Rolling,
}

impl Scene {
    fn title(self) -> &'static str {
        match self {
            Scene::Pile => "1000-sphere pile",
            Scene::Rolling => "1000 spheres rolling apart on a plane",
        }
    }
}

/// A run's tribo motor joints per step and, on the rolling scene, the spheres' mean speed
/// beside the closed form.
fn per_run(r: &Run, steps: usize, scene: Scene) -> String {
    let joints =
        format!("    tribo motor joints per step: {:.1}", r.joint_steps as f64 / steps.max(1) as f64);
    match scene {
        Scene::Pile => joints,
        Scene::Rolling => format!(
            "{joints}; mean speed after {:.2} s: {:.4} m/s (closed form with c = 5 mm: {:.4})",
            steps as f64 / 60.0,
            r.mean_speed,
            rolling_closed_form_speed(steps as f64 / 60.0)
        ),
    }
}

fn run(cfg: Cfg, seed: u32, steps: usize, scene: Scene) -> Run {
    let Cfg(config, hooked, torques) = cfg;
    let (mut sim, handles) = match scene {
        Scene::Pile => pile_config_scene_seeded(config, seed),
        Scene::Rolling => rolling_config_scene(config, 1000),
    };
    if let Some(t) = sim.tribo.as_mut().filter(|_| hooked) {
        t.set_settings(tribo_rapier::Settings { unhook_settled: false, ..*t.settings() });
    }
    if let Some(t) = sim.tribo.as_mut().filter(|_| torques) {
        t.set_settings(tribo_rapier::Settings {
            roll_spin: tribo_rapier::RollSpin::Torques,
            ..*t.settings()
        });
    }
    let (mut before, mut after) = (Duration::ZERO, Duration::ZERO);
    let mut asleep_at = None;
    let mut contact_steps = 0u64;
    let (mut joint_steps, mut counting) = (0u64, Duration::ZERO);
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
        let k = Instant::now();
        joint_steps += tribo_joints(&sim.world.impulse_joints);
        counting += k.elapsed();
        if asleep_at.is_none() && sim.all_asleep() {
            asleep_at = Some(step + 1);
        }
    }
    let total = t0.elapsed() - counting;
    let checksum = world_checksum(&sim.world.bodies, asleep_at);
    let mean_speed = handles.iter().map(|&h| sim.body(h).linvel().length() as f64).sum::<f64>()
        / handles.len().max(1) as f64;
    Run { total, before, after, asleep_at, contact_steps, joint_steps, mean_speed, checksum }
}

/// tribo's motor joints in `joints` (those marked with [`tribo_rapier::TRIBO_JOINT_USER_DATA`]).
fn tribo_joints(joints: &tribo_rapier::rapier3d::dynamics::ImpulseJointSet) -> u64 {
    joints.iter().filter(|(_, j)| j.data.user_data == tribo_rapier::TRIBO_JOINT_USER_DATA).count() as u64
}

/// The median and range of the ratios `a[k] / b[k]` of the rounds (`b[k]` > 0), as printed
/// after a ratio of medians.
fn within_rounds(a: &[f64], b: &[f64]) -> String {
    let r: Vec<f64> = a.iter().zip(b).filter(|(_, y)| **y > 0.0).map(|(x, y)| x / y).collect();
    let (lo, hi) = r.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
    format!("; within rounds: median {:.2} ×, {lo:.2}–{hi:.2} ×", median(r))
}

/// The median of `v` (0 for none).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// The configurations of the thread table.
#[cfg(feature = "parallel")]
const THREAD_CONFIGS: [PileConfig; 4] =
    [PileConfig::Stock, PileConfig::NoopHook, PileConfig::SlideOnly, PileConfig::Full];

/// `--threads=…`: the runs of [`THREAD_CONFIGS`] in rayon pools of `threads` threads, interleaved
/// over `rounds` rounds, and the table of their medians (see the module docs).
#[cfg(feature = "parallel")]
fn thread_table(threads: &[usize], rounds: usize, steps: usize, checksum: bool, scene: Scene) {
    let pools: Vec<rayon::ThreadPool> = threads
        .iter()
        .map(|&n| rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("a rayon pool"))
        .collect();
    // runs[t][c]: the runs at pool size t of configuration c.
    let mut runs: Vec<Vec<Vec<Run>>> =
        threads.iter().map(|_| THREAD_CONFIGS.iter().map(|_| Vec::new()).collect()).collect();
    for round in 0..rounds {
        for (t, pool) in pools.iter().enumerate() {
            for (c, &config) in THREAD_CONFIGS.iter().enumerate() {
                let r = pool.install(|| run(Cfg(config, false, false), PILE_SEED, steps, scene));
                println!(
                    "round {round} threads {:>2} {:>10}: {:.3} s (tribo before_step {:.3}, after_step {:.3}), asleep at step {}",
                    threads[t],
                    config.name(),
                    r.total.as_secs_f64(),
                    r.before.as_secs_f64(),
                    r.after.as_secs_f64(),
                    r.asleep_at.map_or("never".to_string(), |s| s.to_string()),
                );
                println!("{}", per_run(&r, steps, scene));
                if checksum {
                    println!("checksum threads {:>2} {:>10}: {:016x}", threads[t], config.name(), r.checksum);
                }
                runs[t][c].push(r);
            }
        }
    }
    let med = |v: &[Run], f: &dyn Fn(&Run) -> f64| median(v.iter().map(f).collect());
    let total = |r: &Run| r.total.as_secs_f64();
    let before = |r: &Run| r.before.as_secs_f64();
    let after = |r: &Run| r.after.as_secs_f64();
    let step = |r: &Run| (r.total - r.before - r.after).as_secs_f64();
    println!("\n{}, {steps} steps at 1/60, medians of {rounds} interleaved rounds (s):", scene.title());
    println!("| threads | stock | no-op hook | tribo slide-only | tribo full | slide-only: before / rapier step / after | full: before / rapier step / after |");
    println!("|---|---|---|---|---|---|---|");
    for (t, n) in threads.iter().enumerate() {
        let r = &runs[t];
        let stock = med(&r[0], &total);
        let cell = |c: usize| format!("{:.3} ({:.2} ×)", med(&r[c], &total), med(&r[c], &total) / stock);
        let split = |c: usize| {
            format!("{:.3} / {:.3} / {:.3}", med(&r[c], &before), med(&r[c], &step), med(&r[c], &after))
        };
        println!(
            "| {n} | {stock:.3} | {} | {} | {} | {} | {} |",
            cell(1),
            cell(2),
            cell(3),
            split(2),
            split(3)
        );
    }
    // Each part's parallel fraction from the 1- and 2-thread runs of each round (seconds apart:
    // the shared machine's speed of the moment cancels in their ratio), and the projection.
    let (Some(t1), Some(t2)) = (threads.iter().position(|&n| n == 1), threads.iter().position(|&n| n == 2))
    else {
        return;
    };
    let ratios = |c: usize, f: &dyn Fn(&Run) -> f64| -> Vec<f64> {
        runs[t1][c].iter().zip(&runs[t2][c]).filter(|(a, _)| f(a) > 0.0).map(|(a, b)| f(b) / f(a)).collect()
    };
    let range =
        |v: &[f64]| v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
    let tribo = |r: &Run| (r.before + r.after).as_secs_f64();
    println!("\ntribo's own passes (before_step + after_step), 2 threads ÷ 1 thread, within rounds (target ≤ 1/1.6 = 0.625):");
    for (c, name) in [(2, "slide-only"), (3, "full")] {
        let r = ratios(c, &tribo);
        let (lo, hi) = range(&r);
        println!("  {name}: median {:.3} (1/{:.2}), {lo:.3}–{hi:.3}", median(r.clone()), 1.0 / median(r));
    }
    // p = 2 (1 − T2/T1), the median over the rounds, within [0, 1].
    let fraction = |c: usize, f: &dyn Fn(&Run) -> f64| (2.0 * (1.0 - median(ratios(c, f)))).clamp(0.0, 1.0);
    let parts: [&dyn Fn(&Run) -> f64; 3] = [&step, &before, &after];
    println!("\nparallel fractions (p = 2 (1 − T2/T1), median over the rounds, within [0, 1]):");
    let names = ["stock", "no-op hook", "slide-only", "full"];
    let p: Vec<[f64; 3]> = (0..4).map(|c| parts.map(|f| fraction(c, f))).collect();
    for (c, name) in names.iter().enumerate() {
        if c >= 2 {
            println!(
                "  {name}: rapier step {:.2}, tribo before_step {:.2}, after_step {:.2}",
                p[c][0], p[c][1], p[c][2]
            );
        } else {
            println!("  {name}: rapier step {:.2}", p[c][0]);
        }
    }
    // T(n) = T(1) (1 − p + p/n), part by part, from the 1-thread medians.
    let at = |c: usize, n: f64| -> f64 {
        (0..3).map(|k| med(&runs[t1][c], parts[k]) * (1.0 - p[c][k] + p[c][k] / n)).sum()
    };
    println!("projected ratios to stock (T(n) = T(1) (1 − p + p/n) per part):");
    for n in [2.0, 4.0, 8.0, 16.0] {
        let stock = at(0, n);
        println!(
            "  {n:>2} threads: no-op hook {:.2} ×, slide-only {:.2} ×, full {:.2} ×",
            at(1, n) / stock,
            at(2, n) / stock,
            at(3, n) / stock
        );
    }
}

/// The scene of `--scene=pile` (the default) or `--scene=rolling`; exits on another.
fn scene_flag(flags: &[String]) -> Scene {
    match flags.iter().find_map(|a| a.strip_prefix("--scene=")) {
        None | Some("pile") => Scene::Pile,
        Some("rolling") => Scene::Rolling,
        Some(other) => {
            eprintln!("unknown scene {other:?}: --scene=pile (the default) or --scene=rolling");
            std::process::exit(2);
        }
    }
}

fn main() {
    let (flags, mut args): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let scene = scene_flag(&flags);
    if let Some(list) = flags.iter().find_map(|a| a.strip_prefix("--threads=")) {
        let threads: Vec<usize> =
            list.split(',').filter_map(|n| n.trim().parse().ok()).filter(|&n| n > 0).collect();
        let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(3).max(1);
        let steps: usize =
            flags.iter().find_map(|a| a.strip_prefix("--steps=")).and_then(|k| k.parse().ok()).unwrap_or(300);
        let checksum = flags.iter().any(|a| a == "--checksum");
        #[cfg(feature = "parallel")]
        {
            thread_table(&threads, rounds, steps, checksum, scene);
            return;
        }
        #[cfg(not(feature = "parallel"))]
        {
            let _ = (threads, rounds, steps, checksum, scene);
            eprintln!("--threads needs the parallel build: cargo run --release -p tribo_lab --features parallel --bin pile_timing -- --threads=1,2");
            std::process::exit(2);
        }
    }
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
                let r = run(c, seed, steps, scene);
                println!(
                    "round {round} {:>10}: {:.3} s (tribo before_step {:.3}, after_step {:.3}), asleep at step {}{}",
                    c.name(),
                    r.total.as_secs_f64(),
                    r.before.as_secs_f64(),
                    r.after.as_secs_f64(),
                    r.asleep_at.map_or("never".to_string(), |s| s.to_string()),
                    if seeds > 1 { format!(" (seed {seed})") } else { String::new() },
                );
                println!("{}", per_run(&r, steps, scene));
                if checksum {
                    println!("checksum {:>10}: {:016x}", c.name(), r.checksum);
                }
                runs[k].push(r);
            }
        }
    }
    println!("\n{}, {steps} steps at 1/60, medians of {rounds} interleaved rounds:", scene.title());
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
    let get = |c: PileConfig| med.iter().find(|(x, _)| *x == Cfg(c, false, false)).map(|(_, m)| *m);
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
            let per_round =
                match (round_sums(Cfg(a, false, false), total), round_sums(Cfg(b, false, false), total)) {
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
        round_sums(Cfg(PileConfig::Full, false, false), rapier_part),
        round_sums(Cfg(PileConfig::Stock, false, false), total),
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
        let on = med.iter().find(|(x, _)| *x == Cfg(c, true, false)).map(|(_, m)| *m);
        match (get(c), on) {
            (Some(x), Some(y)) if y > 0.0 => format!("{:.2} ×", x / y),
            _ => "-".to_string(),
        }
    };
    println!("slide-only ÷ slide-only hooked: {}", hooked(PileConfig::SlideOnly));
    println!("full ÷ full hooked:             {}", hooked(PileConfig::Full));
    // Roll and spin by torques instead of motors.
    let torques = med.iter().find(|(x, _)| *x == Cfg(PileConfig::Full, false, true)).map(|(_, m)| *m);
    let stock = get(PileConfig::Stock);
    if let (Some(t), Some(s)) = (torques, stock.filter(|s| *s > 0.0)) {
        let per_round = match (
            round_sums(Cfg(PileConfig::Full, false, true), total),
            round_sums(Cfg(PileConfig::Stock, false, false), total),
        ) {
            (Some(ta), Some(tb)) if rounds > 1 => within_rounds(&ta, &tb),
            _ => String::new(),
        };
        println!("full (torques) ÷ stock:  {:.2} ×{per_round}", t / s);
    }
}

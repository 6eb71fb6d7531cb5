//! The two-contact monitor and tribo's slide modes at the onset of slip (docs/realizability.md
//! §9): the ball in the tilted trough ([`TiltedScene`], axis tilted by [`TILT_DEG`]) with a
//! friction coefficient below the `μ* = √2 j tan θ/(1 + 2j) = 0.0554` two-point rolling needs
//! ([`tilted_roll_mu`](crate::rapier::trough::tilted_roll_mu)), from the first step or from a later one, and raised above it again.
//!
//! Each step records the monitor's verdict of the ball (tribo: the store's per-step monitor;
//! stock: [`body_realizability`] on demand after the step, with the same rapier data), the
//! slide modes of the two wall contacts (tribo) and the slip of the ball's surface at both
//! contacts along the trough axis, `v_z + (ω × (−r n±))_z`. (The axial component is the one the
//! slip of this symmetric trough has; the component across the axis would carry the velocity
//! rapier's solver leaves pressing the ball into the other wall, `crate::rapier::trough`.)

use crate::rapier::scenarios::{Friction, Sim};
use crate::rapier::trough::{basis, tilted_roll_acceleration, TiltedScene, TroughConfig, TILT_DEG};
use crate::realizability::trough::{Trough, J_SOLID};
use tribo::realizability::{Report, Status, Transition};
use tribo::tracking::{Material, Mode, SpinModel};
use tribo_rapier::diagnostics::body_realizability;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, TriboRapier};

/// One onset run: the tilted trough, a start, and the friction coefficient over time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnsetConfig {
    /// Time step (s).
    pub dt: f32,
    /// Speed (m/s) of the ball's centre down the axis at release, rolling without slip at both
    /// contacts (turning at `√2 v0/r` about the chord); 0 releases it at rest.
    pub v0: f32,
    /// μs = μk at both walls from the start.
    pub mu: f64,
    /// `(k, μ)`: from step `k + 1` on the walls have μs = μk = `μ` (set after step `k`).
    pub change: Option<(usize, f64)>,
    /// Steps run.
    pub steps: usize,
    /// tribo or stock rapier friction.
    pub friction: Friction,
}

impl OnsetConfig {
    /// Released at `v0` (0: at rest) with `mu` at `dt`, for `steps` steps, tribo friction.
    pub fn new(dt: f32, v0: f32, mu: f64, steps: usize) -> Self {
        OnsetConfig { dt, v0, mu, change: None, steps, friction: Friction::Tribo }
    }

    /// μ becomes `mu` after step `k`.
    pub fn change_after(mut self, k: usize, mu: f64) -> Self {
        self.change = Some((k, mu));
        self
    }

    /// With `friction`.
    pub fn with_friction(mut self, friction: Friction) -> Self {
        self.friction = friction;
        self
    }

    /// The offline analysis of the input the monitor sees at release: the trough of
    /// [`Trough::tilted_problem`] for the ball (radius 0.1 m, density 1000: m = 4.18879 kg,
    /// `J = 2/5 m r²`) with μ = [`mu`](Self::mu), turning at the release's `√2 v0/r` about the
    /// chord.
    pub fn offline(&self) -> Report {
        let r = TroughConfig::default().radius as f64;
        let mass = 1000.0 * 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
        let spin = std::f64::consts::SQRT_2 * self.v0 as f64 / r;
        Trough::new(self.mu, J_SOLID)
            .with_mass_radius(mass, r)
            .tilted_problem((TILT_DEG as f64).to_radians(), spin)
            .realizability()
            .expect("the tilted trough is a well-formed two-contact problem")
    }
}

/// The ball's material: μs = μk = `mu`, no rolling or spin resistance (the realizability
/// theory is for Coulomb point contacts).
pub fn trough_material(mu: f64) -> Material {
    let m = FrictionMaterial::builder().friction(mu, mu).no_rolling_resistance().spin(SpinModel::Off).build();
    match m.ok().as_ref().and_then(FrictionMaterial::material) {
        Some(m) => *m,
        None => Material::new(0.3, 0.3).expect("valid"),
    }
}

/// What one step showed.
#[derive(Clone, Debug, PartialEq)]
pub struct OnsetStep {
    /// The monitor's verdict of the ball (`None`: no report, or the analysis failed).
    pub status: Option<Status>,
    /// The transitions it names.
    pub transitions: Vec<Transition>,
    /// The report is the ball's first, or its verdict differs from the last step's.
    pub changed: bool,
    /// Slide modes of the contacts with the `[P⁺, P⁻]` walls (tribo; `None` for stock).
    pub modes: [Option<Mode>; 2],
    /// Slip speed of the ball's surface along the trough axis at `P⁺`, `P⁻` (m/s, absolute).
    pub slip: [f64; 2],
    /// Speed of the ball's centre (m/s).
    pub speed: f64,
}

/// A run: one [`OnsetStep`] per step (`steps[k - 1]` is step `k`).
#[derive(Clone, Debug, PartialEq)]
pub struct OnsetRun {
    /// The configuration.
    pub config: OnsetConfig,
    /// The steps.
    pub steps: Vec<OnsetStep>,
    /// Any non-finite state seen (the run stops there).
    pub nan: bool,
}

impl OnsetRun {
    /// The first step `k ≥ from` (1-based) for which `pred` holds.
    pub fn first(&self, from: usize, pred: impl Fn(&OnsetStep) -> bool) -> Option<usize> {
        (from.max(1)..=self.steps.len()).find(|&k| pred(&self.steps[k - 1]))
    }

    /// The first step from `from` on whose verdict is "not realizable".
    pub fn first_not_realizable(&self, from: usize) -> Option<usize> {
        self.first(from, |s| s.status == Some(Status::NotRealizable))
    }

    /// The first step from `from` on whose verdict is "realizable".
    pub fn first_realizable(&self, from: usize) -> Option<usize> {
        self.first(from, |s| s.status == Some(Status::Realizable))
    }

    /// The first step from `from` on with a wall contact `Kinetic`.
    pub fn first_kinetic(&self, from: usize) -> Option<usize> {
        self.first(from, |s| s.modes.contains(&Some(Mode::Kinetic)))
    }

    /// The first step from `from` on with both wall contacts `Static`.
    pub fn first_static(&self, from: usize) -> Option<usize> {
        self.first(from, |s| s.modes.iter().all(|m| *m == Some(Mode::Static)))
    }

    /// The first step from `from` on whose axial slip is at most `speed` (m/s) at both contacts.
    pub fn first_slip_below(&self, from: usize, speed: f64) -> Option<usize> {
        self.first(from, |s| s.slip[0].max(s.slip[1]) <= speed)
    }

    /// The first step from `from` on whose axial slip exceeds `speed` (m/s) at a contact.
    pub fn first_slip_above(&self, from: usize, speed: f64) -> Option<usize> {
        self.first(from, |s| s.slip[0].max(s.slip[1]) > speed)
    }

    /// The steps after the first one whose report is marked changed.
    pub fn changes(&self) -> Vec<usize> {
        (1..=self.steps.len()).filter(|&k| self.steps[k - 1].changed).collect()
    }
}

/// Runs `cfg`.
pub fn run(cfg: &OnsetConfig) -> OnsetRun {
    let r = TroughConfig::default().radius;
    let v0 = cfg.v0;
    // Rolling without slip at both contacts: ω = Ω a, a = x̂ the chord from P⁻ to P⁺, and
    // v = Ω r/√2 along +z (docs/realizability.md §4.2).
    let start = (Vector::Z * v0, Vector::X * (std::f32::consts::SQRT_2 * v0 / r));
    // Walls for the run at the sliding law's largest acceleration, g sin θ (μ = 0).
    let seconds = cfg.steps as f64 * cfg.dt as f64;
    let g = TroughConfig::default().g as f64;
    let reach =
        0.5 * g * (TILT_DEG as f64).to_radians().sin() * seconds * seconds + v0 as f64 * seconds + 1.0;
    debug_assert!(reach >= 0.5 * tilted_roll_acceleration(g) * seconds * seconds);
    let TiltedScene { mut sim, ball, collider, walls } =
        TiltedScene::new(cfg.dt, &trough_material(cfg.mu), start, reach, cfg.friction);
    let [ex, ey, _] = basis();
    let normals = [ey, ex];
    let mut out = OnsetRun { config: *cfg, steps: Vec::with_capacity(cfg.steps), nan: false };
    // The stock column's verdicts: the same analysis on demand (a store without materials
    // reads rapier's friction coefficients), with a previous verdict to mark changes.
    let stock_store = TriboRapier::new();
    let mut last: Option<(Option<Status>, Vec<Transition>)> = None;
    for k in 1..=cfg.steps {
        sim.step();
        let b = sim.body(ball);
        let (v, w) = (b.linvel(), b.angvel());
        if !v.is_finite() || !w.is_finite() || !b.translation().is_finite() {
            out.nan = true;
            break;
        }
        let slip = normals.map(|n| (v + w.cross(-n * r)).z.abs() as f64);
        let (status, transitions, changed, modes) = match &sim.tribo {
            Some(t) => {
                let rep = t.realizability_report(ball);
                (
                    rep.and_then(|r| r.status()),
                    rep.map_or(Vec::new(), |r| r.transitions().to_vec()),
                    rep.is_some_and(|r| r.changed),
                    walls.map(|wall| t.contact(collider, wall).map(|c| c.slide)),
                )
            }
            None => {
                let w = &sim.world;
                let rep = body_realizability(
                    ball,
                    &w.bodies,
                    &w.colliders,
                    &w.narrow_phase,
                    w.gravity,
                    &stock_store,
                );
                let verdict = (
                    rep.as_ref().and_then(|r| r.status()),
                    rep.map_or(Vec::new(), |r| r.transitions().to_vec()),
                );
                let changed = last.as_ref() != Some(&verdict);
                last = Some(verdict.clone());
                (verdict.0, verdict.1, changed, [None; 2])
            }
        };
        out.steps.push(OnsetStep { status, transitions, changed, modes, slip, speed: v.length() as f64 });
        if let Some((at, mu)) = cfg.change {
            if k == at {
                set_mu(&mut sim, collider, walls, mu);
            }
        }
    }
    out
}

/// Sets μs = μk = `mu` for the ball's contacts: its tribo material (from the next step), or the
/// rapier friction of the ball and the walls (stock, average rule).
fn set_mu(sim: &mut Sim, ball: ColliderHandle, walls: [ColliderHandle; 2], mu: f64) {
    match &mut sim.tribo {
        Some(t) => t.set_material(ball, FrictionMaterial::Tribo(trough_material(mu))),
        None => {
            for c in [ball, walls[0], walls[1]] {
                if let Some(col) = sim.world.colliders.get_mut(c) {
                    col.set_friction(mu as f32);
                }
            }
        }
    }
}

/// Rate (m/s²) at which the axial slip of the ball released at rest grows at both contacts
/// while both slide with `mu` (docs/realizability.md §9.2): the centre accelerates at
/// `g (sin θ − √2 μ cos θ)` (each wall presses with `N = m g cos θ/√2`); the two friction
/// forces `μ N` at `−r n±` turn the ball about the chord at `ω̇ = √2 μ N/(j m r)`, whose surface
/// speed at each contact along the axis is `−r ω/√2`; so the slip grows at
/// `g (sin θ − √2 μ cos θ) − μ g cos θ/(√2 j)` (0.166 m/s² at μ = 0.05).
pub fn slip_rate(mu: f64) -> f64 {
    let g = TroughConfig::default().g as f64;
    let (s, c) = (TILT_DEG as f64).to_radians().sin_cos();
    g * (s - std::f64::consts::SQRT_2 * mu * c) - mu * g * c / (std::f64::consts::SQRT_2 * J_SOLID)
}

/// Validation rows (issue 39) at 1/60 and 1/240: the verdict at the first step and tribo's slide
/// modes with it (μ 0.05 below μ*, released at rest and rolling), within one step of the verdict
/// when μ is lowered and raised mid-run, and the slip rate of tribo and stock rapier against
/// [`slip_rate`].
pub fn validation_rows() -> Vec<crate::validation::Row> {
    use crate::validation::{Row, Tolerance};
    let mut rows = Vec::new();
    let src = "docs/realizability.md §9.1: every two-contact body is analysed, whatever its contacts do";
    for (dt, n, d) in [(1.0f32 / 60.0, 60usize, "1/60"), (1.0 / 240.0, 240, "1/240")] {
        for (v0, how) in [(0.0, "released at rest"), (1.0, "released rolling at 1 m/s")] {
            let case = format!("rapier D1 ball in a 10° V-trough, μ 0.05 < μ* = 0.0554, {how}, dt={d}");
            let cfg = OnsetConfig::new(dt, v0, 0.05, n);
            let (t, s) = (run(&cfg), run(&cfg.with_friction(Friction::Stock)));
            let nr = t.first_not_realizable(1).map_or(f64::INFINITY, |k| k as f64);
            rows.push(Row::new(&case, "first not-realizable step (tribo)", 1.0, nr, Tolerance::AtMost, src));
            let offline = cfg.offline().transitions;
            rows.push(Row::flag(
                &case,
                format!("transitions {:?} = the offline analysis's (tribo)", t.steps[0].transitions),
                t.steps[0].transitions == offline,
                "Trough::tilted_problem, the closed-form trough of docs/realizability.md §4",
            ));
            let kin = t.first_kinetic(1).map_or(f64::INFINITY, |k| k as f64);
            let src_k = "docs/realizability.md §9.2: the slide modes follow the verdict";
            rows.push(Row::new(&case, "first kinetic step (tribo)", 1.0, kin, Tolerance::AtMost, src_k));
            if v0 == 0.0 {
                let src_r = "g (sin θ − √2 μ cos θ) − μ g cos θ/(√2 j), both contacts sliding";
                for (who, r) in [("tribo", &t), ("stock rapier", &s)] {
                    let last = r.steps.last().map_or(0.0, |x| 0.5 * (x.slip[0] + x.slip[1]));
                    let rate = last / (n as f64 * dt as f64);
                    let q = format!("axial slip rate over 1 s [m/s²] ({who})");
                    // rapier's step error on the sliding ball, the same with and without tribo:
                    // +7.8 % at 1/60, +0.8 % at 1/240 (measured).
                    let tol = if n == 60 { 0.1 } else { 0.02 };
                    rows.push(Row::new(&case, q, slip_rate(0.05), rate, Tolerance::Rel(tol), src_r));
                }
            }
        }
        let at = n / 2;
        let case = format!("rapier D2 ball in a 10° V-trough, μ 0.5 lowered to 0.05 while rolling, dt={d}");
        let t = run(&OnsetConfig::new(dt, 0.0, 0.5, n).change_after(at, 0.05));
        let nr = t.first_not_realizable(1).map_or(f64::INFINITY, |k| k as f64);
        let src_v = "the first step with the new μ";
        rows.push(Row::new(
            &case,
            "first not-realizable step (tribo)",
            (at + 1) as f64,
            nr,
            Tolerance::Abs(0.0),
            src_v,
        ));
        let kin = t.first_kinetic(at + 1).map_or(f64::INFINITY, |k| k as f64);
        let src_k = "issue 39: kinetic within one step of the verdict";
        rows.push(Row::new(
            &case,
            "first kinetic step − verdict step (tribo)",
            0.0,
            kin - nr,
            Tolerance::Abs(1.0),
            src_k,
        ));
        let case = format!("rapier D3 ball in a 10° V-trough, μ 0.05 raised to 0.5 while sliding, dt={d}");
        let t = run(&OnsetConfig::new(dt, 0.0, 0.05, n).change_after(at, 0.5));
        let re = t.first_realizable(1).map_or(f64::INFINITY, |k| k as f64);
        rows.push(Row::new(
            &case,
            "first realizable step (tribo)",
            (at + 1) as f64,
            re,
            Tolerance::Abs(0.0),
            src_v,
        ));
        let stopped = t.first_slip_below(at + 1, 0.005).map_or(f64::INFINITY, |k| k as f64);
        let st = t.first_static(at + 1).map_or(f64::INFINITY, |k| k as f64);
        let src_s = "issue 39: static within one step of the verdict once the slip stopped (< 5 mm/s)";
        rows.push(Row::new(
            &case,
            "first static step − max(verdict step, slip-stop step) (tribo)",
            1.0,
            st - re.max(stopped),
            Tolerance::AtMost,
            src_s,
        ));
    }
    rows
}

//! Test problems of docs/contensou.md (§4) and the model accuracy table (§3), shared by the tests and
//! by [`super::validation_rows`].
//!
//! Units of the plane problems: `R = 1`, `μg = 1`, `m = 1`. With `q = Rω` the force-free
//! dynamics of a body sliding and spinning on its patch is
//! `ṡ = −a 𝒬(s, q)`, `q̇ = −k 𝒯(s, q)` (disc: `a = 1`, `k = κR/(jR̄²) = 4/3`;
//! ball: `a = (1+j)/j = 7/2`, `k = κR/(jR̄²)` with `j = 2/5`, `R̄ = λR`).

use super::ode::{dopri5_until, ros2};
use std::f64::consts::PI;
use tribo::contensou::smooth_factor;
use tribo::contensou::{Model, Patch, Pressure};

/// A body sliding and spinning on a plane on one circular patch (docs/contensou.md §4.1, §4.2), in the
/// units `R = 1`, `μg = 1`, `m = 1`, with a constant in-plane force `F` (units μmg) along +x.
#[derive(Clone, Debug)]
pub struct PlaneProblem {
    /// Patch (pressure and ρ; radius 1, μ = 1, P = 1 are used for the reduced law).
    pub patch: Patch,
    /// Friction model.
    pub model: Model,
    /// Slide coefficient `a`: `u̇ = −a 𝒬 u/|u| + F e_x` (disc 1, ball 7/2).
    pub a: f64,
    /// Spin coefficient `k`: `(Rω)˙ = −k 𝒯 sgn ω` (disc 4/3, ball `κR/(jR̄²)`).
    pub k: f64,
}

/// Result of a force-free stop simulation ([`PlaneProblem::stop`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StopRun {
    /// Time at which `r = sqrt(|u|² + (ρω)²)` reached the end value.
    pub t: f64,
    /// Slip–spin ratio `ε = |u|/(R|ω|)` there.
    pub eps: f64,
    /// `|u|` there.
    pub slip: f64,
    /// `R|ω|` there.
    pub spin: f64,
    /// Whether the end value was reached.
    pub reached: bool,
}

/// A limit direction `ŵ = (w1, 0, w3)` on the invariant great circle (docs/contensou.md §4.0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitDirection {
    /// `w1`.
    pub w1: f64,
    /// `w3 ≥ 0` (the mirror direction −w3 is also one).
    pub w3: f64,
    /// Radial rate `R*(ŵ)` (negative: attracting).
    pub r_star: f64,
    /// Stability on the sphere (fast time), from the in-circle and transverse eigenvalues.
    pub kind: DirectionKind,
}

/// Stability type of a limit direction on the sphere (docs/contensou.md §4.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectionKind {
    /// Both eigenvalues negative.
    StableNode,
    /// Eigenvalues of opposite signs.
    Saddle,
    /// Both eigenvalues positive.
    UnstableNode,
    /// An eigenvalue is (numerically) zero.
    NonHyperbolic,
}

/// Bifurcation values of the limit directions in units `μmg` (docs/contensou.md §4.1, §4.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bifurcations {
    /// Tangency force `F_T` (pure-slide direction changes from attracting to repelling).
    pub f_t: f64,
    /// Pitchfork force `F_P` (the combined-slip directions branch off pure slide).
    pub f_p: f64,
    /// Fold force `F_F` and its `w3`, if the model has one.
    pub fold: Option<(f64, f64)>,
    /// `w3` of the limit direction at `F = 0` other than the pole, if any.
    pub w3_at_zero_force: Option<f64>,
}

impl PlaneProblem {
    /// Thin homogeneous disc on its face (uniform pressure, `j = 1/2`, `R̄ = R`), docs/contensou.md §4.1.
    pub fn disc(model: Model) -> Self {
        let patch = Patch::new(1.0, 1.0, 1.0, Pressure::Uniform).expect("valid");
        PlaneProblem { patch, model, a: 1.0, k: (2.0 / 3.0) / 0.5 }
    }

    /// Homogeneous ball (`j = 2/5`) of radius `λR` on a Hertz patch of radius `R`, docs/contensou.md §4.2.
    pub fn ball(model: Model, lambda: f64) -> Self {
        let patch = Patch::new(1.0, 1.0, 1.0, Pressure::Hertz).expect("valid");
        let j = 0.4;
        PlaneProblem {
            patch,
            model,
            a: (1.0 + j) / j,
            k: Pressure::Hertz.kappa_ratio() / (j * lambda * lambda),
        }
    }

    fn rho(&self) -> f64 {
        self.patch.rho_ratio()
    }

    /// `(𝒬, 𝒯)` at slip–spin ratio `ε` (homogeneous models).
    fn qt(&self, eps: f64) -> (f64, f64) {
        if eps > 1.0 {
            self.patch.reduced(&self.model, 1.0, 1.0 / eps)
        } else {
            self.patch.reduced(&self.model, eps, 1.0)
        }
    }

    /// Force-free motion from `|u| = s0 > 0`, `R|ω| = q0 > 0` until
    /// `r = sqrt(s² + (ρq)²) = r_end` (docs/contensou.md §4.1 simulation test). Integrated in the fast
    /// time `dτ = dt/q` on `(ε, ln q, t)`, where the right-hand side stays smooth up to the
    /// stop (DOPRI5, rtol 1e-12).
    pub fn stop(&self, s0: f64, q0: f64, r_end: f64) -> StopRun {
        self.stop_with_metric(s0, q0, r_end, self.rho())
    }

    /// As [`PlaneProblem::stop`], with the end condition on `r = sqrt(s² + (ρ_m q)²)` for a
    /// given `ρ_m/R` (the model notes' convergence table for ε uses `ρ_m = R`).
    pub fn stop_with_metric(&self, s0: f64, q0: f64, r_end: f64, rho_metric: f64) -> StopRun {
        let rho = rho_metric;
        let (a, k) = (self.a, self.k);
        let f = |_t: f64, y: &[f64; 3]| {
            let eps = y[0].max(0.0);
            let (qq, tt) = self.qt(eps);
            [k * eps * tt - a * qq, -k * tt, y[1].exp()]
        };
        let ln_r_end = r_end.ln();
        let event = |y: &[f64; 3]| y[1] + (y[0] * y[0] + rho * rho).sqrt().ln() - ln_r_end;
        let run = dopri5_until(f, 0.0, [s0 / q0, q0.ln(), 0.0], 1e4, 1e-12, 1e-14, event);
        let q = run.y[1].exp();
        StopRun { t: run.y[2], eps: run.y[0], slip: run.y[0] * q, spin: q, reached: run.hit }
    }

    /// `G(w3) = a𝒬 − ρk (w12/w3) 𝒯` on the great circle `w2 = 0`, `w = (w12, 0, w3)`:
    /// the non-trivial limit directions satisfy `±G(w3) = F` (docs/contensou.md (131)/(141)).
    pub fn g_of_w3(&self, w3: f64) -> f64 {
        let rho = self.rho();
        let w12 = (1.0 - w3 * w3).max(0.0).sqrt();
        // direction (s, ρq) ∝ (w12, w3) ⇒ ε = s/q = ρ w12/w3
        let eps = rho * w12 / w3;
        let (qq, tt) = self.qt(eps);
        self.a * qq - rho * self.k * (w12 / w3) * tt
    }

    /// Radial rate `R*(ŵ) = ŵ·F_o(ŵ)` for `ŵ = (w1, 0, w3)`, `w3 ≥ 0`, force `F` (μmg).
    pub fn r_star(&self, w1: f64, w3: f64, force: f64) -> f64 {
        let rho = self.rho();
        let eps = if w3 > 0.0 { rho * w1.abs() / w3 } else { f64::INFINITY };
        let (qq, tt) =
            if eps.is_infinite() { self.patch.reduced(&self.model, 1.0, 0.0) } else { self.qt(eps) };
        w1 * (-self.a * qq * w1.signum() + force) + w3 * (-rho * self.k * tt)
    }

    /// Field `F_o(w) = (−a𝒬 w1/|w12| + F, −a𝒬 w2/|w12|, −ρk𝒯 sgn w3)` for the homogeneous
    /// models, in the w-variables `(u, ρω)`.
    fn field(&self, w: [f64; 3], force: f64) -> [f64; 3] {
        let rho = self.rho();
        let w12 = w[0].hypot(w[1]);
        let (qq, tt) = self.patch.reduced(&self.model, w12, w[2].abs() / rho);
        let (c1, c2) = if w12 > 0.0 { (w[0] / w12, w[1] / w12) } else { (0.0, 0.0) };
        [-self.a * qq * c1 + force, -self.a * qq * c2, -rho * self.k * tt * w[2].signum()]
    }

    /// Eigenvalues `(λ_∥, λ_⊥)` of the limit direction `(w1, 0, w3)` on the sphere and its
    /// type (docs/contensou.md §4.0: `ψ' = F3 cosψ − F1 sinψ`, `λ_∥ = dψ'/dψ`,
    /// `λ_⊥ = ∂F2/∂w2|_{w2=0} − R*`), by central differences.
    pub fn classify(&self, w1: f64, w3: f64, force: f64) -> (f64, f64, DirectionKind) {
        let psi0 = w3.atan2(w1);
        let psi_dot = |psi: f64| {
            let (sp, cp) = psi.sin_cos();
            let f = self.field([cp, 0.0, sp], force);
            f[2] * cp - f[0] * sp
        };
        let h = 1e-6;
        let lam_par = (psi_dot(psi0 + h) - psi_dot(psi0 - h)) / (2.0 * h);
        let n = (1.0 - h * h).sqrt();
        let fp = self.field([w1 * n, h, w3 * n], force)[1];
        let fm = self.field([w1 * n, -h, w3 * n], force)[1];
        let lam_perp = (fp - fm) / (2.0 * h) - self.r_star(w1, w3, force);
        let tol = 1e-7;
        let kind = if lam_par.abs() < tol || lam_perp.abs() < tol {
            DirectionKind::NonHyperbolic
        } else if lam_par < 0.0 && lam_perp < 0.0 {
            DirectionKind::StableNode
        } else if lam_par > 0.0 && lam_perp > 0.0 {
            DirectionKind::UnstableNode
        } else {
            DirectionKind::Saddle
        };
        (lam_par, lam_perp, kind)
    }

    /// All non-trivial limit directions with `w3 > 0` for force `F ≥ 0` (units μmg), found by
    /// a sign scan of `±G(w3) − F` on a fine grid and bisection.
    pub fn limit_directions(&self, force: f64) -> Vec<LimitDirection> {
        let mut out = Vec::new();
        let n = 20000;
        for sign in [1.0, -1.0] {
            let h = |w3: f64| sign * self.g_of_w3(w3) - force;
            let mut x0 = 1e-9;
            let mut h0 = h(x0);
            for i in 1..=n {
                let x1 = if i == n { 1.0 - 1e-12 } else { i as f64 / n as f64 };
                let h1 = h(x1);
                if h0 == 0.0 || (h0 < 0.0) != (h1 < 0.0) {
                    let (mut lo, mut hi, mut hl) = (x0, x1, h0);
                    for _ in 0..200 {
                        let m = 0.5 * (lo + hi);
                        let hm = h(m);
                        if (hm < 0.0) == (hl < 0.0) {
                            lo = m;
                            hl = hm;
                        } else {
                            hi = m;
                        }
                    }
                    let w3 = 0.5 * (lo + hi);
                    let w1 = sign * (1.0 - w3 * w3).sqrt();
                    out.push(LimitDirection {
                        w1,
                        w3,
                        r_star: self.r_star(w1, w3, force),
                        kind: self.classify(w1, w3, force).2,
                    });
                }
                x0 = x1;
                h0 = h1;
            }
        }
        out
    }

    /// Bifurcation values: `F_T = a𝒬(pure slide)`, `F_P = G(0⁺)`, the fold `F_F = −min G`
    /// (where `G < 0`) and the `F = 0` direction (root of `G`), docs/contensou.md §4.1.
    pub fn bifurcations(&self) -> Bifurcations {
        let f_t = self.a * self.patch.reduced(&self.model, 1.0, 0.0).0;
        let f_p = self.g_of_w3(1e-9);
        // scan for the minimum and the root of G on (0, 1)
        let n = 4000;
        let mut best = (f64::INFINITY, 0.0);
        let mut root = None;
        let mut prev = (1e-9, f_p);
        for i in 1..n {
            let w3 = i as f64 / n as f64;
            let g = self.g_of_w3(w3);
            if g < best.0 {
                best = (g, w3);
            }
            if root.is_none() && (prev.1 > 0.0) && g <= 0.0 {
                let (mut lo, mut hi) = (prev.0, w3);
                for _ in 0..200 {
                    let m = 0.5 * (lo + hi);
                    if self.g_of_w3(m) > 0.0 {
                        lo = m;
                    } else {
                        hi = m;
                    }
                }
                root = Some(0.5 * (lo + hi));
            }
            prev = (w3, g);
        }
        let fold = if best.0 < 0.0 && best.1 < 1.0 - 1.0 / n as f64 {
            // golden-section refinement of the minimum
            let (mut lo, mut hi) =
                ((best.1 - 1.0 / n as f64).max(1e-9), (best.1 + 1.0 / n as f64).min(1.0 - 1e-12));
            let gr = 0.5 * (5f64.sqrt() - 1.0);
            for _ in 0..120 {
                let c = hi - gr * (hi - lo);
                let d = lo + gr * (hi - lo);
                if self.g_of_w3(c) < self.g_of_w3(d) {
                    hi = d;
                } else {
                    lo = c;
                }
            }
            let w3 = 0.5 * (lo + hi);
            Some((-self.g_of_w3(w3), w3))
        } else {
            None
        };
        Bifurcations { f_t, f_p, fold, w3_at_zero_force: root }
    }
}

/// Exact disc terminal ratio `ε*`: root of `h(ε) = 𝒬(ε) − (4/3)ε𝒯(ε)` (docs/contensou.md §4.1), and
/// `dh/dε` there.
pub fn disc_terminal_ratio() -> (f64, f64) {
    let h = |e: f64| {
        let (q, t) =
            (tribo::contensou::q_eps(Pressure::Uniform, e), tribo::contensou::t_eps(Pressure::Uniform, e));
        q - 4.0 / 3.0 * e * t
    };
    let (mut lo, mut hi) = (0.3, 1.0);
    for _ in 0..200 {
        let m = 0.5 * (lo + hi);
        if h(m) < 0.0 {
            lo = m;
        } else {
            hi = m;
        }
    }
    let e = 0.5 * (lo + hi);
    let d = (h(e + 1e-6) - h(e - 1e-6)) / 2e-6;
    (e, d)
}

/// Sup-norm errors `(max|Δ𝒬|, max|Δ𝒯|)` of `model` against the exact law over all slip
/// directions (docs/contensou.md §3 tables), on a grid of 20001 directions `(s, q) = (cos ψ, sin ψ)`.
pub fn sup_errors(patch: &Patch, model: &Model) -> (f64, f64) {
    let n = 20000;
    let (mut eq, mut et) = (0.0f64, 0.0f64);
    for i in 0..=n {
        let psi = 0.5 * PI * i as f64 / n as f64;
        let (s, q) = (psi.cos().max(0.0), psi.sin());
        if s == 0.0 && q == 0.0 {
            continue;
        }
        let (a, b) = patch.reduced(&Model::Exact, s, q);
        let (c, d) = patch.reduced(model, s, q);
        eq = eq.max((a - c).abs());
        et = et.max((b - d).abs());
    }
    (eq, et)
}

/// \[B\]'s translational + rotational stick–slip belt oscillator (docs/contensou.md §4.3, (5.1)) with the
/// smooth regularised friction (4.5), `c_{0,0,−1} = 2/3`, `b = 1`, `m = 2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeltOscillator {
    /// Inertia ratio `B̂/(m̂ r̂²)` (printed `m` in \[B\]; 0.5 for a uniform disc).
    pub inertia_ratio: f64,
    /// Stiffness coupling `k12`.
    pub k12: f64,
    /// Damping `c`.
    pub c: f64,
    /// Damping coupling `c12`.
    pub c12: f64,
    /// Belt speed `v_b`.
    pub v_b: f64,
    /// Dimensionless friction level `μ̄`.
    pub mu_bar: f64,
    /// Static-peak shape parameter `η′`.
    pub eta_prime: f64,
    /// Regularisation velocity `eps_reg`.
    pub eps_reg: f64,
}

/// Statistics of one [`BeltOscillator::run`].
#[derive(Clone, Debug, PartialEq)]
pub struct OscillatorStats {
    /// Interval between the last two stick onsets.
    pub period: f64,
    /// Fraction of the last period spent in stick (`|v_s|, |ω_s| < 1e-3`).
    pub stick_fraction: f64,
    /// Fractions of the last period with translational stick only (`|v_s| < 1e-3`) and with
    /// rotational stick only (`|ω_s| < 1e-3`).
    pub partial_stick_fractions: (f64, f64),
    /// Ranges over the last period: `[x_min, x_max, φ_min, φ_max, ẋ_min, ẋ_max, φ̇_min, φ̇_max]`.
    pub ranges: [f64; 8],
    /// Static-ellipse gauge `sqrt((x+k12φ)² + ((k12x+φ)/(2/3))²)/μ̄` at the last stick exit.
    pub exit_gauge: f64,
    /// Max `|v_s|` and max `|ω_s|` during the last stick phase.
    pub stick_max_slip: (f64, f64),
    /// Median `|v_s|` during the last stick phase.
    pub stick_median_slip: f64,
    /// Number of stick onsets seen.
    pub onsets: usize,
    /// Stick onset and exit times of the whole run.
    pub events: Vec<(f64, bool)>,
}

impl BeltOscillator {
    /// \[B\]'s parameters (docs/contensou.md §4.3) with inertia ratio `m`, shape `η′` and `eps_reg`.
    pub fn paper(inertia_ratio: f64, eta_prime: f64, eps_reg: f64) -> Self {
        BeltOscillator {
            inertia_ratio,
            k12: 0.85,
            c: 1e-4,
            c12: 0.0,
            v_b: 0.15,
            mu_bar: 5.0,
            eta_prime,
            eps_reg,
        }
    }

    fn rhs(&self, y: &[f64; 4]) -> [f64; 4] {
        let (x, p, xd, pd) = (y[0], y[1], y[2], y[3]);
        let vs = xd - self.v_b;
        let f = smooth_factor(vs * vs + pd * pd, self.eps_reg, self.eta_prime);
        let ts = vs * f;
        let ms = 2.0 / 3.0 * pd * f;
        [
            xd,
            pd,
            -self.c * xd - self.c12 * pd - x - self.k12 * p - self.mu_bar * ts,
            (-self.c12 * xd - self.c * pd - self.k12 * x - p - self.mu_bar * ms) / self.inertia_ratio,
        ]
    }

    fn jac(&self, y: &[f64; 4]) -> [[f64; 4]; 4] {
        let (xd, pd) = (y[2], y[3]);
        let vs = xd - self.v_b;
        let e = self.eps_reg;
        let s = vs * vs + pd * pd + e * e;
        let g = 1.0 / s.sqrt() + self.eta_prime * e * e * e / (s * s);
        let dg = -0.5 * s.powf(-1.5) - 2.0 * self.eta_prime * e * e * e / (s * s * s);
        let dts_dv = g + 2.0 * vs * vs * dg;
        let dts_dw = 2.0 * vs * pd * dg;
        let c0 = 2.0 / 3.0;
        let dms_dv = c0 * 2.0 * pd * vs * dg;
        let dms_dw = c0 * (g + 2.0 * pd * pd * dg);
        let m = self.inertia_ratio;
        [
            [0.0, 0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0, 1.0],
            [-1.0, -self.k12, -self.c - self.mu_bar * dts_dv, -self.c12 - self.mu_bar * dts_dw],
            [
                -self.k12 / m,
                -1.0 / m,
                (-self.c12 - self.mu_bar * dms_dv) / m,
                (-self.c - self.mu_bar * dms_dw) / m,
            ],
        ]
    }

    /// Integrates from `y0 = (x, φ, ẋ, φ̇)` to `t_end` (ROS2, rtol 1e-8, max step 0.02) and
    /// measures the last cycle.
    pub fn run(&self, y0: [f64; 4], t_end: f64) -> OscillatorStats {
        let thr = 1e-3;
        let mut onsets: Vec<f64> = Vec::new();
        let mut exits: Vec<(f64, f64)> = Vec::new(); // (time, gauge)
        let mut in_stick = false;
        let mut events: Vec<(f64, bool)> = Vec::new();
        let mut prev_g = (0.0, f64::INFINITY);
        // record trajectory samples (t, y, stick) after t_end/2 for the last-cycle statistics
        let mut samples: Vec<(f64, [f64; 4], bool)> = Vec::new();
        let mut partial = (0.0, 0.0);
        let t_rec = 0.4 * t_end;
        let k12 = self.k12;
        let mu_bar = self.mu_bar;
        let vb = self.v_b;
        ros2(
            |y| self.rhs(y),
            |y| self.jac(y),
            y0,
            t_end,
            1e-8,
            1e-10,
            0.02,
            |t, y| {
                let g = (y[2] - vb).abs().max(y[3].abs()) - thr;
                let st = g < 0.0;
                if st && !in_stick {
                    // interpolate the crossing of max(|v_s|, |ω_s|) = 1e-3 inside the step
                    let (tp, gp) = prev_g;
                    let tc = if gp > 0.0 { tp + (t - tp) * gp / (gp - g) } else { t };
                    onsets.push(tc);
                    events.push((tc, true));
                }
                prev_g = (t, g);
                if !st && in_stick {
                    let (x, p) = (y[0], y[1]);
                    let gauge =
                        ((x + k12 * p).powi(2) + ((k12 * x + p) / (2.0 / 3.0)).powi(2)).sqrt() / mu_bar;
                    exits.push((t, gauge));
                    events.push((t, false));
                }
                in_stick = st;
                if t >= t_rec {
                    samples.push((t, *y, st));
                }
            },
        );
        let n = onsets.len();
        let (t0, t1) = if n >= 2 { (onsets[n - 2], onsets[n - 1]) } else { (0.0, t_end) };
        let mut ranges = [
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let mut stick_time = 0.0;
        let mut stick_slips: Vec<f64> = Vec::new();
        let mut stick_max = (0.0f64, 0.0f64);
        let mut prev_t: Option<f64> = None;
        for (t, y, st) in &samples {
            if *t < t0 || *t > t1 {
                prev_t = Some(*t);
                continue;
            }
            for i in 0..4 {
                ranges[2 * i] = ranges[2 * i].min(y[i]);
                ranges[2 * i + 1] = ranges[2 * i + 1].max(y[i]);
            }
            let dt = prev_t.map(|pt| t - pt.max(t0)).unwrap_or(0.0);
            if (y[2] - vb).abs() < thr {
                partial.0 += dt;
            }
            if y[3].abs() < thr {
                partial.1 += dt;
            }
            if *st {
                stick_time += dt;
                let vs = (y[2] - vb).abs();
                stick_slips.push(vs);
                stick_max = (stick_max.0.max(vs), stick_max.1.max(y[3].abs()));
            }
            prev_t = Some(*t);
        }
        stick_slips.sort_by(|a, b| a.total_cmp(b));
        let median = if stick_slips.is_empty() { f64::NAN } else { stick_slips[stick_slips.len() / 2] };
        let exit_gauge = exits.iter().rev().find(|e| e.0 <= t1).map(|e| e.1).unwrap_or(f64::NAN);
        OscillatorStats {
            period: t1 - t0,
            stick_fraction: stick_time / (t1 - t0),
            partial_stick_fractions: (partial.0 / (t1 - t0), partial.1 / (t1 - t0)),
            ranges,
            exit_gauge,
            stick_max_slip: stick_max,
            stick_median_slip: median,
            onsets: n,
            events,
        }
    }
}

/// Result of [`BeltOscillator::run_event_driven`].
#[derive(Clone, Debug, PartialEq)]
pub struct EventDrivenStats {
    /// Stick onset times.
    pub onsets: Vec<f64>,
    /// Stick exit times.
    pub exits: Vec<f64>,
    /// `x` at the last stick onset and at the last stick exit.
    pub stick_x: (f64, f64),
    /// Interval between the last two stick onsets.
    pub period: f64,
}

impl BeltOscillator {
    /// Event-driven reference with the set-valued law (docs/contensou.md §3.6, \[B\] (2.4)–(2.5)): slip
    /// phases use the non-regularised circular law (3.5) (`m = 2`, `b = 1`, `c = 2/3`) with
    /// DOPRI5 (rtol = atol = 1e-10), slip → stick when `λ_s < 1e-7`; stick holds
    /// (`ẋ = v_b`, `φ̇ = 0`) while the gauge `ξ = sqrt(T² + (M/c)²) ≤ η` of the required
    /// friction, and ends on `ξ = η` (solved in closed form, `x` is linear in time). Slip
    /// restarts in the direction `(θ′)` of \[B\] (2.5). `eta` is the static-to-kinetic ratio
    /// (`η(η′)` of the smooth model being compared). Starts in stick at `(x0, φ0)`.
    pub fn run_event_driven(&self, x0: f64, phi0: f64, eta: f64, t_end: f64) -> EventDrivenStats {
        let c0 = 2.0 / 3.0;
        let (vb, mb, k12, c, c12, m) =
            (self.v_b, self.mu_bar, self.k12, self.c, self.c12, self.inertia_ratio);
        let mut onsets = Vec::new();
        let mut exits = Vec::new();
        let mut stick_x = (f64::NAN, f64::NAN);
        // required friction in stick at (x, φ): (Γ, Ω) with ẋ = v_b, φ̇ = 0, ẍ = φ̈ = 0
        let required = |x: f64, p: f64| (c * vb + x + k12 * p, c12 * vb + k12 * x + p);
        let gauge = |x: f64, p: f64| {
            let (g, o) = required(x, p);
            ((g / mb).powi(2) + (o / (mb * c0)).powi(2)).sqrt()
        };
        let (mut t, mut x, mut p) = (0.0, x0, phi0);
        let slip_rhs = move |y: &[f64; 5]| -> [f64; 5] {
            let (xx, pp, xd, pd) = (y[0], y[1], y[2], y[3]);
            let vs = xd - vb;
            let l = vs.hypot(pd);
            let (ts, ms) = if l > 0.0 { (vs / l, c0 * pd / l) } else { (0.0, 0.0) };
            [
                xd,
                pd,
                -c * xd - c12 * pd - xx - k12 * pp - mb * ts,
                (-c12 * xd - c * pd - k12 * xx - pp - mb * ms) / m,
                1.0,
            ]
        };
        onsets.push(0.0);
        stick_x.0 = x;
        while t < t_end {
            // --- stick: find the first time ξ(x0 + v_b s, φ) = η (quadratic in s)
            let (g0, o0) = required(x, p);
            let (a1, a2) = (1.0 / mb, 1.0 / (mb * c0));
            // ξ² = a1²(g0 + v_b s)² + a2²(o0 + k12 v_b s)² = η²
            let qa = a1 * a1 * vb * vb + a2 * a2 * k12 * k12 * vb * vb;
            let qb = 2.0 * (a1 * a1 * g0 * vb + a2 * a2 * o0 * k12 * vb);
            let qc = a1 * a1 * g0 * g0 + a2 * a2 * o0 * o0 - eta * eta;
            let disc = qb * qb - 4.0 * qa * qc;
            let s = if qc >= 0.0 {
                0.0
            } else if disc < 0.0 || qa == 0.0 {
                f64::INFINITY
            } else {
                (-qb + disc.sqrt()) / (2.0 * qa)
            };
            if !s.is_finite() || t + s > t_end {
                break;
            }
            t += s;
            x += vb * s;
            exits.push(t);
            stick_x.1 = x;
            // --- breakaway direction (θ′): (Γ, Ω) = μ̄ ξ (cos θ′, c sin θ′) opposes the slip
            let (g, o) = required(x, p);
            let xi = gauge(x, p);
            let (ct, st) = (g / (mb * xi), o / (mb * xi * c0));
            // kinetic friction in that direction for a first tiny interval
            let h0 = 1e-6;
            let ax = -c * vb - x - k12 * p - mb * ct;
            let ap = (-c12 * vb - k12 * x - p - mb * c0 * st) / m;
            let mut y = [x, p, vb + ax * h0, ap * h0, t + h0];
            // --- slip until λ_s < 1e-7
            loop {
                let run = dopri5_until(
                    |_tt, yy: &[f64; 5]| slip_rhs(yy),
                    0.0,
                    y,
                    t_end - y[4],
                    1e-10,
                    1e-10,
                    |yy: &[f64; 5]| (yy[2] - vb).hypot(yy[3]) - 1e-7,
                );
                y = run.y;
                if !run.hit {
                    return EventDrivenStats { period: period_of(&onsets), onsets, exits, stick_x };
                }
                if gauge(y[0], y[1]) <= eta {
                    break;
                }
                // passes through zero relative velocity without sticking: nudge on
                let f = slip_rhs(&[y[0], y[1], vb, 0.0, y[4]]);
                y[2] = vb + f[2] * h0;
                y[3] = f[3] * h0;
            }
            t = y[4];
            x = y[0];
            p = y[1];
            onsets.push(t);
            stick_x.0 = x;
        }
        EventDrivenStats { period: period_of(&onsets), onsets, exits, stick_x }
    }
}

fn period_of(onsets: &[f64]) -> f64 {
    let n = onsets.len();
    if n >= 2 {
        onsets[n - 1] - onsets[n - 2]
    } else {
        f64::NAN
    }
}

//! Approximate Contensou models (docs/contensou.md §3): harmonic coefficients by quadrature (§3.2), the
//! static-peak shape relation `η(η′)` of the smooth regularised model and its inverse (§3.5).

use super::exact;
use super::quad::integrate;
use super::Pressure;
use std::f64::consts::{FRAC_PI_2, PI};
use std::sync::OnceLock;

/// Largest harmonic degree supported by [`HarmonicTable`].
pub const MAX_HARMONIC_DEGREE: usize = 6;

/// Harmonic expansion of the exact law in the latitude θ (docs/contensou.md §3.2, \[A\] (82)–(88)) for one
/// pressure distribution and one length ρ.
///
/// `c[i−1]`, `s[i−1]` are the Fourier coefficients `c_i`, `s_i` of (83); `poly_c[N−1]` and
/// `poly_s[N−1]` are the polynomial coefficients `C_1…C_N`, `S_1…S_N` of the degree-N model
/// (`𝒞(w3) = Σ C_k w3^{2k−2}`, `𝒮(w3) = Σ S_k w3^{2k−2}`).
#[derive(Clone, Debug, PartialEq)]
pub struct HarmonicTable {
    /// Pressure distribution the table was computed for.
    pub pressure: Pressure,
    /// ρ/R used to define θ.
    pub rho_ratio: f64,
    /// Fourier coefficients `c_1 … c_6` of `𝒬(θ)`.
    pub c: [f64; MAX_HARMONIC_DEGREE],
    /// Fourier coefficients `s_1 … s_6` of `𝒯(θ)`.
    pub s: [f64; MAX_HARMONIC_DEGREE],
    /// `poly_c[N−1][k−1] = C_k` of the degree-N model (zero beyond k = N).
    pub poly_c: [[f64; MAX_HARMONIC_DEGREE]; MAX_HARMONIC_DEGREE],
    /// `poly_s[N−1][k−1] = S_k` of the degree-N model (zero beyond k = N).
    pub poly_s: [[f64; MAX_HARMONIC_DEGREE]; MAX_HARMONIC_DEGREE],
}

/// Coefficients of the Chebyshev polynomials `U_n` (second kind) and `T_n` (first kind) in
/// powers of x, for n ≤ 2·MAX−1.
fn chebyshev_tables() -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let nmax = 2 * MAX_HARMONIC_DEGREE;
    let mut u = vec![vec![0.0; nmax + 1]; nmax + 1];
    let mut t = vec![vec![0.0; nmax + 1]; nmax + 1];
    u[0][0] = 1.0;
    u[1][1] = 2.0;
    t[0][0] = 1.0;
    t[1][1] = 1.0;
    for n in 1..nmax {
        for k in 0..=nmax {
            let shifted_u = if k > 0 { 2.0 * u[n][k - 1] } else { 0.0 };
            let shifted_t = if k > 0 { 2.0 * t[n][k - 1] } else { 0.0 };
            u[n + 1][k] = shifted_u - u[n - 1][k];
            t[n + 1][k] = shifted_t - t[n - 1][k];
        }
    }
    (u, t)
}

impl HarmonicTable {
    /// Computes the table by adaptive Gauss–Kronrod quadrature of (83) split at ε = 1
    /// (`θ = atan(ρ/R)`), with the exact law of §2.4 inside. `rho_ratio = ρ/R` must be
    /// finite and > 0; otherwise the default `κ/R` is used (documented clamp).
    pub fn compute(pressure: Pressure, rho_ratio: f64) -> Self {
        let rho_ratio =
            if rho_ratio > 0.0 && rho_ratio.is_finite() { rho_ratio } else { pressure.kappa_ratio() };
        let n = MAX_HARMONIC_DEGREE;
        let v = integrate(
            |th: f64| {
                // 𝒬(θ) = 𝒬_ε((ρ/R) cot θ): pass (s, q) = ((ρ/R) cos θ, sin θ).
                let (qq, tt) = exact::reduced(pressure, rho_ratio * th.cos(), th.sin());
                let mut out = [0.0; 2 * MAX_HARMONIC_DEGREE];
                for i in 0..n {
                    let k = (2 * i + 1) as f64;
                    out[i] = qq * (k * th).cos();
                    out[n + i] = tt * (k * th).sin();
                }
                out
            },
            0.0,
            FRAC_PI_2,
            &[rho_ratio.atan()],
            1e-15,
            1e-15,
            2000,
        );
        let mut c = [0.0; MAX_HARMONIC_DEGREE];
        let mut s = [0.0; MAX_HARMONIC_DEGREE];
        for i in 0..n {
            c[i] = 4.0 / PI * v[i];
            s[i] = 4.0 / PI * v[n + i];
        }
        Self::from_fourier(pressure, rho_ratio, c, s)
    }

    /// Builds the polynomial forms from given Fourier coefficients (docs/contensou.md §3.2:
    /// `cos((2i−1)θ) = (−1)^{i−1} cosθ U_{2i−2}(sinθ)`, `sin((2i−1)θ) = (−1)^{i−1} T_{2i−1}(sinθ)`).
    pub fn from_fourier(
        pressure: Pressure,
        rho_ratio: f64,
        c: [f64; MAX_HARMONIC_DEGREE],
        s: [f64; MAX_HARMONIC_DEGREE],
    ) -> Self {
        let (u, t) = chebyshev_tables();
        let mut poly_c = [[0.0; MAX_HARMONIC_DEGREE]; MAX_HARMONIC_DEGREE];
        let mut poly_s = [[0.0; MAX_HARMONIC_DEGREE]; MAX_HARMONIC_DEGREE];
        for nn in 1..=MAX_HARMONIC_DEGREE {
            for i in 1..=nn {
                let sign = if i % 2 == 1 { 1.0 } else { -1.0 };
                for k in 1..=i {
                    // coefficient of w3^{2k−2}
                    poly_c[nn - 1][k - 1] += sign * c[i - 1] * u[2 * i - 2][2 * k - 2];
                    // T_{2i−1}(x)/x: coefficient of x^{2k−1} in T
                    poly_s[nn - 1][k - 1] += sign * s[i - 1] * t[2 * i - 1][2 * k - 1];
                }
            }
        }
        HarmonicTable { pressure, rho_ratio, c, s, poly_c, poly_s }
    }

    /// The shared table for ρ = κ (the default), computed once per process.
    pub fn default_for(pressure: Pressure) -> &'static HarmonicTable {
        static U: OnceLock<HarmonicTable> = OnceLock::new();
        static H: OnceLock<HarmonicTable> = OnceLock::new();
        match pressure {
            Pressure::Uniform => U.get_or_init(|| Self::compute(pressure, pressure.kappa_ratio())),
            Pressure::Hertz => H.get_or_init(|| Self::compute(pressure, pressure.kappa_ratio())),
        }
    }

    /// `(𝒞(w3), 𝒮(w3))` of the degree-`n` model (`1 ≤ n ≤ 6`, clamped).
    #[inline]
    pub fn eval(&self, n: usize, w3: f64) -> (f64, f64) {
        let n = n.clamp(1, MAX_HARMONIC_DEGREE);
        let x = w3 * w3;
        let pc = &self.poly_c[n - 1];
        let ps = &self.poly_s[n - 1];
        let mut cc = 0.0;
        let mut ss = 0.0;
        for k in (0..n).rev() {
            cc = cc * x + pc[k];
            ss = ss * x + ps[k];
        }
        (cc, ss)
    }
}

/// Static-to-kinetic ratio `η = max_s [ s/√(1+s²) + η′ s/(1+s²)² ]` of the static-peak
/// regularisation \[B\] (4.2) for a shape parameter `η′` (docs/contensou.md §3.5). Returns 1 when the
/// maximum is the supremum at `s → ∞` (`η′ ≤ 1.149929`). Also returns the argmax `s`
/// (`f64::INFINITY` in that case).
pub fn eta_of_eta_prime(eta_prime: f64) -> (f64, f64) {
    if !(eta_prime > 0.0) || !eta_prime.is_finite() {
        return (1.0, f64::INFINITY);
    }
    // Stationary points: with z = 1+s², z^{3/2} = η′(3z − 4). The local maximum is the
    // smallest root above 4/3; F(z) = z^{3/2} − η′(3z−4) is minimal at z = 4η′².
    let f = |z: f64| z.powf(1.5) - eta_prime * (3.0 * z - 4.0);
    let zmin = 4.0 * eta_prime * eta_prime;
    let lo0 = 4.0 / 3.0;
    if zmin <= lo0 || f(zmin) >= 0.0 {
        return (1.0, f64::INFINITY);
    }
    let (mut lo, mut hi) = (lo0, zmin);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-16 * hi {
            break;
        }
    }
    let z = 0.5 * (lo + hi);
    let s = (z - 1.0).sqrt();
    let g = s / z.sqrt() + eta_prime * s / (z * z);
    if g > 1.0 {
        (g, s)
    } else {
        (1.0, f64::INFINITY)
    }
}

/// Exact inverse of [`eta_of_eta_prime`] (docs/contensou.md §3.5 DECISION): the shape parameter `η′`
/// giving the static-to-kinetic ratio `η ≥ 1`. `η = 1` gives `η′ = 0` (plain
/// regularisation (4.1)). Returns `None` for `η < 1` or non-finite `η`.
pub fn eta_prime_of_eta(eta: f64) -> Option<f64> {
    if !eta.is_finite() || eta < 1.0 {
        return None;
    }
    if eta == 1.0 {
        return Some(0.0);
    }
    let mut lo = 1.0; // η(1) = 1 < eta
    let mut hi = 2.0;
    while eta_of_eta_prime(hi).0 < eta {
        hi *= 2.0;
        if hi > 1e300 {
            return None;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if eta_of_eta_prime(mid).0 < eta {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 4e-16 * hi {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The published polynomial fits of `η′(η)` (\[B\] §4, valid for η ∈ [1, 2.7], error in η
/// below 0.001). Kept as a documented fallback; the library uses [`eta_prime_of_eta`].
pub fn eta_prime_fit(eta: f64) -> f64 {
    if eta <= 1.3 {
        -13.607 + 30.893 * eta - 22.01 * eta * eta + 5.878 * eta * eta * eta
    } else {
        -2.41 + 3.985 * eta - 0.3581 * eta * eta + 0.0493 * eta * eta * eta
    }
}

/// Smooth static-peak factor `S^{-1/2} + η′ ε³ S^{-2}` of \[B\] (4.5), with `S = ς² + ε²`
/// for the combined slip measure `ς² = |u|² + b²(Rω)²`.
#[inline]
pub fn smooth_factor(varsigma2: f64, eps_reg: f64, eta_prime: f64) -> f64 {
    let s = varsigma2 + eps_reg * eps_reg;
    1.0 / s.sqrt() + eta_prime * eps_reg * eps_reg * eps_reg / (s * s)
}

//! Exact Contensou law of a circular patch with axisymmetric pressure (docs/contensou.md §2).
//!
//! The reduced functions `𝒬_ε(ε)` (force / μP) and `𝒯_ε(ε)` (torque / μPκ) of the slip–spin
//! ratio `ε = |u|/(R|ω|)` are evaluated by the robust piecewise algorithm of docs/contensou.md §2.4:
//! 16-term series near `ε = 0` and `ε = ∞`, closed forms with complete elliptic integrals
//! (uniform pressure) or `asin`/`sqrt` (Hertz pressure) in between. The inputs are taken as
//! the pair `(|u|, R|ω|)`, so `ε = ∞` is never formed.

use super::elliptic::{b_of_m, d_of_m};
use super::Pressure;
use std::f64::consts::PI;

const NS: usize = 18;

/// `a_n` with `K(m) = (π/2) Σ a_n mⁿ`: `a_0 = 1`, `a_n = a_{n−1}((2n−1)/(2n))²`.
const fn a_coeffs() -> [f64; NS + 2] {
    let mut a = [0.0; NS + 2];
    a[0] = 1.0;
    let mut n = 1;
    while n < NS + 2 {
        let r = (2 * n - 1) as f64 / (2 * n) as f64;
        a[n] = a[n - 1] * r * r;
        n += 1;
    }
    a
}

/// `c_k = c_{k−1}(2k−1)/(2k)` (central binomial / 4^k).
const fn c_coeffs() -> [f64; NS + 2] {
    let mut c = [0.0; NS + 2];
    c[0] = 1.0;
    let mut k = 1;
    while k < NS + 2 {
        c[k] = c[k - 1] * (2 * k - 1) as f64 / (2 * k) as f64;
        k += 1;
    }
    c
}

/// Uniform `G(m) = Σ g_k m^k` (docs/contensou.md §2.3).
pub(crate) const fn g_coeffs() -> [f64; 16] {
    let a = a_coeffs();
    let mut g = [0.0; 16];
    let mut k = 0;
    while k < 16 {
        let kf = k as f64;
        g[k] = (2.0 / 3.0)
            * (a[k] * (2.0 - 2.0 * kf) / (1.0 - 2.0 * kf) - a[k + 1] * (2.0 * kf + 2.0) / (2.0 * kf + 1.0));
        k += 1;
    }
    g
}

/// Uniform `𝒯` for `ε ≤ 1`: `Σ h_k ε^{2k}`.
pub(crate) const fn h_coeffs() -> [f64; 16] {
    let a = a_coeffs();
    let mut h = [0.0; 16];
    let mut k = 0;
    while k < 16 {
        let kf = k as f64;
        let prev = if k == 0 { 0.0 } else { a[k - 1] };
        h[k] = (4.0 * a[k] / (1.0 - 2.0 * kf) - a[k] + prev * (1.0 - 2.0 / (3.0 - 2.0 * kf))) / 3.0;
        k += 1;
    }
    h
}

/// Uniform `𝒯` for `ε ≥ 1`: `Σ_{k=1}^{16} s_k t^{2k−1}`, `t = 1/ε` (stored at index k−1).
pub(crate) const fn s_coeffs() -> [f64; 16] {
    let a = a_coeffs();
    let mut s = [0.0; 16];
    let mut k = 1;
    while k <= 16 {
        let kf = k as f64;
        s[k - 1] = (a[k] * kf / (kf + 1.0) + a[k - 1] * (2.0 - kf) / kf) / 3.0;
        k += 1;
    }
    s
}

const fn alpha_beta() -> ([f64; NS + 2], [f64; NS + 2]) {
    let c = c_coeffs();
    let mut al = [0.0; NS + 2];
    let mut be = [0.0; NS + 2];
    let mut k = 0;
    while k < NS + 2 {
        al[k] = c[k] / (2 * k + 1) as f64;
        be[k] = if k == 0 { 1.0 } else { -c[k] / (2 * k - 1) as f64 };
        k += 1;
    }
    (al, be)
}

/// Hertz `𝒬` for `ε ≥ 1`: `Σ_{j=1}^{16} q_j t^{2j−2}` (stored at index j−1).
pub(crate) const fn q_hertz_coeffs() -> [f64; 16] {
    let (al, be) = alpha_beta();
    let mut q = [0.0; 16];
    let mut j = 1;
    while j <= 16 {
        q[j - 1] = (3.0 / 16.0) * (4.0 * al[j - 1] + 2.0 * be[j - 1] - al[j] + be[j]);
        j += 1;
    }
    q
}

/// Hertz `𝒯` for `ε ≥ 1`: `(1/π) Σ_{j=2}^{17} τ_j t^{2j−3}` (stored at index j−2).
pub(crate) const fn tau_hertz_coeffs() -> [f64; 16] {
    let (al, be) = alpha_beta();
    let mut t = [0.0; 16];
    let mut j = 2;
    while j <= 17 {
        t[j - 2] = 0.25 * (3.0 * al[j] - 8.0 * al[j - 1] + 8.0 * al[j - 2] + 6.0 * be[j - 1] - 3.0 * be[j]);
        j += 1;
    }
    t
}

const G: [f64; 16] = g_coeffs();
const H: [f64; 16] = h_coeffs();
const S: [f64; 16] = s_coeffs();
const QH: [f64; 16] = q_hertz_coeffs();
const TH: [f64; 16] = tau_hertz_coeffs();

/// Horner evaluation of `Σ c_k x^k`.
#[inline]
fn horner(c: &[f64; 16], x: f64) -> f64 {
    let mut acc = 0.0;
    let mut k = 16;
    while k > 0 {
        k -= 1;
        acc = acc * x + c[k];
    }
    acc
}

/// Reduced exact law `(𝒬_ε, 𝒯_ε)` from the sliding speed `s = |u| ≥ 0` and the rim spin
/// speed `q = R|ω| ≥ 0` (docs/contensou.md §2.4). `(0, 0)` returns `(0, 1)` by convention (the pure-spin
/// limit; callers treat stick separately). A negative or NaN speed counts as 0; an infinite
/// one dominates a finite one, and `(∞, ∞)` counts as pure sliding, so no input gives NaN.
/// `𝒬 ∈ [0, 1]` is `|Q|/(μP)`, `𝒯 ∈ [0, 1]` is `|T_z|/(μPκ)`.
#[inline]
pub fn reduced(pressure: Pressure, s: f64, q: f64) -> (f64, f64) {
    // `!(x > 0)` also catches NaN.
    if !(s > 0.0) {
        return (0.0, 1.0);
    }
    if !(q > 0.0) || s == f64::INFINITY {
        return (1.0, 0.0);
    }
    match pressure {
        Pressure::Uniform => uniform(s, q),
        Pressure::Hertz => hertz(s, q),
    }
}

#[inline]
fn uniform(s: f64, q: f64) -> (f64, f64) {
    if 4.0 * s <= q {
        let e = s / q;
        let m = e * e;
        (e * horner(&G, m), horner(&H, m))
    } else if s >= 4.0 * q {
        let t = q / s;
        let m = t * t;
        (horner(&G, m), t * horner(&S, m))
    } else if s == q {
        (8.0 / (3.0 * PI), 4.0 / (3.0 * PI))
    } else if s < q {
        let e = s / q;
        let m = e * e;
        let (b, d) = (b_of_m(m), d_of_m(m));
        let gq = (4.0 / (3.0 * PI)) * (2.0 * b + (1.0 - m) * d);
        let t = (2.0 / (3.0 * PI)) * ((3.0 - m) * b + (1.0 - m) * (3.0 - 2.0 * m) * d);
        (e * gq, t)
    } else {
        let e = s / q;
        let tt = q / s;
        let m = tt * tt;
        let (b, d) = (b_of_m(m), d_of_m(m));
        let gq = (4.0 / (3.0 * PI)) * (2.0 * b + (1.0 - m) * d);
        let t = (2.0 * e / (3.0 * PI)) * ((3.0 * m - 1.0) * b + (1.0 - m) * d);
        (gq, t)
    }
}

#[inline]
fn hertz(s: f64, q: f64) -> (f64, f64) {
    if s <= q {
        let e = s / q;
        let e2 = e * e;
        ((3.0 * PI / 32.0) * e * (4.0 - e2), (3.0 * e2 * e2 - 8.0 * e2 + 8.0) / 8.0)
    } else if s >= 4.0 * q {
        let t = q / s;
        let m = t * t;
        (horner(&QH, m), t * horner(&TH, m) / PI)
    } else {
        let e = s / q;
        let e2 = e * e;
        let as1 = (q / s).asin();
        let sq = ((e - 1.0) * (e + 1.0)).sqrt();
        (
            (3.0 / (16.0 * e)) * (e2 * (4.0 - e2) * as1 + (e2 + 2.0) * sq),
            ((3.0 * e2 * e2 - 8.0 * e2 + 8.0) * as1 + (6.0 - 3.0 * e2) * sq) / (4.0 * PI),
        )
    }
}

/// docs/contensou.md §2.5 reference table (derived with mpmath, ≥ 13 digits), one row per ε:
/// `[ε, uniform 𝒬, uniform 𝒯, Hertz 𝒬, Hertz 𝒯]`. Shared by the tests and the validation rows.
pub const REFERENCE_TABLE: [[f64; 5]; 10] = [
    [0.0, 0.0, 1.0, 0.0, 1.0],
    [0.1, 0.09987484325957124, 0.9925140820956269, 0.1175152001983432, 0.9900375],
    [0.5, 0.4838437556301258, 0.821622532158302, 0.5522330836388308, 0.7734375],
    [0.9, 0.795759308899949, 0.4998175360998405, 0.8455792976677778, 0.4360375],
    [1.0, 0.8488263631567751, 0.4244131815783876, 0.8835729338221293, 0.375],
    [1.1, 0.8813538787583278, 0.373374756090966, 0.9073696047864413, 0.3327187332506537],
    [2.0, 0.9676875112602516, 0.1917137974262266, 0.9742785792574935, 0.1730066568673119],
    [10.0, 0.9987484325957124, 0.03753133825871602, 0.9989989255833433, 0.03397736756927874],
    [100.0, 0.9999874998437451, 0.003750031250878943, 0.9999899998928542, 0.003395329705415232],
    [1e4, 0.99999999875, 3.750000003125e-5, 0.999999999, 3.395305455052319e-5],
];

/// `𝒬_ε(ε)`, `𝒯_ε(ε)` of the exact law for a dimensionless slip–spin ratio
/// `ε = |u|/(R|ω|) ∈ [0, ∞]` (`ε = ∞` means pure sliding). NaN or negative ε is treated as 0.
pub fn q_t_of_eps(pressure: Pressure, eps: f64) -> (f64, f64) {
    if eps.is_infinite() {
        return (1.0, 0.0);
    }
    if !(eps > 0.0) {
        return (0.0, 1.0);
    }
    if eps >= 1.0 {
        reduced(pressure, 1.0, 1.0 / eps)
    } else {
        reduced(pressure, eps, 1.0)
    }
}

/// The series coefficient tables of docs/contensou.md §2.3 (for the tests).
#[cfg(test)]
pub mod tables {
    /// Uniform `g_k`, `G(m) = Σ g_k m^k`.
    pub fn g() -> [f64; 16] {
        super::G
    }
    /// Uniform `h_k`, `𝒯 = Σ h_k ε^{2k}` (ε ≤ 1).
    pub fn h() -> [f64; 16] {
        super::H
    }
    /// Uniform `s_k` (k = 1…16), `𝒯 = Σ s_k t^{2k−1}` (ε ≥ 1, t = 1/ε).
    pub fn s() -> [f64; 16] {
        super::S
    }
    /// Hertz `q_j` (j = 1…16), `𝒬 = Σ q_j t^{2j−2}` (ε ≥ 1).
    pub fn q_hertz() -> [f64; 16] {
        super::QH
    }
    /// Hertz `τ_j` (j = 2…17), `𝒯 = (1/π) Σ τ_j t^{2j−3}` (ε ≥ 1).
    pub fn tau_hertz() -> [f64; 16] {
        super::TH
    }
}

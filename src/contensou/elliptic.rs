//! Complete elliptic integrals (parameter convention `m = k²`) via Carlson's symmetric
//! integrals `R_F` and `R_D` (B. C. Carlson, *Numerical computation of real or complex
//! elliptic integrals*, Numer. Algorithms 10 (1995)), plus the arithmetic–geometric-mean
//! algorithm of docs/contensou.md §2.4 as an independent cross-check.
//!
//! The Contensou closed forms only need the two cancellation-free combinations
//! `D(m) = (K − E)/m = R_D(0, 1−m, 1)/3` and `B(m) = (E − (1−m)K)/m = (1−m) R_D(0, 1, 1−m)/3`
//! (DLMF 19.25.1), so they are exposed directly.

/// `(3r)^(-1/6)` for the relative error target r = 1e-16 (Carlson 1995).
#[cfg(test)]
const RF_Q: f64 = 386.497_293_934_3;
/// `(r/4)^(-1/6)` for r = 1e-16.
const RD_Q: f64 = 584.803_547_642_6;

/// Carlson's symmetric integral of the first kind
/// `R_F(x, y, z) = ½ ∫₀^∞ dt / sqrt((t+x)(t+y)(t+z))`, for `x, y, z ≥ 0`, at most one zero. Used by the tests as an independent path to `K(m)`.
#[cfg(test)]
pub fn carlson_rf(x: f64, y: f64, z: f64) -> f64 {
    let (mut x, mut y, mut z) = (x, y, z);
    let a0 = (x + y + z) / 3.0;
    // (3r)^(-1/6) with r = 1e-16 (relative error target).
    let q = RF_Q * (a0 - x).abs().max((a0 - y).abs()).max((a0 - z).abs());
    let mut a = a0;
    let mut f = 1.0;
    for _ in 0..60 {
        if q * f < a.abs() {
            break;
        }
        let (sx, sy, sz) = (x.sqrt(), y.sqrt(), z.sqrt());
        let lam = sx * sy + sy * sz + sz * sx;
        x = 0.25 * (x + lam);
        y = 0.25 * (y + lam);
        z = 0.25 * (z + lam);
        a = 0.25 * (a + lam);
        f *= 0.25;
    }
    let big_x = 1.0 - x / a;
    let big_y = 1.0 - y / a;
    let big_z = -big_x - big_y;
    let e2 = big_x * big_y - big_z * big_z;
    let e3 = big_x * big_y * big_z;
    (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0) / a.sqrt()
}

/// Carlson's symmetric integral of the second kind
/// `R_D(x, y, z) = (3/2) ∫₀^∞ dt / ((t+z) sqrt((t+x)(t+y)(t+z)))`, for `x, y ≥ 0` (at most
/// one zero) and `z > 0`.
pub fn carlson_rd(x: f64, y: f64, z: f64) -> f64 {
    let (mut x, mut y, mut z) = (x, y, z);
    let a0 = (x + y + 3.0 * z) / 5.0;
    // (r/4)^(-1/6) with r = 1e-16.
    let q = RD_Q * (a0 - x).abs().max((a0 - y).abs()).max((a0 - z).abs());
    let mut a = a0;
    let mut f = 1.0;
    let mut sum = 0.0;
    for _ in 0..60 {
        if q * f < a.abs() {
            break;
        }
        let (sx, sy, sz) = (x.sqrt(), y.sqrt(), z.sqrt());
        let lam = sx * sy + sy * sz + sz * sx;
        sum += f / (sz * (z + lam));
        x = 0.25 * (x + lam);
        y = 0.25 * (y + lam);
        z = 0.25 * (z + lam);
        a = 0.25 * (a + lam);
        f *= 0.25;
    }
    let big_x = 1.0 - x / a;
    let big_y = 1.0 - y / a;
    let big_z = -(big_x + big_y) / 3.0;
    let xy = big_x * big_y;
    let z2 = big_z * big_z;
    let e2 = xy - 6.0 * z2;
    let e3 = (3.0 * xy - 8.0 * z2) * big_z;
    let e4 = 3.0 * (xy - z2) * z2;
    let e5 = xy * z2 * big_z;
    f / (a * a.sqrt())
        * (1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0 - 9.0 * e2 * e3 / 52.0
            + 3.0 * e5 / 26.0)
        + 3.0 * sum
}

/// `D(m) = (K(m) − E(m))/m = R_D(0, 1−m, 1)/3`, positive and finite on `[0, 1)`.
#[inline]
pub fn d_of_m(m: f64) -> f64 {
    carlson_rd(0.0, 1.0 - m, 1.0) / 3.0
}

/// `B(m) = (E(m) − (1−m)K(m))/m = (1−m) R_D(0, 1, 1−m)/3`, positive and finite on `[0, 1]`
/// (`B(1) = 1`).
#[inline]
pub fn b_of_m(m: f64) -> f64 {
    if m >= 1.0 {
        return 1.0;
    }
    (1.0 - m) * carlson_rd(0.0, 1.0, 1.0 - m) / 3.0
}

/// Complete elliptic integral of the first kind `K(m)`, parameter `m < 1` (Carlson).
#[cfg(test)]
pub fn ellip_k(m: f64) -> f64 {
    carlson_rf(0.0, 1.0 - m, 1.0)
}

/// Complete elliptic integral of the second kind `E(m)`, parameter `m ≤ 1` (Carlson).
#[cfg(test)]
pub fn ellip_e(m: f64) -> f64 {
    if m >= 1.0 {
        return 1.0;
    }
    ellip_k(m) - m * d_of_m(m)
}

/// `(K(m), E(m))` by the arithmetic–geometric mean (docs/contensou.md §2.4), `0 ≤ m < 1`. Independent
/// of the Carlson path; used as a cross-check in tests.
#[cfg(test)]
pub fn ellip_ke_agm(m: f64) -> (f64, f64) {
    let mut a = 1.0f64;
    let mut b = (1.0 - m).sqrt();
    let mut c2 = m;
    let mut sum = 0.5 * c2; // 2^(n-1) c_n² at n = 0
    let mut pow = 0.5;
    for _ in 0..40 {
        let c = 0.5 * (a - b);
        if c.abs() <= 2.3e-16 * a {
            break;
        }
        let an = 0.5 * (a + b);
        b = (a * b).sqrt();
        a = an;
        c2 = c * c;
        pow *= 2.0;
        sum += pow * c2;
    }
    let k = std::f64::consts::FRAC_PI_2 / a;
    (k, k * (1.0 - sum))
}

//! Adaptive Gauss–Kronrod (7/15) quadrature, vector-valued, with break points (used by the
//! harmonic coefficients and by the 2D patch integrator of [`super::generic`]).

// QUADPACK's published digits are kept verbatim.
#![allow(clippy::excessive_precision)]

/// Kronrod abscissae (QUADPACK `qk15`), from the outermost to the centre.
const XGK: [f64; 8] = [
    0.991_455_371_120_812_639_206_854_697_526_329,
    0.949_107_912_342_758_524_526_189_684_047_851,
    0.864_864_423_359_769_072_789_712_788_640_926,
    0.741_531_185_599_394_439_863_864_773_280_788,
    0.586_087_235_467_691_130_294_144_845_693_013,
    0.405_845_151_377_397_166_906_606_412_076_961,
    0.207_784_955_007_898_467_600_689_403_773_245,
    0.0,
];
/// Kronrod weights.
const WGK: [f64; 8] = [
    0.022_935_322_010_529_224_963_732_008_058_970,
    0.063_092_092_629_978_553_290_700_663_189_204,
    0.104_790_010_322_250_183_839_876_322_541_518,
    0.140_653_259_715_525_918_745_189_590_510_238,
    0.169_004_726_639_267_902_826_583_426_598_550,
    0.190_350_578_064_785_409_913_256_402_421_014,
    0.204_432_940_075_298_892_414_161_999_234_649,
    0.209_482_141_084_727_828_012_999_174_891_714,
];
/// Gauss 7-point weights of the abscissae `XGK[1], XGK[3], XGK[5], XGK[7]`.
const WG: [f64; 4] = [
    0.129_484_966_168_869_693_270_611_432_679_082,
    0.279_705_391_489_276_667_901_467_771_423_780,
    0.381_830_050_505_118_944_950_369_775_488_975,
    0.417_959_183_673_469_387_755_102_040_816_327,
];

fn gk15<const N: usize, F: FnMut(f64) -> [f64; N]>(f: &mut F, a: f64, b: f64) -> ([f64; N], f64) {
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let mut k = [0.0; N];
    let mut g = [0.0; N];
    let fc = f(c);
    for i in 0..N {
        k[i] = WGK[7] * fc[i];
        g[i] = WG[3] * fc[i];
    }
    for j in 0..7 {
        let dx = h * XGK[j];
        let f1 = f(c - dx);
        let f2 = f(c + dx);
        for i in 0..N {
            let s = f1[i] + f2[i];
            k[i] += WGK[j] * s;
            if j % 2 == 1 {
                g[i] += WG[j / 2] * s;
            }
        }
    }
    let mut err = 0.0f64;
    for i in 0..N {
        k[i] *= h;
        g[i] *= h;
        err = err.max((k[i] - g[i]).abs());
    }
    (k, err)
}

/// Globally adaptive Gauss–Kronrod integration of a vector-valued function over `[a, b]`
/// with break points `breaks` (sorted or not; points outside `(a, b)` are ignored).
/// Stops when the summed error estimate (max over components) is below
/// `max(abs_tol, rel_tol·max_i |I_i|)`, or after `max_intervals` intervals.
pub fn integrate<const N: usize, F: FnMut(f64) -> [f64; N]>(
    mut f: F,
    a: f64,
    b: f64,
    breaks: &[f64],
    abs_tol: f64,
    rel_tol: f64,
    max_intervals: usize,
) -> [f64; N] {
    let mut pts: Vec<f64> = vec![a];
    let mut inner: Vec<f64> = breaks.iter().copied().filter(|&x| x > a && x < b).collect();
    inner.sort_by(|x, y| x.total_cmp(y));
    pts.extend(inner);
    pts.push(b);
    // (a, b, value, error)
    let mut ivs: Vec<(f64, f64, [f64; N], f64)> = Vec::new();
    for w in pts.windows(2) {
        if w[1] > w[0] {
            let (v, e) = gk15(&mut f, w[0], w[1]);
            ivs.push((w[0], w[1], v, e));
        }
    }
    loop {
        let mut tot = [0.0; N];
        let mut err = 0.0;
        let mut worst = 0;
        for (idx, iv) in ivs.iter().enumerate() {
            for i in 0..N {
                tot[i] += iv.2[i];
            }
            err += iv.3;
            if iv.3 > ivs[worst].3 {
                worst = idx;
            }
        }
        let scale = tot.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if err <= abs_tol.max(rel_tol * scale) || ivs.len() >= max_intervals {
            return tot;
        }
        let (x0, x1, _, _) = ivs[worst];
        let xm = 0.5 * (x0 + x1);
        if !(xm > x0 && xm < x1) {
            // Interval can no longer be split in floating point.
            ivs[worst].3 = 0.0;
            continue;
        }
        let (v1, e1) = gk15(&mut f, x0, xm);
        let (v2, e2) = gk15(&mut f, xm, x1);
        ivs[worst] = (x0, xm, v1, e1);
        ivs.push((xm, x1, v2, e2));
    }
}

/// Scalar convenience wrapper of [`integrate`] (for the tests).
#[cfg(test)]
pub fn integrate_scalar<F: FnMut(f64) -> f64>(
    mut f: F,
    a: f64,
    b: f64,
    breaks: &[f64],
    abs_tol: f64,
    rel_tol: f64,
) -> f64 {
    integrate(|x| [f(x)], a, b, breaks, abs_tol, rel_tol, 4000)[0]
}

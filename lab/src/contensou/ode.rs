//! Small ODE integrators for the test problems: adaptive Dormand–Prince 5(4) with event
//! location (non-stiff), and the L-stable 2-stage Rosenbrock method ROS2 (Verwer et al. 1999)
//! with an analytic Jacobian for the stiff regularised oscillator.

/// Result of [`dopri5_until`].
pub(crate) struct EventRun<const N: usize> {
    /// State at the event.
    pub y: [f64; N],
    /// Whether the event was found.
    pub hit: bool,
}

fn axpy<const N: usize>(y: &[f64; N], h: f64, terms: &[(&[f64; N], f64)]) -> [f64; N] {
    let mut o = *y;
    for (k, c) in terms {
        for i in 0..N {
            o[i] += h * c * k[i];
        }
    }
    o
}

/// One Dormand–Prince step: returns (y_new, error estimate vector, f(y_new)).
fn dp_step<const N: usize, F: FnMut(f64, &[f64; N]) -> [f64; N]>(
    f: &mut F,
    t: f64,
    y: &[f64; N],
    k1: &[f64; N],
    h: f64,
) -> ([f64; N], [f64; N], [f64; N]) {
    let k2 = f(t + h / 5.0, &axpy(y, h, &[(k1, 1.0 / 5.0)]));
    let k3 = f(t + 3.0 * h / 10.0, &axpy(y, h, &[(k1, 3.0 / 40.0), (&k2, 9.0 / 40.0)]));
    let k4 = f(t + 4.0 * h / 5.0, &axpy(y, h, &[(k1, 44.0 / 45.0), (&k2, -56.0 / 15.0), (&k3, 32.0 / 9.0)]));
    let k5 = f(
        t + 8.0 * h / 9.0,
        &axpy(
            y,
            h,
            &[
                (k1, 19372.0 / 6561.0),
                (&k2, -25360.0 / 2187.0),
                (&k3, 64448.0 / 6561.0),
                (&k4, -212.0 / 729.0),
            ],
        ),
    );
    let k6 = f(
        t + h,
        &axpy(
            y,
            h,
            &[
                (k1, 9017.0 / 3168.0),
                (&k2, -355.0 / 33.0),
                (&k3, 46732.0 / 5247.0),
                (&k4, 49.0 / 176.0),
                (&k5, -5103.0 / 18656.0),
            ],
        ),
    );
    let yn = axpy(
        y,
        h,
        &[
            (k1, 35.0 / 384.0),
            (&k3, 500.0 / 1113.0),
            (&k4, 125.0 / 192.0),
            (&k5, -2187.0 / 6784.0),
            (&k6, 11.0 / 84.0),
        ],
    );
    let k7 = f(t + h, &yn);
    let e =
        [71.0 / 57600.0, 0.0, -71.0 / 16695.0, 71.0 / 1920.0, -17253.0 / 339200.0, 22.0 / 525.0, -1.0 / 40.0];
    let mut err = [0.0; N];
    for i in 0..N {
        err[i] =
            h * (e[0] * k1[i] + e[2] * k3[i] + e[3] * k4[i] + e[4] * k5[i] + e[5] * k6[i] + e[6] * k7[i]);
    }
    (yn, err, k7)
}

/// Integrates `y' = f(t, y)` from `(t0, y0)` until `event(y)` changes sign from positive to
/// ≤ 0 (located to ~1e-14 by secant/bisection on the step size) or `t_max` is reached.
pub(crate) fn dopri5_until<const N: usize, F, G>(
    mut f: F,
    t0: f64,
    y0: [f64; N],
    t_max: f64,
    rtol: f64,
    atol: f64,
    mut event: G,
) -> EventRun<N>
where
    F: FnMut(f64, &[f64; N]) -> [f64; N],
    G: FnMut(&[f64; N]) -> f64,
{
    let mut t = t0;
    let mut y = y0;
    let mut k1 = f(t, &y);
    let mut h = 1e-3;
    let mut steps = 0;
    let mut g0 = event(&y);
    while t < t_max && steps < 10_000_000 {
        if t + h > t_max {
            h = t_max - t;
        }
        let (yn, err, k7) = dp_step(&mut f, t, &y, &k1, h);
        let mut en = 0.0f64;
        for i in 0..N {
            let sc = atol + rtol * y[i].abs().max(yn[i].abs());
            en = en.max((err[i] / sc).abs());
        }
        if en <= 1.0 || h < 1e-14 {
            let g1 = event(&yn);
            if g0 > 0.0 && g1 <= 0.0 {
                // locate the event inside [0, h] by bisection/secant on the step size
                let (mut lo, mut hi) = (0.0, h);
                let (mut glo, mut ghi) = (g0, g1);
                let mut best = (h, yn);
                for _ in 0..100 {
                    let mut hm = hi - ghi * (hi - lo) / (ghi - glo);
                    if !(hm > lo && hm < hi) || (hi - lo) < 1e-3 * h {
                        hm = 0.5 * (lo + hi);
                    }
                    let (ym, _, _) = dp_step(&mut f, t, &y, &k1, hm);
                    let gm = event(&ym);
                    best = (hm, ym);
                    if gm.abs() < 1e-13 || (hi - lo) < 1e-15 * (1.0 + t.abs()) {
                        break;
                    }
                    if gm > 0.0 {
                        lo = hm;
                        glo = gm;
                    } else {
                        hi = hm;
                        ghi = gm;
                    }
                }
                return EventRun { y: best.1, hit: true };
            }
            t += h;
            y = yn;
            k1 = k7;
            g0 = g1;
            steps += 1;
        }
        let fac = if en == 0.0 { 5.0 } else { (0.9 * en.powf(-0.2)).clamp(0.2, 5.0) };
        h *= fac;
    }
    EventRun { y, hit: false }
}

/// Solves the 4×4 system `A x = b` by Gaussian elimination with partial pivoting.
pub(crate) fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> [f64; 4] {
    for c in 0..4 {
        let mut p = c;
        for r in c + 1..4 {
            if a[r][c].abs() > a[p][c].abs() {
                p = r;
            }
        }
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        for r in c + 1..4 {
            let l = a[r][c] / d;
            if l != 0.0 {
                let pivot_row = a[c];
                for (x, p) in a[r][c..].iter_mut().zip(&pivot_row[c..]) {
                    *x -= l * p;
                }
                b[r] -= l * b[c];
            }
        }
    }
    let mut x = [0.0; 4];
    for c in (0..4).rev() {
        let mut s = b[c];
        for k in c + 1..4 {
            s -= a[c][k] * x[k];
        }
        x[c] = s / a[c][c];
    }
    x
}

/// Adaptive ROS2 integration of the autonomous 4D system `y' = f(y)` with Jacobian `jac(y)`
/// over `[0, t_end]`. `observe(t, y)` is called after every accepted step.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ros2<F, J, O>(
    mut f: F,
    mut jac: J,
    y0: [f64; 4],
    t_end: f64,
    rtol: f64,
    atol: f64,
    h_max: f64,
    mut observe: O,
) where
    F: FnMut(&[f64; 4]) -> [f64; 4],
    J: FnMut(&[f64; 4]) -> [[f64; 4]; 4],
    O: FnMut(f64, &[f64; 4]),
{
    let gamma = 1.0 + std::f64::consts::FRAC_1_SQRT_2;
    let mut t = 0.0;
    let mut y = y0;
    let mut h = 1e-4f64;
    observe(t, &y);
    let mut guard = 0usize;
    while t < t_end && guard < 50_000_000 {
        guard += 1;
        if t + h > t_end {
            h = t_end - t;
        }
        let jm = jac(&y);
        let mut a = [[0.0; 4]; 4];
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] = if i == j { 1.0 } else { 0.0 } - gamma * h * jm[i][j];
            }
        }
        let f0 = f(&y);
        let k1 = solve4(a, f0);
        let mut y1 = y;
        for i in 0..4 {
            y1[i] += h * k1[i];
        }
        let f1 = f(&y1);
        let mut rhs = [0.0; 4];
        for i in 0..4 {
            rhs[i] = f1[i] - 2.0 * k1[i];
        }
        let k2 = solve4(a, rhs);
        let mut yn = y;
        let mut en = 0.0f64;
        for i in 0..4 {
            yn[i] += h * (1.5 * k1[i] + 0.5 * k2[i]);
            let e = 0.5 * h * (k1[i] + k2[i]);
            let sc = atol + rtol * y[i].abs().max(yn[i].abs());
            en = en.max((e / sc).abs());
        }
        if en <= 1.0 || (en.is_finite() && h < 1e-13) {
            t += h;
            y = yn;
            observe(t, &y);
        }
        let fac = if en == 0.0 {
            4.0
        } else if !en.is_finite() {
            0.1
        } else {
            (0.8 / en.sqrt()).clamp(0.2, 4.0)
        };
        h = (h * fac).min(h_max);
    }
}

//! T6 — ellipsoid rolling and falling over (docs/tracking.md §7 T6; paper §4.5.1, Table 4,
//! snapshot figure). Lenient, figure-level assertions.
//!
//! Note on energy: the model notes prescribes an undamped Hookean normal force. After the fall the
//! ellipsoid keeps bouncing elastically on that spring (≈ 0.22 J, a ≈ 4.5 mm hop) — a
//! conservative normal mode that friction cannot dissipate. The kinetic-energy criterion
//! (< 1 % of the released mg(c − a) = 14.7 J) is therefore applied to the friction-relevant
//! motion (rotation and horizontal translation); the bounce is checked not to grow.

use tribo::tracking::Mode;
use tribo_lab::tracking::experiments::{ellipsoid_fall, FallSample, G};

fn at(s: &[FallSample], t: f64) -> &FallSample {
    s.iter().find(|x| (x.t - t).abs() < 1e-9).unwrap()
}

#[test]
fn t6_ellipsoid_falls_over_and_rests_flat() {
    let s = ellipsoid_fall(5.0).unwrap();
    assert!(
        s.iter().all(|x| x.height.is_finite() && x.axis_z.is_finite() && x.kinetic_energy.is_finite()),
        "NaN"
    );
    let released = 5.0 * G * (0.5 - 0.2);
    assert!((released - 14.7).abs() < 1e-12);
    // The friction at the base tips the body forward (+y, the direction of v_y = 0.3 m/s).
    assert!(at(&s, 0.5).axis_y > 0.1 && at(&s, 0.5).omega_x < 0.0);
    // The rolling direction reverses between 0.9 and 1.8 s (paper snapshots).
    let w: Vec<_> = s.iter().filter(|x| x.t >= 0.9 && x.t <= 1.8).collect();
    assert!(w.first().unwrap().omega_x < 0.0, "still tipping forward at 0.9 s");
    assert!(w.iter().any(|x| x.omega_x > 0.0), "no reversal before 1.8 s");
    // By 3 s (and 5 s) it rests flat: |ê_c·ẑ| < 0.1.
    for t in [3.0, 5.0] {
        let x = at(&s, t);
        assert!(x.axis_z.abs() < 0.1, "tilt at {t}: {}", x.axis_z);
        // Friction-relevant kinetic energy < 1 % of 14.7 J.
        assert!(x.kinetic_energy - x.vertical_energy < 0.01 * released, "KE at {t}");
    }
    // CM height 0.2 ± 2e-3 m: the resting contact level, i.e. the lowest point of the hop over
    // [3, 5] s (the instantaneous height depends on the phase of the ≈ 4.5 mm elastic hop).
    let late: Vec<_> = s.iter().filter(|x| x.t >= 3.0).collect();
    let hmin = late.iter().map(|x| x.height).fold(f64::MAX, f64::min);
    assert!((hmin - 0.2).abs() < 2e-3, "rest height {hmin}");
    let hmax = late.iter().map(|x| x.height).fold(f64::MIN, f64::max);
    assert!(hmax < 0.2 + 0.01, "hop height {hmax}");
    // The elastic hop does not grow (friction does not pump energy into it).
    let energy = |x: &&FallSample| x.kinetic_energy + 5.0 * G * (x.height - 0.2);
    let e_early = s.iter().filter(|x| x.t >= 2.5 && x.t < 3.0).map(|x| energy(&x)).fold(0.0, f64::max);
    let e_late = s.iter().filter(|x| x.t >= 4.5).map(|x| energy(&x)).fold(0.0, f64::max);
    assert!(e_late <= e_early * 1.05 + 1e-3, "hop energy grew {e_early} → {e_late}");
    // Slide and roll modes are static whenever in contact during the last 2 s.
    let modes: Vec<_> = late.iter().filter_map(|x| x.modes).collect();
    assert!(!modes.is_empty());
    assert!(modes.iter().all(|m| *m == (Mode::Static, Mode::Static)), "{modes:?}");
}

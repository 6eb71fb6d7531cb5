//! T8 — three-sphere stack (docs/tracking.md §7 T8; paper §4.6, Figs. 15–16): optional
//! integration test asserting the figure-level claims and failure-mode categories, not exact
//! masses (the paper prints none; the author's script: η_r = 0.35, gap 0.3R → stable at
//! 1.57 kg, collapse at 1.58 kg, with Chrono's Hertz contact).

use tribo::tracking::Mode;
use tribo_lab::tracking::stack::critical_top_mass;

#[test]
fn t8_critical_mass_and_failure_modes() {
    let crit = |eta: f64| critical_top_mass(eta, 0.3, 1.5, (0.5, 3.0), 0.02).unwrap();
    let (m16, below16, above16) = crit(0.16);
    let (m23, below23, _) = crit(0.23);
    let (m30, _, _) = crit(0.30);
    let (m35, below35, above35) = crit(0.35);
    // Stable stacks exist at η_r = 0.16, 0.23 and 0.35 (just below m_c).
    assert!(!below16.collapsed && !below23.collapsed && !below35.collapsed);
    // m_c rises with η_r up to η_r^c, then falls to a plateau that depends on μs only.
    assert!(m16 < m23 && m23 > m35, "m_c: {m16} {m23} {m35}");
    assert!((m30 - m35).abs() <= 0.03, "plateau {m30} vs {m35}");
    // Plateau near the author's 1.57–1.58 kg (different Hertz implementation: ±10 %).
    assert!((m35 - 1.575).abs() < 0.16, "m_c(0.35) = {m35}");
    // η_r = 0.16: bottom–ground roll goes kinetic while slide stays static; the bottom
    // spheres roll outward (|ω|R/|v| ≈ 1).
    assert!(above16.collapsed);
    assert_eq!(above16.ground_modes, (Mode::Static, Mode::Kinetic));
    assert!((above16.roll_ratio - 1.0).abs() < 0.05, "{}", above16.roll_ratio);
    // η_r = 0.35: slide saturates while roll stays static; the spheres slide out without
    // rotating.
    assert!(above35.collapsed);
    assert_eq!(above35.ground_modes, (Mode::Kinetic, Mode::Static));
    assert!(above35.roll_ratio < 0.05, "{}", above35.roll_ratio);
}

#[test]
fn critical_top_mass_rejects_bad_search_parameters() {
    // tol ≤ 0 would bisect forever and a reversed bracket is meaningless: both are errors,
    // returned before any simulation runs.
    use tribo_lab::tracking::sim::SimError;
    for (bracket, tol) in [
        ((0.5, 3.0), 0.0),
        ((0.5, 3.0), -1.0),
        ((0.5, 3.0), f64::NAN),
        ((3.0, 0.5), 0.02),
        ((0.5, f64::INFINITY), 0.02),
    ] {
        assert!(
            matches!(critical_top_mass(0.3, 0.3, 0.1, bracket, tol), Err(SimError::BadParameter { .. })),
            "{bracket:?} {tol}"
        );
    }
}

//! T9 — unit tests implied by the docs/tracking.md (docs/tracking.md §7 T9): App. B frame, ψ sign, p-vector
//! sanity cases (§1.4), i↔j swap (§0.1), state-machine tables (§2.2–2.3), N = 0, roll
//! capacities and Table 1, curvatures (§1.6), bad input; plus property tests.

use crate::tracking::kinematics::{continue_frame, counter_spin, onset_frame, spin_increment};
use crate::tracking::*;
use crate::{DQuat, DVec3};
use proptest::prelude::*;

const R: f64 = 0.2;
const DT: f64 = 1e-4;

fn material() -> Material {
    Material::new(0.25, 0.2)
        .unwrap()
        .with_roll_eta(0.3)
        .unwrap()
        .with_spin(SpinModel::Heuristic { eta_psi: 0.01, curvature: None })
        .unwrap()
}

/// Ground (i, plane z = 0) and a sphere (j) of radius R at `pos` with `rot`; n = −ẑ.
fn sphere_on_ground(pos: DVec3, rot: DQuat, n: f64) -> ContactInput {
    let c = DVec3::new(pos.x, pos.y, 0.0);
    ContactInput {
        body_i: ContactBody::ground(Surface::Plane),
        body_j: ContactBody::new(pos, rot, Surface::Sphere { radius: R }),
        point_i: c,
        point_j: c,
        normal: DVec3::NEG_Z,
        normal_force: n,
        dt: DT,
        inertia: DampingInertia::new(5.0, 0.08, 0.08),
    }
}

fn two_steps(
    a: ContactInput,
    b: ContactInput,
    m: &Material,
    cfg: &TrackingConfig,
) -> (ContactState, ContactOutput) {
    let mut st = ContactState::default();
    let o = st.update(m, cfg, &a).unwrap();
    assert!(o.onset && o.wrench_i == Wrench::default() && o.wrench_j == Wrench::default());
    let out = st.update(m, cfg, &b).unwrap();
    (st, out)
}

fn close(a: DVec3, b: DVec3, tol: f64) -> bool {
    (a - b).length() <= tol
}

// ---------------------------------------------------------------- App. B (docs/tracking.md §1.3)

/// Paper's App. B form: rotate n1 onto ẑ, θ* from tan⁻¹ (+π), back-rotate.
fn paper_app_b(u0: DVec3, w0: DVec3, n1: DVec3) -> (DVec3, f64) {
    let rot = DQuat::from_rotation_arc(n1, DVec3::Z);
    let a = rot * u0;
    let b = rot * w0;
    let f = |t: f64| (a.x + b.y) * t.sin() + (a.y - b.x) * t.cos();
    let t0 = if (a.y - b.x).abs() < 1e-300 {
        std::f64::consts::FRAC_PI_2
    } else {
        ((a.x + b.y) / (a.y - b.x)).atan()
    };
    let t = if f(t0) >= f(t0 + std::f64::consts::PI) { t0 } else { t0 + std::f64::consts::PI };
    (rot.conjugate() * DVec3::new(t.sin(), t.cos(), 0.0), f(t))
}

use crate::test_util::Rng;

#[test]
fn app_b_closed_form_matches_brute_force_and_paper_form() {
    let mut rng = Rng(0x9E3779B97F4A7C15);
    for _ in 0..200 {
        let n0 = rng.unit();
        let (u0, w0) = onset_frame(n0);
        // Carry the frame by a random rotation and take a random new normal.
        let q = DQuat::from_axis_angle(rng.unit(), 1.3);
        let (u0p, w0p) = (q * u0, q * w0);
        let n1 = rng.unit();
        let (u1, w1) = continue_frame(u0p, w0p, n1);
        // Right-handed orthonormal frame: (n1 × u1)·w1 = 1, u1 ⟂ n1.
        assert!((n1.cross(u1).dot(w1) - 1.0).abs() < 1e-12);
        assert!(u1.dot(n1).abs() < 1e-12 && (u1.length() - 1.0).abs() < 1e-12);
        let f = |u: DVec3| u0p.dot(u) + w0p.dot(n1.cross(u));
        // Brute force over 3600 angles in the tangent plane, then a golden-section refinement.
        let (e1, e2) = onset_frame(n1);
        let at = |t: f64| e1 * t.cos() + e2 * t.sin();
        let mut best = (0.0, f64::MIN);
        for k in 0..3600 {
            let t = k as f64 * std::f64::consts::TAU / 3600.0;
            if f(at(t)) > best.1 {
                best = (t, f(at(t)));
            }
        }
        let (mut lo, mut hi) = (best.0 - 0.002, best.0 + 0.002);
        for _ in 0..100 {
            let m1 = lo + (hi - lo) * 0.382;
            let m2 = lo + (hi - lo) * 0.618;
            if f(at(m1)) < f(at(m2)) {
                lo = m1
            } else {
                hi = m2
            }
        }
        let ub = at(0.5 * (lo + hi));
        assert!(f(u1) >= f(ub) - 1e-12, "closed form is not the maximum");
        assert!(close(u1, ub, 1e-5), "closed form {u1} vs brute force {ub}");
        let (up, fp) = paper_app_b(u0p, w0p, n1);
        assert!(close(u1, up, 1e-9) && (fp - f(u1)).abs() < 1e-9, "paper form {up}");
    }
}

#[test]
fn frame_continuation_fallbacks() {
    // Exact 180° flip about u: v = 0 → fallback P(u0'), still orthonormal and right-handed.
    let (u, w) = continue_frame(DVec3::X, DVec3::Y, DVec3::Z);
    assert!(close(u, DVec3::X, 1e-15) && close(w, DVec3::Y, 1e-15));
    let (u, w) = continue_frame(DVec3::X, -DVec3::Y, DVec3::Z);
    assert!((DVec3::Z.cross(u).dot(w) - 1.0).abs() < 1e-12 && u.dot(DVec3::Z).abs() < 1e-12);
    let (u, w) = continue_frame(DVec3::Z, DVec3::Z, DVec3::Z);
    assert!((DVec3::Z.cross(u).dot(w) - 1.0).abs() < 1e-12);
}

#[test]
fn onset_frame_is_deterministic_and_right_handed() {
    for n in [DVec3::Z, DVec3::NEG_Z, DVec3::X, DVec3::new(0.3, -0.5, 0.8).normalize()] {
        let (u, w) = onset_frame(n);
        assert!((n.cross(u).dot(w) - 1.0).abs() < 1e-12 && u.dot(n).abs() < 1e-15);
        assert_eq!(onset_frame(n), (u, w));
    }
    // e = least aligned axis: for n = −ẑ that is x̂, u0 = x̂ × (−ẑ) = ŷ.
    assert!(close(onset_frame(DVec3::NEG_Z).0, DVec3::Y, 1e-15));
}

// ---------------------------------------------------------------- ψ sign (docs/tracking.md §1.3, T9)

#[test]
fn psi_sign_of_a_top_spinning_ccw() {
    // Top (j) spinning counter-clockwise about +z on the ground (i), n = −ẑ: ψ > 0, and the
    // spin torque on the top is −ẑ·K_ψΨ (docs/tracking.md T9).
    let m = material().with_spin_damping(Damping::Fixed(0.0)).unwrap();
    let pos = DVec3::new(0.0, 0.0, R);
    let phi = 1e-4;
    let (st, out) = two_steps(
        sphere_on_ground(pos, DQuat::IDENTITY, 49.0),
        sphere_on_ground(pos, DQuat::from_rotation_z(phi), 49.0),
        &m,
        &TrackingConfig::default(),
    );
    assert!((out.psi - phi).abs() < 1e-15, "ψ = {}", out.psi);
    let k_psi = out.derived.spin_stiffness;
    assert!(k_psi > 0.0);
    assert!((st.spin().history() - phi).abs() < 1e-15);
    assert!(close(out.wrench_j.torque, DVec3::NEG_Z * k_psi * phi, 1e-15), "{:?}", out.wrench_j);
    assert!(close(out.wrench_i.torque, DVec3::Z * k_psi * phi, 1e-15));
    // The same via the kinematics helper directly.
    let ub = DQuat::from_rotation_z(phi) * DVec3::X;
    assert!((spin_increment(ub, DVec3::X, DVec3::NEG_Z) - phi).abs() < 1e-15);
    assert!((spin_increment(ub, DVec3::X, DVec3::Z) + phi).abs() < 1e-15);
}

// ---------------------------------------------------------------- p vectors (docs/tracking.md §1.4)

#[test]
fn p_vector_sanity_cases() {
    let cfg = TrackingConfig::default();
    let m = material();
    let pos = DVec3::new(0.0, 0.0, R);
    let dth = 1e-3;
    // Pure rolling in a vertical plane: p_i = p_j (= R Δθ x̂).
    let (_, o) = two_steps(
        sphere_on_ground(pos, DQuat::IDENTITY, 49.0),
        sphere_on_ground(pos + DVec3::X * R * dth, DQuat::from_rotation_y(dth), 49.0),
        &m,
        &cfg,
    );
    assert!(close(o.p_i, o.p_j, 1e-17) && close(o.p_i, DVec3::X * R * dth, 1e-17), "{o:?}");
    assert_eq!(o.psi, 0.0);
    // Locked sphere dragged: p_j = 0, p_i ≠ 0.
    let (_, o) = two_steps(
        sphere_on_ground(pos, DQuat::IDENTITY, 49.0),
        sphere_on_ground(pos + DVec3::X * 1e-4, DQuat::IDENTITY, 49.0),
        &m,
        &cfg,
    );
    assert_eq!(o.p_j, DVec3::ZERO);
    assert!(close(o.p_i, DVec3::X * 1e-4, 1e-18));
    // Rotating in place about a horizontal axis: p_i = 0, p_j ≠ 0.
    let (_, o) = two_steps(
        sphere_on_ground(pos, DQuat::IDENTITY, 49.0),
        sphere_on_ground(pos, DQuat::from_rotation_x(dth), 49.0),
        &m,
        &cfg,
    );
    assert_eq!(o.p_i, DVec3::ZERO);
    // Rotation about +x carries the bottom point towards +y... and C^1 − C^{0→1} points −y.
    assert!(close(o.p_j, DVec3::NEG_Y * R * dth, 1e-17), "{:?}", o.p_j);
    // Spin about the normal only: p_i = p_j = 0, ψ ≠ 0.
    let (_, o) = two_steps(
        sphere_on_ground(pos, DQuat::IDENTITY, 49.0),
        sphere_on_ground(pos, DQuat::from_rotation_z(dth), 49.0),
        &m,
        &cfg,
    );
    assert_eq!(o.p_i, DVec3::ZERO);
    assert_eq!(o.p_j, DVec3::ZERO);
    assert!(o.psi != 0.0);
}

#[test]
fn slide_force_on_dragged_brick_opposes_motion() {
    // docs/tracking.md §0.1 check: brick (j) dragged over the ground (i): p_i = d, p_j = 0, S = +d, force on
    // the brick −K_E d (no damping here).
    let m = Material::new(0.5, 0.4).unwrap().with_slide_damping(Damping::Fixed(0.0)).unwrap();
    let brick = |x: f64| ContactInput {
        body_i: ContactBody::ground(Surface::Plane),
        body_j: ContactBody::new(DVec3::new(x, 0.0, 0.1), DQuat::IDENTITY, Surface::Plane),
        point_i: DVec3::new(x, 0.0, 0.0),
        point_j: DVec3::new(x, 0.0, 0.0),
        normal: DVec3::NEG_Z,
        normal_force: 10.0,
        dt: DT,
        inertia: DampingInertia::new(1.0, 0.0, 0.0),
    };
    let d = 1e-6;
    let (st, o) = two_steps(brick(0.0), brick(d), &m, &TrackingConfig::default());
    assert!(close(st.slide().history(), DVec3::X * d, 1e-20));
    assert!(close(o.wrench_j.force, DVec3::NEG_X * 1e5 * d, 1e-12));
    assert!(close(o.wrench_i.force, -o.wrench_j.force, 0.0));
    // Flat on flat: roll disabled, spin off (no geometric curvature): zero torques.
    assert_eq!(o.roll_torque_i, DVec3::ZERO);
    assert_eq!(o.roll_torque_j, DVec3::ZERO);
    assert_eq!(o.spin_torque, 0.0);
}

// ---------------------------------------------------------------- i↔j swap (docs/tracking.md §0.1)

/// Two spheres: A (radius 0.3) below, B (radius 0.2) on top, both moving and rotating.
fn pair_motion(k: usize) -> [(DVec3, DQuat); 2] {
    let t = k as f64 * DT;
    let a_pos = DVec3::new(0.01 * t, -0.02 * t, 0.0);
    let a_rot = DQuat::from_scaled_axis(DVec3::new(0.3, -0.7, 1.1) * t);
    let b_pos = DVec3::new(0.0, 0.0, 0.5) + DVec3::new(0.4 * t, 0.1 * t, 0.0);
    let b_rot = DQuat::from_scaled_axis(DVec3::new(-1.5, 2.0, 3.0) * t);
    [(a_pos, a_rot), (b_pos, b_rot)]
}

fn pair_input(k: usize, a_is_i: bool) -> ContactInput {
    let [(pa, qa), (pb, qb)] = pair_motion(k);
    // Contact along the centre line, point between the surfaces.
    let dir = (pb - pa).normalize();
    let ca = pa + dir * 0.3;
    let cb = pb - dir * 0.2;
    let a = ContactBody::new(pa, qa, Surface::Sphere { radius: 0.3 });
    let b = ContactBody::new(pb, qb, Surface::Sphere { radius: 0.2 });
    let inertia = DampingInertia::new(3.0, 0.05, 0.05);
    if a_is_i {
        // n points into i = A: from B towards A.
        ContactInput {
            body_i: a,
            body_j: b,
            point_i: ca,
            point_j: cb,
            normal: -dir,
            normal_force: 20.0,
            dt: DT,
            inertia,
        }
    } else {
        ContactInput {
            body_i: b,
            body_j: a,
            point_i: cb,
            point_j: ca,
            normal: dir,
            normal_force: 20.0,
            dt: DT,
            inertia,
        }
    }
}

#[test]
fn swap_i_and_j_gives_the_same_body_wrenches() {
    let m = material();
    // Off: exact (rounding). Paper/Reversed: equal up to the O(ψ‖p‖) counter-spin term, i.e. a
    // relative difference of order ψ ≈ |Δω·n|Δt ≈ 3e-4 per step here.
    for (cs, tol) in [(CounterSpin::Off, 1e-12), (CounterSpin::Paper, 2e-3), (CounterSpin::Reversed, 2e-3)] {
        let cfg = TrackingConfig::default().with_counter_spin(cs);
        let (mut s1, mut s2) = (ContactState::default(), ContactState::default());
        let mut max_f: f64 = 0.0;
        for k in 0..400 {
            let o1 = s1.update(&m, &cfg, &pair_input(k, true)).unwrap();
            let o2 = s2.update(&m, &cfg, &pair_input(k, false)).unwrap();
            // ψ keeps its value; S flips.
            assert!((o1.psi - o2.psi).abs() < 1e-12, "ψ {} vs {}", o1.psi, o2.psi);
            assert!(
                close(
                    s1.slide().history(),
                    -s2.slide().history(),
                    1e-15 + tol * s1.slide().history().length()
                ),
                "{cs:?} step {k}: S {} vs {}",
                s1.slide().history(),
                s2.slide().history()
            );
            // Wrench on A and on B identical under relabelling.
            let scale = o1.wrench_i.force.length().max(o1.wrench_i.torque.length()).max(1e-3);
            assert!(close(o1.wrench_i.force, o2.wrench_j.force, tol * scale), "{cs:?} step {k}");
            assert!(close(o1.wrench_i.torque, o2.wrench_j.torque, tol * scale), "{cs:?} step {k}");
            assert!(close(o1.wrench_j.force, o2.wrench_i.force, tol * scale));
            assert!(close(o1.wrench_j.torque, o2.wrench_i.torque, tol * scale));
            max_f = max_f.max(o1.wrench_i.force.length());
        }
        assert!(max_f > 1.0, "the test motion must produce friction");
    }
}

// ---------------------------------------------------------------- state machine (§2.2–2.3)

#[test]
fn slider_state_machine_tables() {
    let p = SliderParams { stiffness: 10.0, damping: 2.0, static_threshold: 1.0, kinetic_threshold: 0.8 };
    let mut s = Slider::<f64>::new();
    // Stick below the static threshold: elastic K h, damping D Δ/Δt with the raw increment.
    let f = s.step(0.5, &p, 0.1);
    assert_eq!((s.history(), s.mode(), s.elastic(), s.damping(), f), (0.5, Mode::Static, 5.0, 10.0, 15.0));
    // s→k: capped at the STATIC threshold on the transition step; damping zero in k.
    let f = s.step(0.7, &p, 0.1);
    assert_eq!((s.history(), s.mode(), s.damping(), f), (1.0, Mode::Kinetic, 0.0, 10.0));
    // Next step still slipping: capped at the kinetic threshold.
    s.step(0.1, &p, 0.1);
    assert_eq!((s.history(), s.mode(), s.damping()), (0.8, Mode::Kinetic, 0.0));
    // k→s as soon as ‖h‖ ≤ 𝒮_k (reversal); damping back on with the raw increment.
    let f = s.step(-0.3, &p, 0.1);
    assert!((s.history() - 0.5).abs() < 1e-15 && s.mode() == Mode::Static);
    assert!((s.damping() + 6.0).abs() < 1e-12 && (f - (5.0 - 6.0)).abs() < 1e-12);
    // Negative side: the cap uses |h| and keeps the sign (docs/tracking.md §4.2).
    let mut s = Slider::<f64>::new();
    s.step(-3.0, &p, 0.1);
    assert_eq!((s.history(), s.mode()), (-1.0, Mode::Kinetic));
    // Zero thresholds (N = 0): h = 0 without NaN.
    let z = SliderParams { stiffness: 10.0, damping: 2.0, static_threshold: 0.0, kinetic_threshold: 0.0 };
    let mut v = Slider::<DVec3>::new();
    v.step(DVec3::new(1.0, 2.0, 0.0), &z, 0.1);
    assert_eq!(v.history(), DVec3::ZERO);
    assert!(v.is_finite());
    v.step(DVec3::ZERO, &z, 0.1);
    assert_eq!((v.history(), v.mode(), v.total()), (DVec3::ZERO, Mode::Static, DVec3::ZERO));
    // Vector capping scales the vector.
    let mut v = Slider::<DVec3>::new();
    v.step(DVec3::new(3.0, 4.0, 0.0), &p, 0.1);
    assert!(close(v.history(), DVec3::new(0.6, 0.8, 0.0), 1e-15));
}

#[test]
fn zero_normal_force_releases_histories_keeps_tracking() {
    let m = material();
    let cfg = TrackingConfig::default();
    let pos = DVec3::new(0.0, 0.0, R);
    let mut st = ContactState::default();
    st.update(&m, &cfg, &sphere_on_ground(pos, DQuat::IDENTITY, 49.0)).unwrap();
    let o = st
        .update(&m, &cfg, &sphere_on_ground(pos + DVec3::X * 1e-6, DQuat::from_rotation_z(1e-4), 49.0))
        .unwrap();
    assert!(
        st.slide().history().length() > 0.0 && st.spin().history() != 0.0 && o.wrench_j.force != DVec3::ZERO
    );
    // N = 0 (and N < 0): loads exactly zero, histories 0, no NaN, contact still tracked.
    for n in [0.0, -5.0] {
        let o = st
            .update(&m, &cfg, &sphere_on_ground(pos + DVec3::X * 2e-6, DQuat::from_rotation_z(2e-4), n))
            .unwrap();
        assert_eq!(o.wrench_i, Wrench::default());
        assert_eq!(o.wrench_j, Wrench::default());
        assert_eq!(st.slide().history(), DVec3::ZERO);
        assert_eq!(st.spin().history(), 0.0);
        assert!(st.is_started());
    }
    // Load returns: tracking continues without an onset step.
    let o = st
        .update(&m, &cfg, &sphere_on_ground(pos + DVec3::X * 3e-6, DQuat::from_rotation_z(2e-4), 49.0))
        .unwrap();
    assert!(!o.onset && o.wrench_j.force.x < 0.0);
}

#[test]
fn nan_inputs_are_rejected_and_keep_the_state() {
    let m = material();
    let cfg = TrackingConfig::default();
    let pos = DVec3::new(0.0, 0.0, R);
    let mut st = ContactState::default();
    st.update(&m, &cfg, &sphere_on_ground(pos, DQuat::IDENTITY, 49.0)).unwrap();
    st.update(&m, &cfg, &sphere_on_ground(pos + DVec3::X * 1e-6, DQuat::IDENTITY, 49.0)).unwrap();
    let before = st;
    let good = sphere_on_ground(pos + DVec3::X * 2e-6, DQuat::IDENTITY, 49.0);
    let mut bads = Vec::new();
    let mut b = good;
    b.normal_force = f64::NAN;
    bads.push(b);
    let mut b = good;
    b.point_j.x = f64::NAN;
    bads.push(b);
    let mut b = good;
    b.body_j.rotation = DQuat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    bads.push(b);
    let mut b = good;
    b.body_j.position.y = f64::INFINITY;
    bads.push(b);
    let mut b = good;
    b.dt = 0.0;
    bads.push(b);
    let mut b = good;
    b.normal = DVec3::ZERO;
    bads.push(b);
    let mut b = good;
    b.inertia.mass = -1.0;
    bads.push(b);
    let mut b = good;
    b.body_j.surface = Surface::Sphere { radius: -1.0 };
    bads.push(b);
    for b in bads {
        let e = st.update(&m, &cfg, &b).unwrap_err();
        assert!(!e.to_string().is_empty());
        assert_eq!(st, before, "state changed on error {e}");
    }
    assert!(st.update(&m, &cfg, &good).is_ok());
}

// ---------------------------------------------------------------- roll (docs/tracking.md §3, Table 1)

#[test]
fn roll_capacities_ball_on_plane() {
    // Ball on a plane rotated in place about y: roll saturates at K_R Θ^s = 2 η_r R μs N on the
    // transition step, then at 2 η_r R μk N (docs/tracking.md §3.3, T9). The ground gets no roll torque.
    let (eta, n) = (0.3, 49.0);
    let m = material();
    let cfg = TrackingConfig::default();
    let pos = DVec3::new(0.0, 0.0, R);
    let mut st = ContactState::default();
    st.update(&m, &cfg, &sphere_on_ground(pos, DQuat::IDENTITY, n)).unwrap();
    let mut seen = Vec::new();
    for k in 1..200 {
        let o =
            st.update(&m, &cfg, &sphere_on_ground(pos, DQuat::from_rotation_y(1e-4 * k as f64), n)).unwrap();
        assert_eq!(o.roll_torque_i, DVec3::ZERO, "the ground never receives a roll torque");
        seen.push((st.roll_j().mode(), st.roll_j().elastic().length(), o.roll_torque_j));
    }
    let first_k = seen.iter().position(|s| s.0 == Mode::Kinetic).unwrap();
    assert!((seen[first_k].1 - 2.0 * eta * R * 0.25 * n).abs() < 1e-9, "static capacity {}", seen[first_k].1);
    assert!((seen[first_k + 1].1 - 2.0 * eta * R * 0.2 * n).abs() < 1e-9);
    // Roll torque opposes the rotation about +y: τ_j = n × 𝒯_j = −ŷ·K_RΘ.
    let t = seen.last().unwrap().2;
    assert!(t.y < 0.0 && (t.y + 2.0 * eta * R * 0.2 * n).abs() < 1e-9, "{t}");
}

#[test]
fn table1_rows() {
    let (eta, r, n, k_e) = (0.3, 0.2, 49.0, 1e5);
    let m = material();
    let k = 1.0 / r;
    for mode in [Mode::Static, Mode::Kinetic] {
        let mu = m.mu(mode);
        // Identical: K_R = η_r R² K_E, Θ = μN/(R K_E) = 𝒮/R = η_r μ R N/K_R.
        let d = m.derive(n, k, k, 0.0, 0.0);
        let th = if mode == Mode::Static { d.roll_static } else { d.roll_kinetic };
        assert!((d.roll_stiffness - eta * r * r * k_e).abs() < 1e-9);
        assert!((th - mu * n / (r * k_e)).abs() < 1e-15);
        assert!((th - mu * n / k_e / r).abs() < 1e-15);
        assert!((th - eta * mu * r * n / d.roll_stiffness).abs() < 1e-15);
        // Plane: K_R = 4 η_r R² K_E, Θ = μN/(2R K_E) = 2 η_r μ R N/K_R.
        let d = m.derive(n, k, 0.0, 0.0, 0.0);
        let th = if mode == Mode::Static { d.roll_static } else { d.roll_kinetic };
        assert!((d.roll_stiffness - 4.0 * eta * r * r * k_e).abs() < 1e-9);
        assert!((th - mu * n / (2.0 * r * k_e)).abs() < 1e-15);
        assert!((th - 2.0 * eta * mu * r * n / d.roll_stiffness).abs() < 1e-15);
        // Mirror (κ_j = −κ_i): roll disabled (docs/tracking.md §3.3 DECISION).
        let d = m.derive(n, k, -k, 0.0, 0.0);
        assert_eq!((d.roll_stiffness, d.roll_static), (0.0, 0.0));
    }
}

#[test]
fn degenerate_curvature_disables_roll_in_the_update() {
    // A ball in a conforming spherical cavity (κ_i + κ_j = 0 ≤ ε_κ): zero roll torque, Θ = 0.
    let m = material();
    let cfg = TrackingConfig::default();
    let input = |rot: DQuat| ContactInput {
        body_i: ContactBody::ground(Surface::ConcaveSphere { radius: R, center: DVec3::new(0.0, 0.0, R) }),
        body_j: ContactBody::new(DVec3::new(0.0, 0.0, R), rot, Surface::Sphere { radius: R }),
        point_i: DVec3::ZERO,
        point_j: DVec3::ZERO,
        normal: DVec3::NEG_Z,
        normal_force: 49.0,
        dt: DT,
        inertia: DampingInertia::new(5.0, 0.08, 0.08),
    };
    let (st, o) = two_steps(input(DQuat::IDENTITY), input(DQuat::from_rotation_y(1e-3)), &m, &cfg);
    assert!((o.kappa_i + 1.0 / R).abs() < 1e-12 && (o.kappa_j - 1.0 / R).abs() < 1e-12);
    assert_eq!(o.roll_torque_j, DVec3::ZERO);
    assert_eq!(st.roll_j().history(), DVec3::ZERO);
}

// ---------------------------------------------------------------- curvatures (§1.6)

#[test]
fn curvatures() {
    // Sphere ±1/R.
    assert_eq!(Surface::Sphere { radius: 0.5 }.normal_curvature(DVec3::ZERO, DVec3::X), 2.0);
    let cav = Surface::concave_sphere(0.5, DVec3::ZERO).unwrap();
    assert_eq!(cav.normal_curvature(DVec3::ZERO, DVec3::X), -2.0);
    assert_eq!(cav.mean_curvature(DVec3::ZERO), -2.0);
    // Ellipsoid tip (0,0,−c): κ = c/a² along x (S-4 check); mean (S-5): upright 125, flat 29.
    let e = Surface::ellipsoid(0.02, 0.02, 0.05).unwrap();
    let tip = DVec3::new(0.0, 0.0, -0.05);
    assert!((e.normal_curvature(tip, DVec3::X) - 0.05 / 0.0004).abs() < 1e-9);
    assert!((e.mean_curvature(tip) - 125.0).abs() < 1e-9);
    assert!((e.mean_curvature(DVec3::new(-0.02, 0.0, 0.0)) - 29.0).abs() < 1e-9);
    // Side point (a, 0, 0): curvature along z is a/c², along y is a/b² = 1/a.
    let side = DVec3::new(0.02, 0.0, 0.0);
    assert!((e.normal_curvature(side, DVec3::Z) - 0.02 / 0.0025).abs() < 1e-9);
    assert!((e.normal_curvature(side, DVec3::Y) - 50.0).abs() < 1e-9);
    // Points slightly off the surface are scaled onto it.
    assert!((e.mean_curvature(tip * 1.001) - 125.0).abs() < 1e-9);
    // Sphere as ellipsoid: 1/R both ways.
    let s = Surface::ellipsoid(0.3, 0.3, 0.3).unwrap();
    let x = DVec3::new(0.1, 0.2, 0.2);
    assert!((s.mean_curvature(x) - 1.0 / 0.3).abs() < 1e-12);
    assert!((s.normal_curvature(x, DVec3::new(2.0, -1.0, 0.0).normalize()) - 1.0 / 0.3).abs() < 1e-12);
    // Validation.
    assert!(Surface::sphere(0.0).is_err() && Surface::ellipsoid(1.0, f64::NAN, 1.0).is_err());
    assert!(Surface::curvature(f64::INFINITY, 0.0).is_err());
}

#[test]
fn sphere_arc_is_the_great_circle() {
    // |OA|·atan2(|OA×OB|, OA·OB): exact for a rotation by θ, and accurate at tiny angles.
    let s = Surface::Sphere { radius: 0.2 };
    for th in [1e-9, 1e-4, 0.5, 3.0] {
        let a = DQuat::from_rotation_y(th) * DVec3::new(0.0, 0.0, -0.2);
        let arc =
            s.arc_length(ArcMode::Geodesic, DVec3::ZERO, DQuat::IDENTITY, a, DVec3::new(0.0, 0.0, -0.2));
        assert!((arc - 0.2 * th).abs() < 1e-15 * th.max(1.0) * 10.0, "θ = {th}: {arc}");
        let chord = s.arc_length(ArcMode::Chord, DVec3::ZERO, DQuat::IDENTITY, a, DVec3::new(0.0, 0.0, -0.2));
        assert!((chord - 0.4 * (th / 2.0).sin()).abs() < 1e-15);
    }
}

#[test]
fn counter_spin_modes() {
    let p = DVec3::X;
    let n = DVec3::Z;
    assert!(close(
        counter_spin(p, n, 0.1, CounterSpin::Paper),
        DVec3::new(0.1f64.cos(), 0.1f64.sin(), 0.0),
        1e-15
    ));
    assert!(close(
        counter_spin(p, n, 0.1, CounterSpin::Reversed),
        DVec3::new(0.1f64.cos(), -(0.1f64.sin()), 0.0),
        1e-15
    ));
    assert_eq!(counter_spin(p, n, 0.1, CounterSpin::Off), p);
}

#[test]
fn history_is_transported_with_a_tilting_normal() {
    // A tilting normal rotates S into the new tangent plane and keeps its magnitude (§5.2 E).
    let m = Material::new(0.5, 0.4).unwrap().with_slide_damping(Damping::Fixed(0.0)).unwrap();
    let cfg = TrackingConfig::default();
    let mk = |x: f64, n: DVec3| ContactInput {
        body_i: ContactBody::ground(Surface::Plane),
        body_j: ContactBody::new(DVec3::new(x, 0.0, 0.1), DQuat::IDENTITY, Surface::Plane),
        point_i: DVec3::new(x, 0.0, 0.0),
        point_j: DVec3::new(x, 0.0, 0.0),
        normal: n,
        normal_force: 10.0,
        dt: DT,
        inertia: DampingInertia::new(1.0, 0.0, 0.0),
    };
    let mut st = ContactState::default();
    st.update(&m, &cfg, &mk(0.0, DVec3::NEG_Z)).unwrap();
    st.update(&m, &cfg, &mk(1e-6, DVec3::NEG_Z)).unwrap();
    let s0 = st.slide().history().length();
    let n1 = DQuat::from_rotation_y(0.1) * DVec3::NEG_Z;
    st.update(&m, &cfg, &mk(1e-6, n1)).unwrap();
    let s1 = st.slide().history();
    assert!(s1.dot(n1).abs() < 1e-20 && (s1.length() - s0).abs() < 1e-18, "{s1}");
}

// ---------------------------------------------------------------- property tests

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The capped history never exceeds the threshold of the mode it ends in (up to rounding),
    /// and loads stay finite.
    #[test]
    fn capped_history_respects_active_threshold(
        incs in proptest::collection::vec((-2.0f64..2.0, -2.0f64..2.0), 1..60),
        ts in 0.0f64..1.5, frac in 0.0f64..1.0,
    ) {
        let p = SliderParams { stiffness: 7.0, damping: 0.3, static_threshold: ts, kinetic_threshold: ts * frac };
        let mut v = Slider::<DVec3>::new();
        let mut s = Slider::<f64>::new();
        for (a, b) in incs {
            let before = (v.mode(), s.mode());
            v.step(DVec3::new(a, b, 0.0), &p, 0.01);
            s.step(a, &p, 0.01);
            for (h, prev, mode) in [(v.history().length(), before.0, v.mode()), (s.history().abs(), before.1, s.mode())] {
                // Active threshold: static one while static and on the s→k transition step;
                // kinetic one when the step started and ended in kinetic mode.
                let thr = if prev == Mode::Kinetic && mode == Mode::Kinetic { p.kinetic_threshold } else { p.static_threshold };
                prop_assert!(h <= thr * (1.0 + 1e-12) + 1e-300, "h {} thr {}", h, thr);
            }
            prop_assert!(v.is_finite() && s.is_finite());
        }
    }

    /// Random finite sphere-on-ground motions give finite loads whose slide part never
    /// exceeds μs N plus the (uncapped) stick damping.
    #[test]
    fn update_loads_are_finite(
        steps in proptest::collection::vec((-1e-3f64..1e-3, -1e-3f64..1e-3, -0.05f64..0.05, -0.05f64..0.05, -0.05f64..0.05, 0.0f64..100.0), 1..30)
    ) {
        let m = material();
        let cfg = TrackingConfig::default();
        let mut st = ContactState::default();
        let mut pos = DVec3::new(0.0, 0.0, R);
        let mut rot = DQuat::IDENTITY;
        for (dx, dy, ax, ay, az, n) in steps {
            pos += DVec3::new(dx, dy, 0.0);
            rot = (DQuat::from_scaled_axis(DVec3::new(ax, ay, az)) * rot).normalize();
            let o = st.update(&m, &cfg, &sphere_on_ground(pos, rot, n)).unwrap();
            prop_assert!(o.wrench_i.is_finite() && o.wrench_j.is_finite());
            let elastic = st.slide().elastic().length();
            prop_assert!(elastic <= 0.25 * n * (1.0 + 1e-9) + 1e-12);
            if st.slide().mode() == Mode::Kinetic {
                prop_assert!(st.slide().damping() == DVec3::ZERO);
            }
            let rs = o.derived.roll_static * o.derived.roll_stiffness;
            prop_assert!(st.roll_j().elastic().length() <= rs * (1.0 + 1e-9) + 1e-12);
            prop_assert!(st.spin().history().abs() <= o.derived.spin_static * (1.0 + 1e-9) + 1e-300);
        }
    }
}

#[test]
fn small_angle_helpers_match_libm() {
    use crate::tracking::kinematics::{atan2_small, sin_cos_small};
    let mut rng = Rng(12345);
    for _ in 0..20000 {
        let v = rng.unit();
        // Angles spanning 1e-12 … 1 rad, both signs, and arbitrary positive scale of (y, x).
        let a = v.x * 10f64.powf(-12.0 * v.y.abs());
        let scale = 10f64.powf(3.0 * v.z);
        let (y, x) = (a.sin() * scale, a.cos() * scale);
        let exact = y.atan2(x);
        assert!((atan2_small(y, x) - exact).abs() <= 2.0 * f64::EPSILON * exact.abs(), "{y} {x}");
        let (s, c) = sin_cos_small(a);
        assert!(
            (s - a.sin()).abs() <= 2.0 * f64::EPSILON * a.abs() && (c - a.cos()).abs() <= 2.0 * f64::EPSILON
        );
    }
    assert_eq!(atan2_small(1.0, -1.0), 1.0f64.atan2(-1.0));
    assert_eq!(atan2_small(0.0, 0.0), 0.0);
}

#[test]
fn tangential_effective_mass() {
    use crate::tracking::DampingInertia;
    use glam::DMat3;
    // Sphere: 1/m + R²/(0.4 m R²) = 3.5/m.
    let (m, r) = (5.0, 0.2);
    let inv_i = DMat3::from_diagonal(DVec3::splat(1.0 / (0.4 * m * r * r)));
    let me = DampingInertia::tangential_effective_mass(m, inv_i, DVec3::new(0.0, 0.0, -r), DVec3::NEG_Z);
    assert!((me - m / 3.5).abs() < 1e-12, "{me}");
    // Flat-lying T7 ellipsoid (local x vertical; horizontal axes have I = 3.887e-4 and 1.072e-4):
    // 1/m_eff = 1/m + a²/I_min ≈ 1.49 + 3.73 → 0.19 kg.
    let m = 0.670206;
    let (ia, ic) = (m * (0.02f64.powi(2) + 0.05f64.powi(2)) / 5.0, m * 2.0 * 0.02f64.powi(2) / 5.0);
    let inv_i = DMat3::from_diagonal(DVec3::new(1.0 / ic, 1.0 / ia, 1.0 / ia));
    let me = DampingInertia::tangential_effective_mass(m, inv_i, DVec3::new(0.0, 0.0, -0.02), DVec3::NEG_Z);
    assert!((me - 1.0 / (1.0 / m + 0.0004 / ic)).abs() < 1e-12 && (me - 0.19).abs() < 0.01, "{me}");
    assert_eq!(DampingInertia::tangential_effective_mass(0.0, inv_i, DVec3::Z, DVec3::Z), 0.0);
    assert_eq!(DampingInertia::tangential_effective_mass(1.0, inv_i, DVec3::Z, DVec3::ZERO), 0.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// i↔j relabelling (docs/tracking.md §0.1) for random two-sphere motions: with the counter-spin off the
    /// body wrenches are identical up to rounding; ψ keeps its value.
    #[test]
    fn swap_symmetry_random_motions(
        va in prop::array::uniform3(-0.5f64..0.5), vb in prop::array::uniform3(-0.5f64..0.5),
        wa in prop::array::uniform3(-5.0f64..5.0), wb in prop::array::uniform3(-5.0f64..5.0),
        n in 5.0f64..50.0,
    ) {
        let m = material();
        let cfg = TrackingConfig::default().with_counter_spin(CounterSpin::Off);
        let motion = |k: usize| {
            let t = k as f64 * DT;
            [
                (DVec3::from(va) * t, DQuat::from_scaled_axis(DVec3::from(wa) * t)),
                (DVec3::new(0.0, 0.0, 0.5) + DVec3::from(vb) * t, DQuat::from_scaled_axis(DVec3::from(wb) * t)),
            ]
        };
        let input = |k: usize, a_is_i: bool| {
            let [(pa, qa), (pb, qb)] = motion(k);
            let dir = (pb - pa).normalize();
            let a = ContactBody::new(pa, qa, Surface::Sphere { radius: 0.3 });
            let b = ContactBody::new(pb, qb, Surface::Sphere { radius: 0.2 });
            let inertia = DampingInertia::new(3.0, 0.05, 0.05);
            let (ca, cb) = (pa + dir * 0.3, pb - dir * 0.2);
            if a_is_i {
                ContactInput { body_i: a, body_j: b, point_i: ca, point_j: cb, normal: -dir, normal_force: n, dt: DT, inertia }
            } else {
                ContactInput { body_i: b, body_j: a, point_i: cb, point_j: ca, normal: dir, normal_force: n, dt: DT, inertia }
            }
        };
        let (mut s1, mut s2) = (ContactState::default(), ContactState::default());
        for k in 0..40 {
            let o1 = s1.update(&m, &cfg, &input(k, true)).unwrap();
            let o2 = s2.update(&m, &cfg, &input(k, false)).unwrap();
            prop_assert!((o1.psi - o2.psi).abs() <= 1e-12);
            let scale = 1e-9 * (1.0 + o1.wrench_i.force.length() + o1.wrench_i.torque.length());
            prop_assert!((o1.wrench_i.force - o2.wrench_j.force).length() <= scale);
            prop_assert!((o1.wrench_i.torque - o2.wrench_j.torque).length() <= scale);
            prop_assert!((o1.wrench_j.torque - o2.wrench_i.torque).length() <= scale);
        }
    }
}

#[test]
fn ball_rolling_in_a_bowl() {
    // Ball (j, radius r) rolling without slip inside a spherical cavity (i, radius Rc, concave):
    // the cavity arc Rc·Δφ equals the ball arc r·(Δφ + Δθ) with Δθ = (Rc − r)Δφ/r, so
    // p_i = p_j (no slide increment); κ_i = −1/Rc, κ_j = 1/r, K_R = 4η_r K_E/(1/r − 1/Rc)² (2b);
    // the roll torque on the ball opposes its rolling (docs/tracking.md §1.4, §1.6, §3).
    let (r, rc) = (0.1, 0.5);
    let o = DVec3::new(0.0, 0.0, rc);
    let m = material().with_roll_damping(Damping::Fixed(0.0)).unwrap();
    let cfg = TrackingConfig::default();
    let bowl = ContactBody::ground(Surface::concave_sphere(rc, o).unwrap());
    let input = |phi: f64| {
        let d = DVec3::new(phi.sin(), 0.0, -phi.cos());
        ContactInput {
            body_i: bowl,
            body_j: ContactBody::new(
                o + d * (rc - r),
                DQuat::from_rotation_y((rc - r) * phi / r),
                Surface::Sphere { radius: r },
            ),
            point_i: o + d * rc,
            point_j: o + d * rc,
            normal: d,
            normal_force: 10.0,
            dt: DT,
            inertia: DampingInertia::new(1.0, 0.004, 0.004),
        }
    };
    let mut st = ContactState::default();
    st.update(&m, &cfg, &input(0.0)).unwrap();
    let dphi = 2e-7;
    for k in 1..=5 {
        let o1 = st.update(&m, &cfg, &input(k as f64 * dphi)).unwrap();
        assert!((o1.p_i.length() - rc * dphi).abs() < 1e-15, "{}", o1.p_i.length());
        assert!(
            (o1.p_i - o1.p_j).length() < 1e-12 * rc * dphi + 1e-18,
            "slip {}",
            (o1.p_i - o1.p_j).length()
        );
        assert!((o1.kappa_i + 1.0 / rc).abs() < 1e-12 && (o1.kappa_j - 1.0 / r).abs() < 1e-12);
        let k_r = 4.0 * 0.3 * 1e5 / (1.0 / r - 1.0 / rc).powi(2);
        assert!((o1.derived.roll_stiffness - k_r).abs() < 1e-9 * k_r);
        // Ball spins about +y; its roll torque is along −y with magnitude K_R‖Θ_j‖ (stick).
        assert_eq!(st.roll_j().mode(), Mode::Static);
        let t = o1.roll_torque_j;
        assert!(t.y < 0.0 && (t.length() - k_r * st.roll_j().history().length()).abs() < 1e-9 * t.length());
    }
}

/// `Material::per_newton` gives `derive`'s parameters at every normal force, to rounding, for
/// every roll and spin model but Hertz (`None`), including the clamps and the degenerate
/// inputs `derive` treats as zero.
#[test]
fn per_newton_is_derive_to_rounding() {
    let base = Material::new(0.6, 0.4).unwrap();
    let over =
        RollOverride { stiffness: 50.0, static_threshold: 0.02, kinetic_threshold: 0.01, per_newton: false };
    let materials = [
        base,
        base.with_roll_eta(0.0)
            .unwrap()
            .with_spin(SpinModel::Heuristic { eta_psi: 0.0, curvature: None })
            .unwrap(),
        base.with_roll_eta(0.05)
            .unwrap()
            .with_spin(SpinModel::Heuristic { eta_psi: 0.03, curvature: Some(20.0) })
            .unwrap(),
        base.with_rolling_resistances(0.002, 0.001)
            .unwrap()
            .with_spinning_resistances(0.001, 0.0005)
            .unwrap(),
        base.with_roll_override(over).unwrap(),
        base.with_roll_override(RollOverride { per_newton: true, ..over }).unwrap(),
        Material::new(1.0e4, 1.0e4).unwrap().with_roll_eta(1.0e4).unwrap(),
    ];
    let curvatures =
        [(10.0, 0.0, 10.0, 0.0), (10.0, 5.0, 10.0, 5.0), (0.0, 0.0, 0.0, 0.0), (1e9, 1e9, 1e9, 1e9)];
    for m in materials {
        for (ki, kj, mi, mj) in curvatures {
            let p = m.per_newton(ki, kj, mi, mj).expect("not Hertz");
            for n in [0.0, 1e-9, 0.5, 9.81, 1e3, 1e30, -1.0, f64::NAN, f64::INFINITY] {
                let (a, b) = (p.at(n), m.derive(n, ki, kj, mi, mj));
                let close = |x: f64, y: f64| (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs());
                let fields = |d: Derived| {
                    [
                        d.n,
                        d.slide_stiffness,
                        d.slide_static,
                        d.slide_kinetic,
                        d.roll_stiffness,
                        d.roll_static,
                        d.roll_kinetic,
                        d.spin_stiffness,
                        d.spin_static,
                        d.spin_kinetic,
                    ]
                };
                let (av, bv) = (fields(a), fields(b));
                for k in 0..10 {
                    assert!(
                        close(av[k], bv[k]),
                        "{m:?} κ ({ki}, {kj}, {mi}, {mj}) N {n}: field {k}: {} vs {}",
                        av[k],
                        bv[k]
                    );
                }
            }
        }
    }
    let hertz = base.with_spin(SpinModel::hertz(2.0e11, 0.3).unwrap()).unwrap();
    assert!(hertz.per_newton(10.0, 0.0, 10.0, 0.0).is_none());
}

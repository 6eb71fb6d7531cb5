//! The two-contact realizability diagnostic built from rapier data (docs/realizability.md §3–4, §7.2): numbers against the model notes' closed forms, the per-step
//! monitor, stock contacts, and bad data reported as error entries.

use tribo::realizability::Status;
use tribo::realizability::Transition;
use tribo::DVec3;
use tribo_lab::rapier::scenarios::{Friction, Sim};
use tribo_lab::rapier::trough::{apply_torque, basis, scene, TroughConfig};
use tribo_rapier::diagnostics::{
    body_realizability, two_contact_realizability, RealizabilitySettings, TwoContactError,
};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, TriboRapier};

fn d(v: Vector) -> DVec3 {
    DVec3::new(v.x as f64, v.y as f64, v.z as f64)
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-12)
}

/// Ball in the trough at rest under `m`, report before the torque acts.
fn trough_report(friction: Friction, m: [f64; 3]) -> tribo_rapier::diagnostics::BodyRealizability {
    let cfg = TroughConfig::new(friction);
    let (mut sim, ball) = scene(&cfg);
    apply_torque(&mut sim, ball, &cfg, m);
    let store = sim.tribo.take().unwrap_or_default();
    body_realizability(
        ball,
        &sim.world.bodies,
        &sim.world.colliders,
        &sim.world.narrow_phase,
        sim.world.gravity,
        &store,
    )
    .expect("two rolling contacts")
}

// Tolerance of the rapier-built numbers: the contact points are the midpoints of rapier's two
// surface points (resting penetration ~1e-4 r shifts them), all data are f32, so the model notes'
// closed forms are met to ~1e-4 relative; 2e-3 leaves room.
const TOL: f64 = 2e-3;

#[test]
fn trough_numbers_match_spec_b2_b3_b5() {
    // docs/realizability.md §7.2 B3 (m = (0.2, 0.1, 0.3), μ = 0.3, j = 0.4, g = 9.81): one-sided slip
    // accelerations u̇1⁻(σ=±1) = −5.970531868389457, 11.42080992252091 and
    // u̇1⁺(σ=±1) = −8.646122913144897, 0.7184457434991467 m/s²; B2: v̇ = 0.385373195746668 m/s²;
    // B5: realizable.
    let m = [0.2, 0.1, 0.3];
    let rep = trough_report(Friction::Tribo, m);
    let [ex, ey, ez] = basis();
    // contacts[0] = P⁺ is on the e_y wall (inserted first), contacts[1] = P⁻ on the e_x wall.
    assert!(rep.contacts[0].normal.dot(d(ey)) > 0.999, "{:?}", rep.contacts);
    assert!(rep.contacts[1].normal.dot(d(ex)) > 0.999, "{:?}", rep.contacts);
    for c in &rep.contacts {
        assert!(c.tribo);
        assert!((c.mu - 0.3).abs() < 1e-12, "μs of the material: {}", c.mu);
    }
    let out = rep.outcome.as_ref().expect("analysis");
    assert!(out.realizable && rep.realizable());
    assert_eq!(out.status, Status::Realizable);
    assert!(rep.transitions().is_empty());
    // t1± = e_z for the ball (docs/realizability.md B1), so the slip accelerations are along the trough axis;
    // the sign of t1 follows a × n, which is +e_z here.
    assert!(out.geometry.t1[0].dot(d(ez)) > 0.999);
    for (got, want) in out.rs.slip_acc.iter().zip([-5.970531868389457, 11.42080992252091]) {
        assert!(rel(*got, want) < TOL, "RS slip acc {got} vs {want}");
    }
    for (got, want) in out.sr.slip_acc.iter().zip([-8.646122913144897, 0.7184457434991467]) {
        assert!(rel(*got, want) < TOL, "SR slip acc {got} vs {want}");
    }
    let vdot = out.rr.acc_com.dot(d(ez));
    assert!(rel(vdot, 0.385373195746668) < TOL, "v̇ = {vdot}");
    assert!(rep.margin().unwrap() > 0.0);
}

#[test]
fn trough_not_realizable_cases_and_labels() {
    // docs/realizability.md §7.2 B5: m = (0.5, −0.5, 0.2) → not realizable, transitions SR and SS;
    // m = (0.1, 0.3, −0.2) → not realizable (RS); m = (0, 0, 0.6) → SS only (apex m_z3 = 0.5505).
    for (m, want) in [
        ([0.5, -0.5, 0.2], vec![Transition::SR, Transition::SS]),
        ([0.1, 0.3, -0.2], vec![Transition::RS]),
        ([0.0, 0.0, 0.6], vec![Transition::SS]),
    ] {
        let rep = trough_report(Friction::Tribo, m);
        assert!(!rep.realizable(), "{m:?}");
        assert_eq!(rep.status(), Some(Status::NotRealizable));
        assert!(rep.margin().unwrap() < 0.0);
        assert_eq!(rep.transitions(), want.as_slice(), "{m:?}");
        // SR: P⁺ = contacts[0] slips.
        if want.contains(&Transition::SR) {
            assert_eq!(rep.slipping_contacts(Transition::SR)[0].collider, rep.contacts[0].collider);
        }
    }
    // Model-notes B5 (0, 0, 0.6): the upper pole is repelling with R̃ = R√2/g = +0.123853 in
    // (u1⁺, u1⁻, u2) coordinates; in (u1⁺, u1⁻, u_a) the pole d = (0, 0, 1) has
    // R_a = R/c = R/√2 (u2 = √2 u_a), i.e. R_a = 0.123853 g/2.
    let rep = trough_report(Friction::Tribo, [0.0, 0.0, 0.6]);
    let out = rep.outcome.as_ref().unwrap();
    let pole = out.ss.directions.iter().find(|x| x.d.z.abs() > 0.999 && x.r > 0.0).expect("repelling pole");
    assert!(rel(pole.r, 0.123853 * 9.81 / 2.0) < 5e-3, "R = {}", pole.r);
}

#[test]
fn stock_contacts_use_rapier_friction() {
    // Stock world: walls and ball have rapier friction 0.3 (average rule) → μ = 0.3.
    let rep = trough_report(Friction::Stock, [0.2, 0.1, 0.3]);
    for c in &rep.contacts {
        assert!(!c.tribo);
        assert!((c.mu - 0.3).abs() < 1e-6, "{}", c.mu);
    }
    assert!(rep.realizable());
}

#[test]
fn per_step_monitor_matches_on_demand() {
    let cfg = TroughConfig::new(Friction::Tribo);
    let (mut sim, ball) = scene(&cfg);
    let g = sim.world.gravity;
    let t = sim.tribo.as_mut().unwrap();
    assert!(t.realizability_reports().is_empty(), "off by default");
    t.set_realizability(Some(RealizabilitySettings::new(g)));
    apply_torque(&mut sim, ball, &cfg, [0.2, 0.1, 0.3]);
    sim.step();
    let t = sim.tribo.as_ref().unwrap();
    assert_eq!(t.realizability_reports().len(), 1);
    let stored = t.realizability_report(ball).expect("ball report");
    let now =
        two_contact_realizability(&sim.world.bodies, &sim.world.colliders, &sim.world.narrow_phase, g, t);
    assert_eq!(now.len(), 1);
    assert_eq!(stored.realizable(), now[0].realizable());
    assert!(stored.realizable());
    assert!(rel(stored.margin().unwrap(), now[0].margin().unwrap()) < 1e-9);
    let t = sim.tribo.as_mut().unwrap();
    t.set_realizability(None);
    assert!(t.realizability_reports().is_empty());
}

/// A ball of radius 0.1 between a floor (y = 0) and a ceiling touching its top, optionally
/// with zero density / locked rotations / dynamic locked supports.
fn sandwich(density: f32, lock_rot: bool, dynamic_supports: bool) -> (Sim, RigidBodyHandle, TriboRapier) {
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 240.0, Friction::Stock);
    let r = 0.1;
    for y in [-0.5, 2.0 * r + 0.5] {
        let mut b = if dynamic_supports {
            RigidBodyBuilder::dynamic().lock_translations().lock_rotations()
        } else {
            RigidBodyBuilder::fixed()
        };
        b = b.translation(Vector::new(0.0, y, 0.0));
        let h = sim.world.bodies.insert(b);
        sim.world.colliders.insert_with_parent(
            ColliderBuilder::cuboid(1.0, 0.5, 1.0).density(1.0),
            h,
            &mut sim.world.bodies,
        );
    }
    let mut b = RigidBodyBuilder::dynamic().translation(Vector::new(0.0, r, 0.0)).can_sleep(false);
    if lock_rot {
        b = b.lock_rotations();
    }
    let ball = sim.world.bodies.insert(b);
    let c = sim.world.colliders.insert_with_parent(
        ColliderBuilder::ball(r).density(density),
        ball,
        &mut sim.world.bodies,
    );
    let mut tribo = TriboRapier::new();
    tribo.set_material(c, FrictionMaterial::new(0.5, 0.5).unwrap());
    sim.step();
    (sim, ball, tribo)
}

fn report_of(
    sim: &Sim,
    ball: RigidBodyHandle,
    tribo: &TriboRapier,
) -> Option<tribo_rapier::diagnostics::BodyRealizability> {
    body_realizability(
        ball,
        &sim.world.bodies,
        &sim.world.colliders,
        &sim.world.narrow_phase,
        sim.world.gravity,
        tribo,
    )
}

#[test]
fn degenerate_geometry_is_an_error_entry() {
    // Floor and ceiling contacts: the chord is parallel to both normals (docs/realizability.md §3.1 excluded
    // geometry) → an error entry, no panic, no verdict.
    let (sim, ball, tribo) = sandwich(1000.0, false, false);
    let rep = report_of(&sim, ball, &tribo).expect("two contacts");
    assert!(matches!(rep.error(), Some(TwoContactError::Analysis(_))), "{:?}", rep.outcome);
    assert!(!rep.realizable());
    assert!(rep.margin().is_none() && rep.transitions().is_empty());
    assert!(!rep.error().unwrap().to_string().is_empty());
}

#[test]
fn zero_mass_locked_axes_and_moving_supports_are_error_entries() {
    let (sim, ball, tribo) = sandwich(0.0, false, false);
    let rep = report_of(&sim, ball, &tribo).expect("two contacts");
    assert_eq!(rep.error(), Some(&TwoContactError::NonPositiveMass));
    assert!(rep.problem.is_none());

    let (sim, ball, tribo) = sandwich(1000.0, true, false);
    let rep = report_of(&sim, ball, &tribo).expect("two contacts");
    assert_eq!(rep.error(), Some(&TwoContactError::LockedAxes));

    let (sim, ball, tribo) = sandwich(1000.0, false, true);
    let rep = report_of(&sim, ball, &tribo).expect("two contacts");
    assert!(matches!(rep.error(), Some(TwoContactError::MovingSupport { .. })), "{:?}", rep.outcome);
    // The locked supports are dynamic bodies themselves, each touching only the ball: no
    // report for them (one contact each).
    let all = two_contact_realizability(
        &sim.world.bodies,
        &sim.world.colliders,
        &sim.world.narrow_phase,
        sim.world.gravity,
        &tribo,
    );
    assert_eq!(all.len(), 1);
}

#[test]
fn one_contact_bodies_get_no_report_slipping_ones_do() {
    // A ball on a floor: one contact → no report.
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 240.0, Friction::Stock);
    sim.add_ground(5.0);
    let (ball, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.1, 0.0)),
        ColliderBuilder::ball(0.1).density(1000.0),
        &tribo::tracking::Material::new(0.5, 0.5).unwrap(),
    );
    sim.step();
    assert!(report_of(&sim, ball, &TriboRapier::new()).is_none());
    // The trough ball sliding fast along the level trough without rolling: both contacts
    // slip, and the body is still analysed (the verdict is about its rolling state at its
    // pose and loads, docs/realizability.md §9.1). Under gravity alone the two walls carry it
    // with no friction at all (normal forces `m g/√2` each, symmetric): rolling is realizable
    // for any μ > 0.
    let cfg = TroughConfig::new(Friction::Stock);
    let (mut sim, ball) = scene(&cfg);
    sim.world.bodies[ball].set_linvel(Vector::new(0.0, 0.0, 2.0), true);
    let rep = report_of(&sim, ball, &TriboRapier::new()).expect("two contacts, slipping");
    assert!(rep.contacts.iter().all(|c| !c.sticking && c.slip_speed > 1.9), "{:?}", rep.contacts);
    assert!(!rep.rolling());
    assert_eq!(rep.status(), Some(tribo_rapier::Status::Realizable), "{:?}", rep.outcome);
}

#[test]
fn spin_about_the_chord_changes_nothing_for_a_ball() {
    // docs/realizability.md §4.2 / B11: for a sphere the velocity-product terms Ω×(Ω×r) + Ω×Q(Ω×n) cancel
    // exactly when Q = r(I − n nᵀ) (flat wall), so the verdict and the one-sided slip
    // accelerations at Ω_a = 5 rad/s equal those at rest. A wrong curvature tensor (e.g. Q = 0)
    // leaves a normal drift r Ω_a² = 2.5 m/s² and changes the slip accelerations by O(μ·2.5).
    let cfg = TroughConfig::new(Friction::Stock);
    let m = [0.2, 0.1, 0.3];
    let (mut sim, ball) = scene(&cfg);
    apply_torque(&mut sim, ball, &cfg, m);
    let store = TriboRapier::new();
    let rest = report_of(&sim, ball, &store).unwrap();
    let [ex, ey, ez] = basis();
    let a = (ex - ey).normalize();
    let (omega, r) = (5.0f32, cfg.radius);
    // Rolling at both contacts: v = r Ω_a/√2 e_z, ω = Ω_a a.
    let b = &mut sim.world.bodies[ball];
    b.set_angvel(a * omega, true);
    b.set_linvel(ez * (r * omega / std::f32::consts::SQRT_2), true);
    let spin = report_of(&sim, ball, &store).expect("still rolling at both contacts");
    let p = spin.problem.as_ref().unwrap();
    assert!((p.spin - 5.0).abs() < 1e-4, "Ω_a = {}", p.spin);
    // Q = r(I − n nᵀ): e.g. Q n = 0 and Q t = r t.
    for c in &p.contacts {
        assert!((c.curvature_radius * c.normal).length() < 1e-6);
        let t = c.normal.any_orthonormal_vector();
        assert!(((c.curvature_radius * t) - t * r as f64).length() < 1e-4, "{:?}", c.curvature_radius);
    }
    let (o0, o1) = (rest.outcome.as_ref().unwrap(), spin.outcome.as_ref().unwrap());
    assert_eq!(o0.realizable, o1.realizable);
    for k in 0..2 {
        assert!((o0.rs.slip_acc[k] - o1.rs.slip_acc[k]).abs() < 2e-3, "{:?} {:?}", o0.rs, o1.rs);
        assert!((o0.sr.slip_acc[k] - o1.sr.slip_acc[k]).abs() < 2e-3, "{:?} {:?}", o0.sr, o1.sr);
    }
}

/// The per-step monitor reports lift-off (docs/realizability.md §3.11): the ball in the trough
/// with μ = 1.2 under m = (0, 0, ∓1.05) rolls up one wall and leaves the other; the monitor's
/// report after the first step names the contact on the wall that is left (LIFT- for the `e_x`
/// wall at m_z < 0, LIFT+ for the `e_y` wall at m_z > 0) and no slipping contact.
#[test]
fn per_step_monitor_reports_lift_off() {
    let [ex, ey, _] = basis();
    for (mz, want, wall) in [(-1.05, Transition::LiftMinus, ex), (1.05, Transition::LiftPlus, ey)] {
        let cfg = TroughConfig { mu: 1.2, ..TroughConfig::new(Friction::Tribo) };
        let (mut sim, ball) = scene(&cfg);
        let g = sim.world.gravity;
        sim.tribo.as_mut().unwrap().set_realizability(Some(RealizabilitySettings::new(g)));
        apply_torque(&mut sim, ball, &cfg, [0.0, 0.0, mz]);
        sim.step();
        let t = sim.tribo.as_ref().unwrap();
        let rep = t.realizability_report(ball).expect("ball report (both contacts still sticking)");
        assert_eq!(rep.status(), Some(Status::NotRealizable));
        assert_eq!(rep.transitions(), &[want]);
        let lifting = rep.lifting_contacts();
        assert_eq!(lifting.len(), 1);
        assert!(lifting[0].normal.dot(d(wall)) > 0.999, "{:?}", lifting[0]);
        assert!(rep.slipping_contacts(want).is_empty());
        // Separation acceleration (|m_z| − 1)/(1 + j)·g/√2 = 0.2477 m/s² (j = 2/5).
        let out = rep.outcome.as_ref().unwrap();
        let k = if want == Transition::LiftPlus { 0 } else { 1 };
        let expect = 0.05 / 1.4 * 9.81 / std::f64::consts::SQRT_2;
        assert!(rel(out.lift[k].separation_acc, expect) < 2e-2, "{:?}", out.lift);
    }
}

//! Settled colliders off the hook (`Settings::unhook_settled`): the flag, the friction rapier
//! then uses, the normal force of an unhooked contact, and the way back onto the hook.

mod common;

use common::{hooked, resting_box, DT, G, H, MU_K, MU_S, USER_FRICTION};
use tribo::tracking::Mode;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, Settings, TriboRapier};

/// A box at rest goes off the hook with rapier friction μs, its normal force stays m g (the
/// warm start the solver began each step with is taken off the reported impulse), and a push
/// that makes it slide brings the hook back before the next step: μk, and the user's friction.
#[test]
fn a_resting_box_goes_off_the_hook_and_comes_back_when_it_slides() {
    let mut tribo = TriboRapier::new();
    let (mut w, b, c, floor) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
    let weight = 1000.0 * (2.0 * H).powi(3) * G;
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    assert!(tribo.is_unhooked(c) && !hooked(&w, c), "a settled box leaves the hook");
    assert_eq!(w.colliders[c].friction(), MU_S as f32, "rapier friction is μs while off");
    // Off the hook for 30 more steps (awake: no sleeping), its normal force stays m g.
    for _ in 0..30 {
        w.bodies[b].wake_up(true);
        w.step(&mut tribo);
        assert!(tribo.is_unhooked(c));
        let n = tribo.contact(c, floor).unwrap().normal_force;
        assert!((n - weight).abs() < 0.01 * weight, "N {n} vs m g {weight}");
    }
    // A push: the contact slides, and the hook is back before the next step.
    w.bodies[b].set_linvel(Vector::new(2.0, 0.0, 0.0), true);
    w.step(&mut tribo);
    assert_eq!(tribo.contact(c, floor).unwrap().slide, Mode::Kinetic);
    w.step(&mut tribo);
    assert!(!tribo.is_unhooked(c) && hooked(&w, c), "slip brings the hook back");
    assert_eq!(w.colliders[c].friction(), USER_FRICTION, "the user's friction is restored");
    // Hooked again: it slides at μk (deceleration μk g), not at the μs rapier had while off.
    let v0 = w.bodies[b].linvel().x;
    let k = 20;
    for _ in 0..k {
        w.step(&mut tribo);
    }
    let a = (v0 - w.bodies[b].linvel().x) / (k as f32 * DT);
    let expected = MU_K as f32 * G;
    assert!((a - expected).abs() < 0.03 * expected, "deceleration {a} vs μk g {expected}");
}

/// A box sliding on the floor (μs 0.6, μk 0.3, from 1 m/s) at dt = 1/30, 1/60 and 1/240.
///
/// While it slides its contact is off the hook whenever rapier recycles the pair: the hook's
/// whole work for a sliding contact that neither rolls nor spins is μk, which a recycled pair
/// keeps from its last step on the hook (measured: off in 7 of 13, 15 of 22 and 75 of 82
/// sliding steps). It goes back on the hook before its relative pose leaves rapier's recycling
/// bound (rapier would then update the pair in full with the colliders' combined friction, μs),
/// so it stops where μk stops it: v0² / (2 μk g) = 0.170 m.
///
/// Once stopped, it goes off the hook only after a step on it that wrote μs: pushed with
/// 0.45 m g (between μk m g and μs m g) it holds within 1 mm over 2 s (stock rapier with μ = μs
/// moves 0.8, 0.2 and 0.0 mm). A stopped contact that left the hook straight away would keep
/// the μk of its last sliding step in the recycled pair: the same push then moves the box 2.4,
/// 3.7 and 3.8 mm before its contact goes back on the hook.
#[test]
fn a_sliding_box_leaves_the_hook_and_holds_once_stopped() {
    let (mu_s, mu_k, v0) = (0.6, 0.3, 1.0f32);
    for dt in [1.0 / 30.0, 1.0 / 60.0, 1.0 / 240.0f32] {
        let mut tribo = TriboRapier::new();
        let (mut w, b, c, floor) = resting_box(&mut tribo, mu_s as f32, ActiveHooks::empty());
        w.params.dt = dt;
        tribo.set_material(c, FrictionMaterial::new(mu_s, mu_k).unwrap());
        *w.bodies[b].activation_mut() = RigidBodyActivation::cannot_sleep();
        w.bodies[b].set_linvel(Vector::new(v0, 0.0, 0.0), true);
        let (mut sliding, mut off) = (0, 0);
        for _ in 0..(1.5 / dt) as usize {
            w.step(&mut tribo);
            if w.bodies[b].linvel().length() > 1e-3 {
                sliding += 1;
                off += usize::from(tribo.is_unhooked(c));
            }
        }
        assert!(off * 3 >= sliding, "dt {dt}: off the hook in {off} of {sliding} sliding steps");
        let x = w.bodies[b].translation().x;
        let expected = v0 * v0 / (2.0 * mu_k as f32 * G);
        assert!(
            (x - expected).abs() <= 0.01 * expected + 0.5 * v0 * dt,
            "dt {dt}: stopped at {x} m, μk: {expected} m"
        );
        assert!(tribo.is_unhooked(c), "dt {dt}: stopped, off the hook");
        assert_eq!(tribo.contact(c, floor).unwrap().slide, Mode::Static);
        let mass = w.bodies[b].mass();
        w.bodies[b].add_force(Vector::new(0.45 * mass * G, 0.0, 0.0), true);
        for _ in 0..(2.0 / dt) as usize {
            w.step(&mut tribo);
        }
        let moved = w.bodies[b].translation().x - x;
        assert!(moved.abs() < 1e-3, "dt {dt}: pushed within μs m g, moved {moved} m");
        assert!(w.bodies[b].linvel().length() < 1e-4, "dt {dt}: {:?}", w.bodies[b].linvel());
    }
}

/// The user's own `MODIFY_SOLVER_CONTACTS` flag is never taken off, and their friction stays.
#[test]
fn the_users_hook_flag_stays() {
    let mut tribo = TriboRapier::new();
    let (mut w, _, c, _) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::MODIFY_SOLVER_CONTACTS);
    for _ in 0..60 {
        w.step(&mut tribo);
        assert!(hooked(&w, c) && !tribo.is_unhooked(c));
    }
    assert_eq!(w.colliders[c].friction(), USER_FRICTION);
}

/// A pair rapier would combine to another coefficient than μs (a floor without a material and
/// friction 0.5: rapier's average of 0.6 and 0.5 is 0.55) keeps its collider on the hook.
#[test]
fn an_inexact_combination_keeps_the_hook() {
    let mut tribo = TriboRapier::new();
    let (mut w, _, c, _) = resting_box(&mut tribo, 0.5, ActiveHooks::empty());
    for _ in 0..60 {
        w.step(&mut tribo);
        assert!(hooked(&w, c) && !tribo.is_unhooked(c));
    }
    assert_eq!(w.colliders[c].friction(), USER_FRICTION);
}

/// `unhook_settled: false` keeps every material collider on the hook.
#[test]
fn the_switch_keeps_every_collider_hooked() {
    let mut tribo = TriboRapier::with_settings(Settings { unhook_settled: false, ..Settings::default() });
    let (mut w, _, c, _) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
    for _ in 0..60 {
        w.step(&mut tribo);
        assert!(hooked(&w, c) && !tribo.is_unhooked(c));
    }
    // Turned off while the box is off the hook: back on, with the user's friction.
    let mut tribo = TriboRapier::new();
    let (mut w, _, c, _) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    assert!(tribo.is_unhooked(c));
    tribo.set_settings(Settings { unhook_settled: false, ..Settings::default() });
    w.step(&mut tribo);
    assert!(hooked(&w, c) && !tribo.is_unhooked(c));
    assert_eq!(w.colliders[c].friction(), USER_FRICTION);
}

/// Removing the material of a collider that is off the hook restores its friction and flag.
#[test]
fn removing_the_material_restores_the_collider() {
    let mut tribo = TriboRapier::new();
    let (mut w, _, c, _) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    assert!(tribo.is_unhooked(c));
    tribo.remove_material(c);
    w.step(&mut tribo);
    assert!(!tribo.is_unhooked(c) && hooked(&w, c));
    assert_eq!(w.colliders[c].friction(), USER_FRICTION);
}

/// A flag put back on a collider that is off the hook is the user's (the hook stays on, with
/// their friction), unless `set_hook_flag_owner` says it is tribo's (an adapter re-adding its
/// flag): then the user's friction comes back with the hook, and the still settled box goes
/// off again with rapier friction μs.
#[test]
fn a_flag_put_back_while_off_is_the_told_owners() {
    for told_tribo in [false, true] {
        let mut tribo = TriboRapier::new();
        let (mut w, _, c, _) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
        for _ in 0..30 {
            w.step(&mut tribo);
        }
        assert!(tribo.is_unhooked(c) && !hooked(&w, c));
        let hooks = w.colliders[c].active_hooks() | ActiveHooks::MODIFY_SOLVER_CONTACTS;
        w.colliders[c].set_active_hooks(hooks);
        if told_tribo {
            tribo.set_hook_flag_owner(c, true);
        }
        w.step(&mut tribo);
        assert!(!tribo.is_unhooked(c) || told_tribo, "the user's flag: back on the hook");
        for _ in 0..30 {
            w.step(&mut tribo);
        }
        assert_eq!(
            (tribo.is_unhooked(c), hooked(&w, c)),
            (told_tribo, !told_tribo),
            "told tribo's: {told_tribo}"
        );
        let friction = if told_tribo { MU_S as f32 } else { USER_FRICTION };
        assert_eq!(w.colliders[c].friction(), friction, "told tribo's: {told_tribo}");
    }
}

/// Removing the material of a collider off the hook whose flag the caller manages
/// (`set_hook_flag_owner`) restores the user's friction and leaves the flag off: taking its own
/// flag off with the material is the caller's part (a collider whose flag the store set itself
/// gets it back, `removing_the_material_restores_the_collider`).
#[test]
fn removing_the_material_leaves_a_told_flag_to_the_caller() {
    let mut tribo = TriboRapier::new();
    let (mut w, _, c, _) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
    w.colliders[c].set_active_hooks(ActiveHooks::MODIFY_SOLVER_CONTACTS | ActiveHooks::FILTER_CONTACT_PAIRS);
    tribo.set_hook_flag_owner(c, true);
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    assert!(tribo.is_unhooked(c) && !hooked(&w, c));
    // The caller takes its flag off with the material.
    tribo.remove_material(c);
    w.step(&mut tribo);
    assert!(!tribo.is_unhooked(c));
    assert_eq!(w.colliders[c].active_hooks(), ActiveHooks::FILTER_CONTACT_PAIRS);
    assert_eq!(w.colliders[c].friction(), USER_FRICTION);
}

//! Contacts of sleeping bodies: `before_step` and `after_step` skip the checks of a contact
//! that cannot have changed (a quiet contact), and what the user changes while the bodies sleep
//! (without waking them) is still seen in the next step: a shape, a partner's friction, a hook
//! flag, a removed collider.

mod common;

use common::{hooked, resting_box, rolling_material, World, H, MU_K, MU_S, USER_FRICTION};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{Settings, TriboRapier};

/// Steps until `b` sleeps (at most 10 s), and a few steps more.
fn step_until_asleep(w: &mut World, tribo: &mut TriboRapier, b: RigidBodyHandle) {
    let mut k = 0;
    while !w.bodies[b].is_sleeping() {
        w.step(tribo);
        k += 1;
        assert!(k < 600, "the body does not fall asleep");
    }
    for _ in 0..5 {
        w.step(tribo);
    }
    assert!(w.bodies[b].is_sleeping());
}

/// A ball of radius R = 0.1 m asleep on a flat floor, whose shape becomes a ball of radius
/// 0.5 m with the same top while the ball sleeps (a fixed collider without a body). rapier wakes
/// the ball in the next step, which the contact starts asleep; after that step the contact's
/// roll capacity is already the one of two balls, `2 η_r μ N / (1/R + 1/0.5)` = 0.004167 N·m
/// per newton, not the flat floor's `2 η_r μ N R` = 0.005.
#[test]
fn a_shape_changed_while_the_body_sleeps_is_seen_in_the_next_step() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let (floor, b, c) = w.rolling_ball_on_floor(&mut tribo);
    step_until_asleep(&mut w, &mut tribo, b);
    let per_newton = |tribo: &TriboRapier| {
        let i = tribo.contact(floor, c).unwrap();
        assert!(i.normal_force > 0.0);
        i.roll_capacity / i.normal_force
    };
    let flat = 2.0 * 0.05 * 0.5 * 0.1;
    assert!((per_newton(&tribo) - flat).abs() < 1e-5, "flat floor: {}", per_newton(&tribo));
    // The floor's centre is 0.5 m below its top.
    w.colliders.get_mut(floor).unwrap().set_shape(SharedShape::ball(0.5));
    w.step(&mut tribo);
    let two_balls = 2.0 * 0.05 * 0.5 / (1.0 / 0.1 + 1.0 / 0.5);
    assert!((per_newton(&tribo) - two_balls).abs() < 1e-5, "ball floor: {}", per_newton(&tribo));
}

/// The resting box asleep on a floor without a material whose rapier friction is μs, so that
/// its collider is off the hook.
fn sleeping_box(tribo: &mut TriboRapier) -> (World, RigidBodyHandle, ColliderHandle, ColliderHandle) {
    let (mut w, b, c, floor) = resting_box(tribo, MU_S as f32, ActiveHooks::empty());
    step_until_asleep(&mut w, tribo, b);
    assert!(tribo.is_unhooked(c), "a settled box leaves the hook");
    (w, b, c, floor)
}

/// The floor's friction changed while the box sleeps: rapier's combination of the two
/// colliders' values is no longer the material's μs, so the box goes back on the hook at the
/// next step (off it, rapier's next full update of the pair would apply the new combination).
#[test]
fn a_partners_friction_changed_while_asleep_puts_the_collider_back_on_the_hook() {
    let mut tribo = TriboRapier::new();
    let (mut w, b, c, floor) = sleeping_box(&mut tribo);
    w.colliders[floor].set_friction(0.2);
    w.step(&mut tribo);
    assert!(w.bodies[b].is_sleeping());
    assert!(!tribo.is_unhooked(c) && hooked(&w, c), "the box stays off the hook");
    assert_eq!(w.colliders[c].friction(), USER_FRICTION, "the user's friction is restored");
    // And back off once the floor's friction is μs again.
    w.colliders[floor].set_friction(MU_S as f32);
    for _ in 0..3 {
        w.step(&mut tribo);
    }
    assert!(tribo.is_unhooked(c) && !hooked(&w, c));
}

/// The user sets the hook flag of a sleeping box tribo had taken off the hook: the flag is the
/// user's from the next step on, and stays (with the user's friction back).
#[test]
fn a_hook_flag_set_while_asleep_is_the_users() {
    let mut tribo = TriboRapier::new();
    let (mut w, b, c, _) = sleeping_box(&mut tribo);
    let flags = w.colliders[c].active_hooks() | ActiveHooks::MODIFY_SOLVER_CONTACTS;
    w.colliders.get_mut(c).unwrap().set_active_hooks(flags);
    for _ in 0..5 {
        w.step(&mut tribo);
        assert!(hooked(&w, c), "the user's flag was taken off");
    }
    assert!(w.bodies[b].is_sleeping());
    assert!(!tribo.is_unhooked(c));
    assert_eq!(w.colliders[c].friction(), USER_FRICTION, "the user's friction is restored");
}

/// A collider without a material (its contact with the floor takes the floor's) removed from a
/// sleeping body without waking it: its contact state goes at the next step, and so does the
/// contact's roll motor joint.
#[test]
fn a_collider_removed_from_a_sleeping_body_releases_its_contact() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let floor = w.floor();
    tribo.set_material(floor, rolling_material());
    let (b, c) = w.ball(0.1, Vector::new(0.0, 0.1, 0.0));
    step_until_asleep(&mut w, &mut tribo, b);
    assert_eq!(tribo.joint_count(), 1);
    w.remove_collider(c, false);
    w.step(&mut tribo);
    assert!(w.bodies[b].is_sleeping());
    assert!(tribo.contact(floor, c).is_none(), "the removed collider's contact is kept");
    assert_eq!(tribo.joint_count(), 0);
    assert_eq!(w.marked_joints(), 0, "the contact's joint is left in the world");
}

/// A sleeping ball made fixed without waking it: its contact with the (parentless) floor has no
/// dynamic side any more, and goes at the next step with its roll motor joint, as it does for
/// an awake ball.
#[test]
fn a_sleeping_body_made_fixed_releases_its_contact() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let (floor, b, c) = w.rolling_ball_on_floor(&mut tribo);
    step_until_asleep(&mut w, &mut tribo, b);
    assert_eq!(tribo.joint_count(), 1);
    w.bodies[b].set_body_type(RigidBodyType::Fixed, false);
    w.step(&mut tribo);
    assert!(tribo.contact(floor, c).is_none(), "the contact of a fixed body is kept");
    assert_eq!(tribo.joint_count(), 0);
    assert_eq!(w.marked_joints(), 0, "the contact's joint is left in the world");
}

/// Two balls asleep on the floor; in the same frame one is made fixed without waking it and the
/// other's collider changes (its friction), so that the store lists its parked contacts again
/// in the next `before_step`: the fixed ball's contact still goes in that step with its joint,
/// and the other ball keeps its contact.
#[test]
fn a_body_made_fixed_while_parked_contacts_are_relisted_releases_its_contact() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let (floor, a, ca) = w.rolling_ball_on_floor(&mut tribo);
    let (b, cb) = w.ball(0.1, Vector::new(1.0, 0.1, 0.0));
    tribo.set_material(cb, rolling_material());
    step_until_asleep(&mut w, &mut tribo, a);
    step_until_asleep(&mut w, &mut tribo, b);
    assert_eq!(tribo.joint_count(), 2);
    w.bodies[a].set_body_type(RigidBodyType::Fixed, false);
    w.colliders[cb].set_friction(0.9);
    w.step(&mut tribo);
    assert!(tribo.contact(floor, ca).is_none(), "the contact of a fixed body is kept");
    assert!(tribo.contact(floor, cb).is_some());
    assert_eq!(tribo.joint_count(), 1);
    assert_eq!(w.marked_joints(), 1);
}

/// A sleeping box off the hook made fixed without waking it: its contact with the floor goes in
/// the next step, and at the step after it its collider goes back on the hook with the user's
/// friction (colliders of fixed bodies stay hooked, see `Settings::unhook_settled`).
#[test]
fn a_sleeping_box_made_fixed_goes_back_on_the_hook() {
    let mut tribo = TriboRapier::new();
    let (mut w, b, c, floor) = sleeping_box(&mut tribo);
    w.bodies[b].set_body_type(RigidBodyType::Fixed, false);
    w.step(&mut tribo);
    assert!(tribo.contact(floor, c).is_none());
    w.step(&mut tribo);
    assert!(!tribo.is_unhooked(c) && hooked(&w, c), "the fixed box stays off the hook");
    assert_eq!(w.colliders[c].friction(), USER_FRICTION, "the user's friction is restored");
}

/// The floor under a sleeping box off the hook removed without waking the box: the contact
/// goes, and with no contact left the box's collider goes back on the hook with the user's
/// friction.
#[test]
fn a_sleeping_box_whose_floor_is_removed_goes_back_on_the_hook() {
    let mut tribo = TriboRapier::new();
    let (mut w, _, c, floor) = sleeping_box(&mut tribo);
    w.remove_collider(floor, false);
    w.step(&mut tribo);
    assert!(tribo.contact(floor, c).is_none() && tribo.is_empty());
    assert!(!tribo.is_unhooked(c) && hooked(&w, c), "the box stays off the hook");
    assert_eq!(w.colliders[c].friction(), USER_FRICTION, "the user's friction is restored");
}

/// A box of the same size dropped onto the resting box once it sleeps: the landing wakes the
/// lower box, and its contact with the floor is tracked again. Once both rest, that contact
/// carries both boxes, 2 ρ (2H)³ g = 2452.5 N, not the lower box's 1226.3 N it had asleep.
/// With settled colliders off the hook (the default) the landing also puts the lower box back
/// on the hook; with every collider kept on it, only the lower box's waking shows.
#[test]
fn a_box_dropped_on_a_sleeping_box_loads_its_contact() {
    for unhook_settled in [true, false] {
        let mut tribo = TriboRapier::with_settings(Settings { unhook_settled, ..Settings::default() });
        let (mut w, b, c, floor) = resting_box(&mut tribo, MU_S as f32, ActiveHooks::empty());
        // The second box rests 5 m away first (its material set then: a material set later
        // would wake the lower box itself).
        let top = w.bodies.insert(RigidBodyBuilder::dynamic().translation(Vector::new(5.0, H, 0.0)));
        let tc = w.colliders.insert_with_parent(
            ColliderBuilder::cuboid(H, H, H).density(1000.0).friction(USER_FRICTION),
            top,
            &mut w.bodies,
        );
        tribo.set_material(tc, tribo_rapier::FrictionMaterial::new(MU_S, MU_K).unwrap());
        step_until_asleep(&mut w, &mut tribo, b);
        step_until_asleep(&mut w, &mut tribo, top);
        let weight = 1000.0 * (2.0 * H).powi(3) * common::G;
        let n = |tribo: &TriboRapier| tribo.contact(floor, c).unwrap().normal_force;
        assert!((n(&tribo) - weight).abs() < 0.01 * weight, "one box: {} N", n(&tribo));
        w.bodies[top].set_translation(Vector::new(0.0, 3.0 * H + 0.05, 0.0), true);
        for _ in 0..120 {
            w.step(&mut tribo);
        }
        let two = n(&tribo);
        assert!((two - 2.0 * weight).abs() < 0.01 * weight, "unhook {unhook_settled}, two boxes: {two} N");
        assert!(tribo.contact(c, tc).or_else(|| tribo.contact(tc, c)).is_some());
    }
}

/// Nine boxes in a touching 3 × 3 block and four balls in a touching 2 × 2 square on the floor
/// fall asleep, and are disturbed while they sleep: three balls dropped onto them one after
/// the other (each wakes part of the scene, which falls asleep again), a box's shape changed
/// and a ball's collider removed without waking them, a sleeping box made fixed. Stepped by
/// one store, which parks the quiet contacts of the sleeping bodies, and by a store replaced
/// with its clone before every step (a clone starts without a watch: it checks every contact
/// in full and parks none), the two worlds stay the same to the bit, and so do the contacts'
/// states and the colliders' hook flags and frictions.
#[test]
fn parked_contacts_step_as_contacts_checked_in_full() {
    let build = || {
        let mut w = World::new();
        let mut tribo = TriboRapier::new();
        let floor = w.floor();
        tribo.set_material(floor, rolling_material());
        let mut boxes = Vec::new();
        for i in 0..3 {
            for j in 0..3 {
                let at = Vector::new(0.2 * i as f32, 0.1, 0.2 * j as f32);
                let b = w.bodies.insert(RigidBodyBuilder::dynamic().translation(at));
                let c = w.colliders.insert_with_parent(
                    ColliderBuilder::cuboid(0.1, 0.1, 0.1).density(1000.0),
                    b,
                    &mut w.bodies,
                );
                tribo.set_material(c, tribo_rapier::FrictionMaterial::new(MU_S, MU_K).unwrap());
                boxes.push((b, c));
            }
        }
        let mut balls = Vec::new();
        for i in 0..2 {
            for j in 0..2 {
                let (b, c) = w.ball(0.1, Vector::new(1.5 + 0.2 * i as f32, 0.1, 0.2 * j as f32));
                tribo.set_material(c, rolling_material());
                balls.push((b, c));
            }
        }
        let mut drops = Vec::new();
        for k in 0..3 {
            let (b, c) = w.ball(0.1, Vector::new(5.0 + k as f32, 0.1, 0.0));
            tribo.set_material(c, rolling_material());
            drops.push(b);
        }
        (w, tribo, boxes, balls, drops)
    };
    let (mut wa, mut ta, boxes, balls, drops) = build();
    let (mut wb, mut tb, ..) = build();
    let mut asleep_steps = 0;
    let mut unhooked = 0;
    for step in 0..1000 {
        for w in [&mut wa, &mut wb] {
            match step {
                // Onto the block's middle box, between two of the balls, onto a corner box.
                300 => w.bodies[drops[0]].set_translation(Vector::new(0.21, 0.5, 0.19), true),
                420 => w.bodies[drops[1]].set_translation(Vector::new(1.6, 0.5, 0.03), true),
                540 => w.bodies[drops[2]].set_translation(Vector::new(0.02, 0.5, 0.41), true),
                700 => w.colliders[boxes[4].1].set_shape(SharedShape::cuboid(0.1, 0.09, 0.1)),
                800 => w.remove_collider(balls[3].1, false),
                900 => w.bodies[boxes[8].0].set_body_type(RigidBodyType::Fixed, false),
                _ => {}
            }
        }
        wa.step(&mut ta);
        tb = tb.clone();
        wb.step(&mut tb);
        assert_eq!(wa.fingerprint(), wb.fingerprint(), "step {step}");
        // The same contacts in the same states, and the same hook flags and frictions.
        assert!(ta.contacts().eq(tb.contacts()), "step {step}");
        let hooks = |w: &World| -> Vec<(u32, u32)> {
            w.colliders.iter().map(|(_, c)| (c.active_hooks().bits(), c.friction().to_bits())).collect()
        };
        assert_eq!(hooks(&wa), hooks(&wb), "step {step}");
        unhooked = unhooked.max(boxes.iter().filter(|b| ta.is_unhooked(b.1)).count());
        if wa.bodies.iter().all(|(_, b)| !b.is_dynamic() || b.is_sleeping()) {
            asleep_steps += 1;
        }
    }
    assert!(asleep_steps > 300, "asleep for {asleep_steps} steps");
    assert!(unhooked > 0, "no box left the hook");
}

//! State handling: contacts ending, colliders and bodies removed, sleeping bodies, user hooks,
//! bad input. The store must never hold state (nor motor joints) for contacts that no longer
//! exist.

use std::sync::atomic::{AtomicUsize, Ordering};
use tribo_lab::rapier::scenarios::*;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{
    Diagnostic, FrictionMaterial, MaterialError, ParamError, TriboRapier, TRIBO_JOINT_USER_DATA,
};

fn tribo_joints(world: &PhysicsWorld) -> usize {
    world.impulse_joints.iter().filter(|(_, j)| j.data.user_data == TRIBO_JOINT_USER_DATA).count()
}

/// Every tribo joint belongs to a live contact state and vice versa; a state whose pair has no
/// active contact is asleep, or carries no load (a rolling contact on a support, kept for up to
/// three steps after its contact ended).
fn assert_consistent(sim: &Sim) {
    let t = sim.tribo.as_ref().unwrap();
    assert_eq!(tribo_joints(&sim.world), t.joint_count(), "joints in the world vs joints in the store");
    for c in t.contacts() {
        let pair = sim
            .world
            .narrow_phase
            .contact_pair(c.collider1, c.collider2)
            .expect("state without a narrow-phase pair");
        assert!(
            pair.has_any_active_contact() || sleeping(sim, c.collider1, c.collider2) || c.normal_force == 0.0,
            "state for an ended contact"
        );
        if let Some(j) = c.joint {
            assert!(sim.world.impulse_joints.get(j).is_some());
        }
    }
}

fn sleeping(sim: &Sim, c1: ColliderHandle, c2: ColliderHandle) -> bool {
    [c1, c2].iter().all(|c| {
        sim.world.colliders[*c].parent().is_none_or(|b| {
            let rb = &sim.world.bodies[b];
            !rb.is_dynamic() || rb.is_sleeping()
        })
    })
}

fn ball_on_ground() -> (Sim, ColliderHandle, RigidBodyHandle, ColliderHandle) {
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 60.0, Friction::Tribo);
    let g = sim.add_ground(10.0);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, BALL_R, 0.0))
            .linvel(Vector::new(0.5, 0.0, 0.0))
            .angvel(Vector::new(0.0, 0.0, -2.5)),
        ColliderBuilder::ball(BALL_R).density(1000.0),
        &ball_material(),
    );
    for _ in 0..10 {
        sim.step();
    }
    (sim, g, b, c)
}

#[test]
fn contact_end_removes_state_and_joint() {
    let (mut sim, g, b, c) = ball_on_ground();
    let t = sim.tribo.as_ref().unwrap();
    assert_eq!(t.len(), 1);
    assert!(t.contact(g, c).unwrap().joint.is_some(), "a rolling ball has a roll motor");
    assert_eq!(tribo_joints(&sim.world), 1);
    assert_consistent(&sim);
    // Throw the ball up: the contact ends.
    sim.world.bodies[b].set_linvel(Vector::new(0.0, 5.0, 0.0), true);
    for _ in 0..5 {
        sim.step();
    }
    let t = sim.tribo.as_ref().unwrap();
    assert!(t.is_empty(), "state left after the contact ended");
    assert_eq!(tribo_joints(&sim.world), 0, "motor joint left after the contact ended");
    // It lands again: new state.
    for _ in 0..120 {
        sim.step();
    }
    assert_eq!(sim.tribo.as_ref().unwrap().len(), 1);
    assert_consistent(&sim);
}

#[test]
fn collider_removal_removes_state_joint_and_material() {
    let (mut sim, _g, _b, c) = ball_on_ground();
    sim.world.remove_collider(c);
    sim.step();
    let t = sim.tribo.as_ref().unwrap();
    assert!(t.is_empty());
    assert!(t.material(c).is_none());
    assert_eq!(tribo_joints(&sim.world), 0);
}

#[test]
fn body_removal_removes_state_and_joint() {
    let (mut sim, _g, b, _c) = ball_on_ground();
    sim.world.remove_body(b);
    sim.step();
    assert!(sim.tribo.as_ref().unwrap().is_empty());
    assert_eq!(tribo_joints(&sim.world), 0);
    // The store works on after the removal.
    for _ in 0..10 {
        sim.step();
    }
}

#[test]
fn sleeping_bodies_keep_state_and_stay_asleep() {
    let (mut sim, g, b, c) = ball_on_ground();
    // Roll to a stop and fall asleep.
    for _ in 0..600 {
        sim.step();
    }
    assert!(sim.body(b).is_sleeping(), "ball did not fall asleep");
    let t = sim.tribo.as_ref().unwrap();
    assert_eq!(t.len(), 1, "sleeping contact state kept");
    assert_consistent(&sim);
    for _ in 0..60 {
        sim.step();
    }
    assert!(sim.body(b).is_sleeping(), "tribo woke a sleeping body");
    // Wake and push it: it rolls again and stops again.
    sim.world.bodies[b].set_linvel(Vector::new(0.3, 0.0, 0.0), true);
    sim.world.bodies[b].set_angvel(Vector::new(0.0, 0.0, -1.5), true);
    let x0 = sim.body(b).translation().x;
    for _ in 0..300 {
        sim.step();
    }
    assert!(sim.body(b).translation().x > x0 + 0.05);
    assert!(sim.body(b).linvel().length() < 1e-3);
    assert!(sim.tribo.as_ref().unwrap().contact(g, c).is_some());
}

#[test]
fn pile_store_matches_the_world() {
    let (mut sim, handles) = pile_scene(60, 0.5, 1.0 / 60.0, Friction::Tribo);
    for k in 0..240 {
        sim.step();
        if k % 20 == 0 {
            assert_consistent(&sim);
        }
    }
    // Remove half of the bodies: no state or joint refers to them afterwards.
    for h in handles.iter().step_by(2) {
        sim.world.remove_body(*h);
    }
    for _ in 0..60 {
        sim.step();
    }
    assert_consistent(&sim);
    let t = sim.tribo.as_ref().unwrap();
    for c in t.contacts() {
        assert!(
            sim.world.colliders.get(c.collider1).is_some() && sim.world.colliders.get(c.collider2).is_some()
        );
    }
}

/// User hooks that count their calls and drop contacts of one collider.
struct UserHooks {
    modify_calls: AtomicUsize,
    filter_calls: AtomicUsize,
    ghost: ColliderHandle,
}

impl PhysicsHooks for UserHooks {
    fn filter_contact_pair(&self, ctx: &PairFilterContext) -> Option<SolverFlags> {
        self.filter_calls.fetch_add(1, Ordering::Relaxed);
        if ctx.collider1 == self.ghost || ctx.collider2 == self.ghost {
            None
        } else {
            // COMPUTE_IMPULSES (0.35) / COMPUTE_RIGID_IMPULSES (0.36): bit 0.
            Some(SolverFlags::from_bits_retain(0b001))
        }
    }
    fn modify_solver_contacts(&self, _ctx: &mut ContactModificationContext) {
        self.modify_calls.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn user_hooks_still_run() {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, -9.81, 0.0);
    world.colliders.insert(ColliderBuilder::cuboid(10.0, 0.5, 10.0).translation(Vector::new(0.0, -0.5, 0.0)));
    let mut tribo = TriboRapier::new();
    let mut add = |world: &mut PhysicsWorld, x: f32, hooks: ActiveHooks| {
        let b = world.bodies.insert(RigidBodyBuilder::dynamic().translation(Vector::new(x, 0.2, 0.0)));
        let c = world.colliders.insert_with_parent(
            ColliderBuilder::ball(0.2).active_hooks(hooks),
            b,
            &mut world.bodies,
        );
        tribo.set_material(c, FrictionMaterial::new(0.6, 0.5).unwrap());
        (b, c)
    };
    let (_b1, _c1) = add(&mut world, 0.0, ActiveHooks::empty());
    let (b2, c2) = add(&mut world, 2.0, ActiveHooks::FILTER_CONTACT_PAIRS);
    let user = UserHooks { modify_calls: AtomicUsize::new(0), filter_calls: AtomicUsize::new(0), ghost: c2 };
    for _ in 0..60 {
        tribo.step_world(&mut world, &user, &());
    }
    assert!(user.modify_calls.load(Ordering::Relaxed) > 0, "user modify_solver_contacts not called");
    assert!(user.filter_calls.load(Ordering::Relaxed) > 0, "user filter_contact_pair not called");
    // The user's filter removed the ghost ball's contact: it fell through the ground.
    assert!(world.bodies[b2].translation().y < -1.0);
    assert_eq!(tribo.len(), 1);
}

#[test]
fn stock_material_and_unset_materials_keep_stock_friction() {
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 60.0, Friction::Tribo);
    let g = sim.add_ground(10.0);
    let (_, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, BALL_R, 0.0))
            .linvel(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::ball(BALL_R),
        &ball_material(),
    );
    sim.tribo.as_mut().unwrap().set_material(g, FrictionMaterial::Stock);
    for _ in 0..30 {
        sim.step();
    }
    assert!(sim.tribo.as_ref().unwrap().contact(g, c).is_none(), "Stock on one side → stock contact");
    assert_eq!(FrictionMaterial::combine(None, None), None);
    let m = FrictionMaterial::new(0.8, 0.6).unwrap();
    let n = FrictionMaterial::new(0.4, 0.2).unwrap();
    let c = FrictionMaterial::combine(Some(&m), Some(&n)).unwrap();
    assert!((c.mu_s() - 0.6).abs() < 1e-12 && (c.mu_k() - 0.4).abs() < 1e-12);
    assert_eq!(FrictionMaterial::combine(Some(&m), None), m.material().copied());
    assert_eq!(FrictionMaterial::combine(Some(&m), Some(&FrictionMaterial::Stock)), None);
}

#[test]
fn bad_material_values_are_errors() {
    assert!(matches!(
        FrictionMaterial::new(f64::NAN, 0.1),
        Err(MaterialError::Param(ParamError::NotFinite { .. }))
    ));
    assert!(matches!(
        FrictionMaterial::new(0.2, 0.5),
        Err(MaterialError::Param(ParamError::StaticBelowKinetic { .. }))
    ));
    assert!(matches!(
        FrictionMaterial::new(0.5, -0.1),
        Err(MaterialError::Param(ParamError::OutOfRange { .. }))
    ));
    assert!(FrictionMaterial::new(0.5, 0.4).unwrap().with_roll_eta(f64::INFINITY).is_err());
    let e = FrictionMaterial::new(0.2, 0.5).unwrap_err();
    assert!(e.to_string().contains("μs"));
}

#[test]
fn zero_mass_body_falls_back_to_stock_without_nan() {
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 60.0, Friction::Tribo);
    let g = sim.add_ground(10.0);
    // Density 0 and no additional mass: a dynamic body with zero mass.
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, BALL_R, 0.0))
            .angvel(Vector::new(0.0, 3.0, 0.0)),
        ColliderBuilder::ball(BALL_R).density(0.0),
        &ball_material(),
    );
    // And a normal ball next to it.
    let (b2, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(2.0, BALL_R, 0.0))
            .linvel(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::ball(BALL_R).density(1000.0),
        &ball_material(),
    );
    for _ in 0..120 {
        sim.step();
        for h in [b, b2] {
            let rb = sim.body(h);
            assert!(
                rb.translation().is_finite() && rb.linvel().is_finite() && rb.angvel().is_finite(),
                "NaN in the simulation"
            );
        }
    }
    let t = sim.tribo.as_mut().unwrap();
    if let Some(info) = t.contact(g, c) {
        assert!(info.stock_fallback && info.joint.is_none());
    }
    let d = t.take_diagnostics();
    assert!(d.contains(&Diagnostic::ZeroMassBody { body: b }), "{d:?}");
    assert!(d[0].to_string().contains("zero"));
}

#[test]
fn settings_are_sanitised() {
    use tribo_rapier::Settings;
    let t = TriboRapier::with_settings(Settings {
        slip_speed: f32::NAN,
        anchor_gain: 3.0,
        motor_damping: -1.0,
        ..Settings::default()
    });
    let d = Settings::default();
    assert_eq!(t.settings().slip_speed, d.slip_speed);
    assert_eq!(t.settings().anchor_gain, 1.0);
    assert_eq!(t.settings().motor_damping, d.motor_damping);
}

/// A ball rolling on a floor collider attached to a fixed body (the usual bevy set-up): the
/// motor joint is attached to tribo's hidden anchor body, not to the floor body (rapier walks
/// the joints of a pair's first body for every contact pair), the ball stops where it stops on
/// a parentless floor, and the motor follows the floor body when it stops being fixed.
#[test]
fn motors_of_fixed_bodies_use_the_anchor_and_follow_type_changes() {
    let run = |fixed_body: bool| {
        let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 60.0, Friction::Tribo);
        let floor_body = fixed_body.then(|| {
            // Translated and turned about the vertical, so a frame expressed in the wrong body
            // would show.
            sim.world.bodies.insert(
                RigidBodyBuilder::fixed()
                    .translation(Vector::new(3.0, -0.5, -2.0))
                    .rotation(Vector::new(0.0, 0.7, 0.0)),
            )
        });
        let floor = match floor_body {
            Some(fb) => sim.world.colliders.insert_with_parent(
                ColliderBuilder::cuboid(100.0, 0.5, 100.0),
                fb,
                &mut sim.world.bodies,
            ),
            None => sim.add_ground(100.0),
        };
        let (b, c) = sim.add_dynamic(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, BALL_R, 0.0))
                .linvel(Vector::new(2.0, 0.0, 0.0))
                .angvel(Vector::new(0.0, 0.0, -2.0 / BALL_R)),
            ColliderBuilder::ball(BALL_R).density(1000.0),
            &ball_material(),
        );
        for _ in 0..30 {
            sim.step();
        }
        let joint = sim
            .tribo
            .as_ref()
            .unwrap()
            .contact(floor, c)
            .and_then(|i| i.joint)
            .expect("a rolling ball has a roll motor");
        let j = sim.world.impulse_joints.get(joint).expect("joint");
        let other = if j.body1() == b { j.body2() } else { j.body1() };
        assert!(j.body1() == b || j.body2() == b);
        assert!(Some(other) != floor_body, "motor attached to the fixed floor body");
        assert!(
            sim.world.bodies[other].is_fixed() && sim.world.bodies[other].colliders().is_empty(),
            "motor not on the hidden anchor"
        );
        if let Some(fb) = floor_body {
            assert_eq!(sim.world.impulse_joints.attached_joints(fb).count(), 0);
        }
        // Stops after v0/a = 2/(0.05 g/1.4) = 5.7 s.
        for _ in 0..420 {
            sim.step();
        }
        let x = sim.body(b).translation().x;
        assert!(sim.body(b).linvel().length() < 1e-4, "ball still moving: {:?}", sim.body(b).linvel());
        assert_consistent(&sim);
        (sim, floor_body, floor, b, c, x)
    };
    let (.., x_parentless) = run(false);
    let (mut sim, floor_body, floor, b, c, x_fixed) = run(true);
    assert!(
        (x_fixed - x_parentless).abs() < 1e-3,
        "stopping point {x_fixed} on a fixed-body floor vs {x_parentless} on a parentless one"
    );
    // The floor body becomes kinematic: the motor moves to it.
    let fb = floor_body.unwrap();
    sim.world.bodies[fb].set_body_type(RigidBodyType::KinematicPositionBased, true);
    sim.world.bodies[b].set_linvel(Vector::new(1.0, 0.0, 0.0), true);
    sim.world.bodies[b].set_angvel(Vector::new(0.0, 0.0, -1.0 / BALL_R), true);
    for _ in 0..5 {
        sim.step();
    }
    let joint = sim.tribo.as_ref().unwrap().contact(floor, c).and_then(|i| i.joint).expect("roll motor");
    let j = sim.world.impulse_joints.get(joint).expect("joint");
    assert!(
        (j.body1() == fb && j.body2() == b) || (j.body1() == b && j.body2() == fb),
        "motor not re-attached to the kinematic floor"
    );
    assert_consistent(&sim);
}

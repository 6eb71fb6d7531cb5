//! Serde snapshots (feature `serde-serialize`): the rapier world and the tribo store are
//! serialized at step 100 of 300, read back into new objects, and the restored pair continues
//! bit-identically to the uninterrupted run; a world restored without its store and stepped
//! with a fresh store keeps no orphan motor joint.
#![cfg(feature = "serde-serialize")]

use tribo_rapier::contensou::Contensou;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, Mode, TriboRapier};

mod common;
use common::World;

/// Slope angle of the brick's ramp (rad): tan 0.2 = 0.203 < μs = 0.6, the brick sticks.
const SLOPE: f32 = 0.2;

type Saved = (
    IntegrationParameters,
    IslandManager,
    BroadPhaseBvh,
    NarrowPhase,
    RigidBodySet,
    ColliderSet,
    ImpulseJointSet,
    MultibodyJointSet,
    CCDSolver,
);

fn to_bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    ciborium::into_writer(value, &mut out).expect("serialize");
    out
}

fn from_bytes<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> T {
    ciborium::from_reader(bytes).expect("deserialize")
}

impl World {
    /// The world's state (every set and the integration parameters) serialized.
    fn save(&self) -> Vec<u8> {
        to_bytes(&(
            &self.params,
            &self.islands,
            &self.broad,
            &self.narrow,
            &self.bodies,
            &self.colliders,
            &self.joints,
            &self.multibody,
            &self.ccd,
        ))
    }

    /// A world read back from [`save`](Self::save), with a new pipeline.
    fn restore(bytes: &[u8]) -> World {
        let (params, islands, broad, narrow, bodies, colliders, joints, multibody, ccd): Saved =
            from_bytes(bytes);
        World {
            pipeline: PhysicsPipeline::new(),
            params,
            islands,
            broad,
            narrow,
            bodies,
            colliders,
            joints,
            multibody,
            ccd,
        }
    }
}

fn material() -> FrictionMaterial {
    FrictionMaterial::new(0.6, 0.4).unwrap().with_roll_eta(0.02).unwrap()
}

/// Rolling balls on a floor collider without a body (motors on the anchor body), a brick
/// resting on a fixed ramp, a ball spinning in place about the normal and a Contensou puck
/// sliding while it spins.
fn scene(w: &mut World, tribo: &mut TriboRapier) {
    let m = material();
    let floor =
        w.colliders.insert(ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(Vector::new(0.0, -0.5, 0.0)));
    tribo.set_material(floor, m);
    for i in 0..4 {
        let b = w.bodies.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(i as f32 - 1.5, 0.1 + 0.02 * i as f32, -2.0))
                .linvel(Vector::new(0.5 + 0.3 * i as f32, 0.0, 0.4)),
        );
        let c = w.colliders.insert_with_parent(
            ColliderBuilder::ball(0.1 + 0.02 * i as f32).density(1000.0),
            b,
            &mut w.bodies,
        );
        tribo.set_material(c, m);
    }
    // The ramp (a fixed body) and the brick on it, both tilted by SLOPE about z.
    let rot = Vector::new(0.0, 0.0, SLOPE);
    let centre = Vector::new(6.0, 1.0, 0.0);
    let normal = Vector::new(-SLOPE.sin(), SLOPE.cos(), 0.0);
    let ramp = w.bodies.insert(RigidBodyBuilder::fixed().translation(centre).rotation(rot));
    let rc = w.colliders.insert_with_parent(ColliderBuilder::cuboid(2.0, 0.2, 2.0), ramp, &mut w.bodies);
    tribo.set_material(rc, m);
    let brick =
        w.bodies.insert(RigidBodyBuilder::dynamic().translation(centre + normal * 0.301).rotation(rot));
    let bc = w.colliders.insert_with_parent(
        ColliderBuilder::cuboid(0.2, 0.1, 0.15).density(800.0),
        brick,
        &mut w.bodies,
    );
    tribo.set_material(bc, m);
    // A second ramp and a ball set down on it, held by rolling resistance alone:
    // c_k/R = 0.1 < tan SLOPE = 0.203 < c_s/R = 0.3 (static roll with a standing deflection).
    let held =
        FrictionMaterial::builder().friction(0.6, 0.4).rolling_resistances(0.03, 0.01).build().unwrap();
    let centre2 = Vector::new(6.0, 1.0, 5.0);
    let ramp2 = w.bodies.insert(RigidBodyBuilder::fixed().translation(centre2).rotation(rot));
    let rc2 = w.colliders.insert_with_parent(ColliderBuilder::cuboid(2.0, 0.2, 2.0), ramp2, &mut w.bodies);
    tribo.set_material(rc2, held);
    let ball = w.bodies.insert(RigidBodyBuilder::dynamic().translation(centre2 + normal * 0.3));
    let hc = w.colliders.insert_with_parent(ColliderBuilder::ball(0.1).density(1000.0), ball, &mut w.bodies);
    tribo.set_material(hc, held);
    // A ball spinning about the vertical (spin friction brakes it).
    let spinner = w.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-4.0, 0.2, 2.0))
            .angvel(Vector::new(0.0, 15.0, 0.0)),
    );
    let sc =
        w.colliders.insert_with_parent(ColliderBuilder::ball(0.2).density(1000.0), spinner, &mut w.bodies);
    tribo.set_material(sc, m);
    // A Contensou puck sliding and spinning.
    let puck = w.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-4.0, 0.03, -4.0))
            .linvel(Vector::new(1.5, 0.0, 0.0))
            .angvel(Vector::new(0.0, 10.0, 0.0)),
    );
    let pc = w.colliders.insert_with_parent(
        ColliderBuilder::cylinder(0.025, 0.1).density(1000.0),
        puck,
        &mut w.bodies,
    );
    tribo.set_material(
        pc,
        FrictionMaterial::new(0.3, 0.3).unwrap().with_contensou(Contensou::flat(0.1).unwrap()).unwrap(),
    );
}

/// Snapshot at step 100 of 300: world and store serialized (CBOR), read back into new
/// objects; original and restored are stepped side by side for 200 steps and every body's
/// position, rotation and velocities agree to the bit at every step.
#[test]
fn serde_snapshot_continues_bit_identically() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    scene(&mut w, &mut tribo);
    for _ in 0..100 {
        w.step(&mut tribo);
    }
    // What the snapshot holds: tribo contacts, motor joints, both slide modes, and a static
    // (stuck) brick on the ramp.
    let contacts: Vec<_> = tribo.contacts().collect();
    assert!(contacts.len() >= 6, "contacts at step 100: {}", contacts.len());
    assert!(tribo.joint_count() >= 5, "motor joints at step 100: {}", tribo.joint_count());
    assert_eq!(w.marked_joints(), tribo.joint_count());
    assert!(contacts.iter().any(|c| c.slide == Mode::Static));
    assert!(contacts.iter().any(|c| c.roll == Mode::Kinetic), "balls roll (kinetic roll)");
    assert!(contacts.iter().any(|c| c.spin == Mode::Kinetic), "the spinner slips about the normal");
    assert!(contacts.iter().any(|c| c.roll_capacity > 0.0 && c.spin_capacity > 0.0));
    let spinner =
        w.bodies.iter().find(|(_, b)| (b.translation().x + 4.0).abs() < 0.5 && b.translation().z > 1.0);
    let spin = spinner.map(|(_, b)| b.angvel().y).unwrap_or(0.0);
    assert!(spin > 1.0 && spin < 15.0, "the ball still spins, braked: ω = {spin}");

    // The stuck brick is off the hook (`Settings::unhook_settled`): the flag state round-trips.
    let unhooked = |w: &World, t: &TriboRapier| -> Vec<ColliderHandle> {
        w.colliders.iter().map(|(h, _)| h).filter(|&h| t.is_unhooked(h)).collect()
    };
    assert!(!unhooked(&w, &tribo).is_empty(), "a settled collider is off the hook at step 100");

    let world_bytes = w.save();
    let store_bytes = to_bytes(&tribo);
    let mut w2 = World::restore(&world_bytes);
    let mut tribo2: TriboRapier = from_bytes(&store_bytes);
    assert_eq!(w2.fingerprint(), w.fingerprint());
    assert_eq!((tribo2.len(), tribo2.joint_count()), (tribo.len(), tribo.joint_count()));
    assert!(to_bytes(&tribo2) == store_bytes, "the restored store writes the same snapshot");
    assert_eq!(unhooked(&w2, &tribo2), unhooked(&w, &tribo));

    for step in 100..300 {
        w.step(&mut tribo);
        w2.step(&mut tribo2);
        assert_eq!(w2.fingerprint(), w.fingerprint(), "diverged at step {}", step + 1);
        assert_eq!(unhooked(&w2, &tribo2), unhooked(&w, &tribo), "step {}", step + 1);
    }
    assert_eq!((tribo2.len(), tribo2.joint_count()), (tribo.len(), tribo.joint_count()));
    assert_eq!(w2.marked_joints(), tribo2.joint_count());
    assert_eq!(w2.marked_bodies(), 1);
}

/// A world restored from its serialized form without its store: a fresh store with the same
/// materials removes the old store's motor joints on its first `before_step`, adopts the
/// anchor body, and afterwards every marked joint in the world is one it owns.
#[test]
fn serde_restored_world_without_store_has_no_orphan_joints() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    scene(&mut w, &mut tribo);
    for _ in 0..100 {
        w.step(&mut tribo);
    }
    assert!(tribo.joint_count() > 0);
    let mut w2 = World::restore(&w.save());
    assert_eq!(w2.marked_joints(), tribo.joint_count());
    w2.adopt_with_fresh_store(material());
}

/// A record whose per-contact arrays disagree is an error, not a panic or a broken store.
#[test]
fn inconsistent_snapshot_is_an_error() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    scene(&mut w, &mut tribo);
    for _ in 0..10 {
        w.step(&mut tribo);
    }
    assert!(!tribo.is_empty());
    let mut value: ciborium::Value = from_bytes(&to_bytes(&tribo));
    let map = value.as_map_mut().expect("a record");
    let plans = map.iter_mut().find(|(k, _)| k.as_text() == Some("plans")).expect("plans");
    plans.1.as_array_mut().expect("array").pop();
    let mut bytes = Vec::new();
    ciborium::into_writer(&value, &mut bytes).unwrap();
    let r: Result<TriboRapier, _> = ciborium::from_reader(bytes.as_slice());
    assert!(r.is_err());
}

/// The field `name` of a CBOR record.
fn field<'a>(v: &'a mut ciborium::Value, name: &str) -> &'a mut ciborium::Value {
    let map = v.as_map_mut().expect("a record");
    &mut map.iter_mut().find(|(k, _)| k.as_text() == Some(name)).expect(name).1
}

/// A snapshot whose material was edited to μs = −1 is rejected when read (the material is read
/// back through the validating setters), not turned into a store with an invalid material.
#[test]
fn snapshot_with_an_invalid_material_is_an_error() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    scene(&mut w, &mut tribo);
    let bytes = to_bytes(&tribo);
    assert!(ciborium::from_reader::<TriboRapier, _>(bytes.as_slice()).is_ok());
    let mut value: ciborium::Value = from_bytes(&bytes);
    // materials: [(handle key, {"Tribo": {.., "mu_s": 0.6, ..}}), ..]
    let materials = field(&mut value, "materials").as_array_mut().expect("array");
    let first = &mut materials[0].as_array_mut().expect("pair")[1];
    let mu_s = field(field(first, "Tribo"), "mu_s");
    assert_eq!(mu_s.as_float(), Some(0.6));
    *mu_s = ciborium::Value::Float(-1.0);
    let mut edited = Vec::new();
    ciborium::into_writer(&value, &mut edited).unwrap();
    assert!(ciborium::from_reader::<TriboRapier, _>(edited.as_slice()).is_err());
}

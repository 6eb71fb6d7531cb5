//! The rapier world harness shared by the store tests: the sets of one world, its pipeline and
//! one tribo step.
#![allow(dead_code)]

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{TriboRapier, TRIBO_JOINT_USER_DATA};

/// μs = μk so that the capacities do not depend on the mode; roll η_r = 0.05.
pub fn rolling_material() -> tribo_rapier::FrictionMaterial {
    tribo_rapier::FrictionMaterial::new(0.5, 0.5).unwrap().with_roll_eta(0.05).unwrap()
}

/// The resting box's μs and μk ([`resting_box`]).
pub const MU_S: f64 = 0.6;
pub const MU_K: f64 = 0.5;
/// The resting box's own rapier friction (the user's value, restored with the hook).
pub const USER_FRICTION: f32 = 0.3;
/// Half edge of the resting box (m); density 1000.
pub const H: f32 = 0.25;

/// A box (material μs [`MU_S`], μk [`MU_K`]; own friction [`USER_FRICTION`], hook flags
/// `user_hooks`) resting on a parentless floor whose rapier friction is `floor_friction`:
/// (world, box body, box collider, floor).
pub fn resting_box(
    tribo: &mut TriboRapier,
    floor_friction: f32,
    user_hooks: ActiveHooks,
) -> (World, RigidBodyHandle, ColliderHandle, ColliderHandle) {
    let mut w = World::new();
    let floor = w.floor();
    w.colliders[floor].set_friction(floor_friction);
    let b = w.bodies.insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, H, 0.0)));
    let c = w.colliders.insert_with_parent(
        ColliderBuilder::cuboid(H, H, H).density(1000.0).friction(USER_FRICTION).active_hooks(user_hooks),
        b,
        &mut w.bodies,
    );
    tribo.set_material(c, tribo_rapier::FrictionMaterial::new(MU_S, MU_K).unwrap());
    (w, b, c, floor)
}

/// Whether collider `c` carries `MODIFY_SOLVER_CONTACTS`.
pub fn hooked(w: &World, c: ColliderHandle) -> bool {
    w.colliders[c].active_hooks().contains(ActiveHooks::MODIFY_SOLVER_CONTACTS)
}

/// Time step of the harness (s).
pub const DT: f32 = 1.0 / 60.0;
/// Gravity (m/s²), along −y.
pub const G: f32 = 9.81;

/// The rapier sets of one world plus its pipeline.
pub struct World {
    pub pipeline: PhysicsPipeline,
    pub params: IntegrationParameters,
    pub islands: IslandManager,
    pub broad: BroadPhaseBvh,
    pub narrow: NarrowPhase,
    pub bodies: RigidBodySet,
    pub colliders: ColliderSet,
    pub joints: ImpulseJointSet,
    pub multibody: MultibodyJointSet,
    pub ccd: CCDSolver,
}

impl World {
    pub fn new() -> World {
        World {
            pipeline: PhysicsPipeline::new(),
            params: IntegrationParameters { dt: DT, ..Default::default() },
            islands: IslandManager::new(),
            broad: BroadPhaseBvh::new(),
            narrow: NarrowPhase::new(),
            bodies: RigidBodySet::new(),
            colliders: ColliderSet::new(),
            joints: ImpulseJointSet::new(),
            multibody: MultibodyJointSet::new(),
            ccd: CCDSolver::new(),
        }
    }

    /// A snapshot of the simulation state: every set cloned, a new (empty) pipeline.
    pub fn snapshot(&self) -> World {
        World {
            pipeline: PhysicsPipeline::new(),
            params: self.params,
            islands: self.islands.clone(),
            broad: self.broad.clone(),
            narrow: self.narrow.clone(),
            bodies: self.bodies.clone(),
            colliders: self.colliders.clone(),
            joints: self.joints.clone(),
            multibody: self.multibody.clone(),
            ccd: self.ccd.clone(),
        }
    }

    pub fn physics_step(&mut self, tribo: &TriboRapier) {
        self.physics_step_with(tribo, &());
    }

    /// One physics step with the user's hooks `user` under tribo's.
    pub fn physics_step_with<H: PhysicsHooks>(&mut self, tribo: &TriboRapier, user: &H) {
        let hooks = tribo.hooks(user);
        #[cfg(not(feature = "rapier-0-36"))]
        self.pipeline.step(
            Vector::new(0.0, -G, 0.0),
            &self.params,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.joints,
            &mut self.multibody,
            &mut self.ccd,
            &hooks,
            &(),
        );
        #[cfg(feature = "rapier-0-36")]
        self.pipeline.step(
            Vector::new(0.0, -G, 0.0),
            &self.params,
            &mut self.islands,
            &mut self.broad,
            &mut self.narrow,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.joints,
            &mut self.multibody,
            &mut SoftBodySet::new(),
            &mut self.ccd,
            &hooks,
            &(),
        );
    }

    pub fn step(&mut self, tribo: &mut TriboRapier) {
        tribo.before_step(&self.params, &mut self.bodies, &mut self.colliders, &mut self.joints);
        self.physics_step(tribo);
        tribo.after_step(&self.params, &self.bodies, &self.colliders, &self.narrow, &mut self.joints);
    }

    pub fn remove_body(&mut self, b: RigidBodyHandle, with_colliders: bool) {
        #[cfg(not(feature = "rapier-0-36"))]
        self.bodies.remove(
            b,
            &mut self.islands,
            &mut self.colliders,
            &mut self.joints,
            &mut self.multibody,
            with_colliders,
        );
        #[cfg(feature = "rapier-0-36")]
        self.bodies.remove(
            b,
            &mut self.islands,
            &mut self.colliders,
            &mut self.joints,
            &mut self.multibody,
            &mut SoftBodySet::new(),
            with_colliders,
        );
    }

    /// A ball of radius 0.1 m resting on a new [`floor`](Self::floor), both with
    /// [`rolling_material`]: (floor, ball body, ball collider).
    pub fn rolling_ball_on_floor(
        &mut self,
        tribo: &mut TriboRapier,
    ) -> (ColliderHandle, RigidBodyHandle, ColliderHandle) {
        let floor = self.floor();
        tribo.set_material(floor, rolling_material());
        let (b, c) = self.ball(0.1, Vector::new(0.0, 0.1, 0.0));
        tribo.set_material(c, rolling_material());
        (floor, b, c)
    }

    /// Removes collider `c`, waking its body only if `wake_up`.
    pub fn remove_collider(&mut self, c: ColliderHandle, wake_up: bool) {
        #[cfg(not(feature = "rapier-0-36"))]
        self.colliders.remove(c, &mut self.islands, &mut self.bodies, wake_up);
        #[cfg(feature = "rapier-0-36")]
        self.colliders.remove(c, &mut self.islands, &mut self.bodies, &mut SoftBodySet::new(), wake_up);
    }

    /// A 40 m × 40 m static floor collider (no parent body) with its top face at y = 0.
    pub fn floor(&mut self) -> ColliderHandle {
        self.colliders
            .insert(ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(Vector::new(0.0, -0.5, 0.0)))
    }

    pub fn ball(&mut self, r: f32, at: Vector) -> (RigidBodyHandle, ColliderHandle) {
        let b = self.bodies.insert(RigidBodyBuilder::dynamic().translation(at));
        let c =
            self.colliders.insert_with_parent(ColliderBuilder::ball(r).density(1000.0), b, &mut self.bodies);
        (b, c)
    }

    /// A fresh store (`material` on every collider) takes over this world, restored without its
    /// store: its first `before_step` removes the old store's marked joints, and after 21 steps
    /// every marked joint is one it owns and the anchor body was adopted, not duplicated.
    pub fn adopt_with_fresh_store(&mut self, material: tribo_rapier::FrictionMaterial) -> TriboRapier {
        let mut fresh = TriboRapier::new();
        for (h, _) in self.colliders.iter() {
            fresh.set_material(h, material);
        }
        fresh.before_step(&self.params, &mut self.bodies, &mut self.colliders, &mut self.joints);
        assert_eq!(self.marked_joints(), 0, "orphans removed by the new store");
        self.physics_step(&fresh);
        fresh.after_step(&self.params, &self.bodies, &self.colliders, &self.narrow, &mut self.joints);
        for _ in 0..20 {
            self.step(&mut fresh);
        }
        assert!(fresh.joint_count() > 0);
        assert_eq!(self.marked_joints(), fresh.joint_count());
        assert_eq!(self.marked_bodies(), 1, "the anchor body is adopted, not duplicated");
        fresh
    }

    /// Motor joints in the world carrying tribo's marker.
    pub fn marked_joints(&self) -> usize {
        self.joints.iter().filter(|(_, j)| j.data.user_data == TRIBO_JOINT_USER_DATA).count()
    }

    /// Bodies carrying tribo's marker (the anchor body).
    pub fn marked_bodies(&self) -> usize {
        self.bodies.iter().filter(|(_, b)| b.user_data == TRIBO_JOINT_USER_DATA).count()
    }

    /// Every body's pose and velocities as raw bits.
    pub fn fingerprint(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (_, b) in self.bodies.iter() {
            let p = b.position();
            for v in [p.translation, b.linvel(), b.angvel()] {
                out.extend([v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]);
            }
            let q = p.rotation;
            out.extend([q.x.to_bits(), q.y.to_bits(), q.z.to_bits(), q.w.to_bits()]);
        }
        out
    }
}

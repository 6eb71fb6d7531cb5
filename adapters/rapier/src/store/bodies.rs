//! The bodies as `after_step` reads them ([`BodiesNow`]): each body's kind, velocities and
//! start-of-step frame, read from rapier once per step and kept densely by body index.
//!
//! A body in a pile has several contacts (six or seven), and each contact reads both its bodies:
//! whether they move, their velocities at the contact points and the frame that maps a solver
//! anchor to the material point that touched when the step began. Reading them from rapier's
//! `RigidBody` (a large object, its fields on several cache lines) for every contact, and
//! computing the frame's rotation each time, cost more than the contact's own update.

use super::prefetch::AddressHints;
use super::*;
use crate::rapier3d::parry::glamx::Mat3A;
use crate::rapier3d::parry::math::Vec3A;

/// [`BodyNow::flags`]: the body is in the set.
pub(super) const PRESENT: u8 = 1;
/// The body is dynamic.
pub(super) const DYNAMIC: u8 = 2;
/// The body is dynamic and awake.
pub(super) const MOVING: u8 = 4;
/// The body is enabled.
pub(super) const ENABLED: u8 = 8;
/// The body is not dynamic, or has a positive finite mass.
pub(super) const MASS_OK: u8 = 16;

/// One body as of the end of a step (see the module docs).
#[derive(Clone, Copy)]
pub(super) struct BodyNow {
    /// The centre of mass. (The vectors are SIMD vectors: the contact update computes with
    /// them, and their results are those of the plain vectors' arithmetic, bit for bit.)
    pub(super) com: Vec3A,
    /// [`PRESENT`], [`DYNAMIC`], [`MOVING`], [`ENABLED`], [`MASS_OK`].
    pub(super) flags: u8,
    /// The rotation with the step's rotation undone (`exp(-ω dt) · q`), as a matrix (a
    /// matrix-vector product costs a third of a quaternion rotation): it maps a body-local
    /// solver anchor to the material point that touched when the step began.
    pub(super) rot: Mat3A,
    pub(super) linvel: Vec3A,
    pub(super) angvel: Vec3A,
    /// The `after_step` (its step count) the entry was read in, and the body's generation.
    step: u64,
    generation: u32,
}

impl BodyNow {
    /// A side without a body (or whose body is gone): at rest, no flag, and its anchors are in
    /// world space already (the identity maps them to themselves).
    pub(super) const WORLD: BodyNow = BodyNow::EMPTY;

    const EMPTY: BodyNow = BodyNow {
        com: Vec3A::ZERO,
        flags: 0,
        rot: Mat3A::IDENTITY,
        linvel: Vec3A::ZERO,
        angvel: Vec3A::ZERO,
        step: 0,
        generation: 0,
    };

    /// Whether every flag of `f` is set.
    #[inline(always)]
    pub(super) fn is(&self, f: u8) -> bool {
        self.flags & f == f
    }

    /// The velocity of the world point `p` moving with the body (rapier's
    /// `RigidBody::velocity_at_point`, the same arithmetic).
    #[inline(always)]
    pub(super) fn velocity_at(&self, p: Vec3A) -> Vec3A {
        self.linvel + self.angvel.cross(p - self.com)
    }

    /// A solver anchor of the body (in its centre-of-mass frame) as the world point it touched
    /// when the step began, at the body's present centre of mass (see `after_step`).
    #[inline(always)]
    pub(super) fn anchor_in_world(&self, anchor: Vector) -> Vec3A {
        // (The columns summed z first, the order the pile's checksums pin: another order changes
        // the last bits.)
        let m = &self.rot;
        self.com + (m.z_axis * anchor.z + m.y_axis * anchor.y + m.x_axis * anchor.x)
    }
}

/// The bodies of the current `after_step`, by body index (see the module docs). A cache: a
/// clone or a restored snapshot starts empty.
#[derive(Default)]
pub(super) struct BodiesNow {
    bodies: Vec<BodyNow>,
    /// Where each body was when last read (a body set that grew since may have moved it).
    addresses: AddressHints,
    /// The bodies read in this step at rapier's angular speed cap (see `angular_cap`).
    capped: Vec<RigidBodyHandle>,
}

impl Clone for BodiesNow {
    fn clone(&self) -> Self {
        BodiesNow::default()
    }
}

impl BodiesNow {
    /// The index of body `h` for [`at`](Self::at), read from `bodies` the first time `step`
    /// asks for it; `None` for no body or a body no longer in the set.
    #[inline(always)]
    pub(super) fn get(
        &mut self,
        h: Option<RigidBodyHandle>,
        bodies: &RigidBodySet,
        step: u64,
        dt: f32,
    ) -> Option<usize> {
        let h = h?;
        let (i, generation) = h.into_raw_parts();
        let i = i as usize;
        match self.bodies.get(i) {
            Some(b) if b.step == step && b.generation == generation => (b.flags & PRESENT != 0).then_some(i),
            _ => self.read(i, h, bodies, step, dt),
        }
    }

    /// The body at index `i` (from [`get`](Self::get)).
    #[inline(always)]
    pub(super) fn at(&self, i: usize) -> &BodyNow {
        &self.bodies[i]
    }

    /// The first read of body `h` (index `i`) in `step`.
    #[inline(never)]
    fn read(
        &mut self,
        i: usize,
        h: RigidBodyHandle,
        bodies: &RigidBodySet,
        step: u64,
        dt: f32,
    ) -> Option<usize> {
        if i >= HandleMap::<()>::DENSE {
            return None;
        }
        if i >= self.bodies.len() {
            self.bodies.resize(i + 1, BodyNow::EMPTY);
        }
        let generation = h.into_raw_parts().1;
        let Some(rb) = bodies.get(h) else {
            self.bodies[i] = BodyNow { step, generation, ..BodyNow::EMPTY };
            return None;
        };
        let (com, rot) = crate::slip::start_frame(rb, dt);
        let dynamic = rb.is_dynamic();
        let mass = rb.mass();
        let flag = |on: bool, f: u8| if on { f } else { 0 };
        let flags = PRESENT
            | flag(dynamic, DYNAMIC)
            | flag(dynamic && !rb.is_sleeping(), MOVING)
            | flag(rb.is_enabled(), ENABLED)
            | flag(!dynamic || (mass > 0.0 && mass.is_finite()), MASS_OK);
        self.bodies[i] = BodyNow {
            com: com.into(),
            flags,
            rot: Mat3A::from_quat(rot),
            linvel: rb.linvel().into(),
            angvel: rb.angvel().into(),
            step,
            generation,
        };
        self.addresses.record(i, rb);
        if dynamic && super::angular_cap::at_cap(rb.angvel(), dt, rb.is_fast_rotation_allowed()) {
            self.capped.push(h);
        }
        Some(i)
    }

    /// The bodies read at rapier's angular speed cap since the last call.
    pub(super) fn take_capped(&mut self) -> Vec<RigidBodyHandle> {
        std::mem::take(&mut self.capped)
    }

    /// Asks the CPU to load what [`get`](Self::get) will read of body `h` in `step`: its entry
    /// once read in this step, else rapier's body where it was when last read.
    #[inline(always)]
    pub(super) fn prefetch(&self, h: RigidBodyHandle, step: u64) {
        let i = h.into_raw_parts().0 as usize;
        match self.bodies.get(i) {
            Some(b) if b.step == step => super::prefetch::prefetch(b),
            _ => super::prefetch::prefetch(self.addresses.get::<RigidBody>(i)),
        }
    }
}

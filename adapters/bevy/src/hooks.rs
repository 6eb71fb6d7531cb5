//! Hook composition: [`TriboHooks`] puts tribo's contact modification next to the user's own
//! [`BevyPhysicsHooks`].

use std::sync::atomic::{AtomicU64, Ordering};

use bevy::ecs::system::{StaticSystemParam, SystemParam, SystemParamItem};
use bevy::prelude::*;
use bevy_rapier3d::pipeline::{ContactModificationContextView, PairFilterContextView};
use bevy_rapier3d::prelude::BevyPhysicsHooks;
use rapier3d::pipeline::{ContactModificationContext, PairFilterContext, PhysicsHooks};
use rapier3d::prelude::SolverFlags;

/// The physics-hooks type to give bevy_rapier when tribo is used:
/// `RapierPhysicsPlugin::<TriboHooks>` (no hooks of your own) or
/// `RapierPhysicsPlugin::<TriboHooks<MyHooks>>` (your `BevyPhysicsHooks` `SystemParam`).
///
/// bevy_rapier accepts exactly one hooks type per `RapierPhysicsPlugin`; this wrapper lets tribo
/// share it with yours. [`TriboPlugin`](crate::TriboPlugin) steps the simulation itself (see the
/// crate docs) and, at every rapier step, hands rapier a hooks object that
///
/// * forwards `filter_contact_pair` and `filter_intersection_pair` to your hooks unchanged;
/// * calls your `modify_solver_contacts` first (so you can still drop contacts, build one-way
///   platforms, set conveyor `tangent_velocity`, …) and then applies tribo's friction to the
///   remaining solver contacts of pairs where a collider has a
///   [`FrictionMaterial`](crate::FrictionMaterial).
///
/// Colliders with a `FrictionMaterial` get `ActiveHooks::MODIFY_SOLVER_CONTACTS` automatically,
/// so your `modify_solver_contacts` is also called for their pairs; return early for pairs you
/// do not care about. The flag belongs to whoever wrote the `ActiveHooks` component last:
/// tribo's goes with the material and is off the rapier collider while all its contacts stick
/// ([`Settings::unhook_settled`](crate::Settings::unhook_settled)); it is yours if the collider
/// had it when it got the material or once you write `ActiveHooks` with it, and then it stays
/// on. A value you write without it, on a collider with a material, gets tribo's flag back.
/// Write the flag yourself if your hook must see a pair every step.
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy::ecs::system::SystemParam;
/// use bevy_rapier3d::prelude::*;
/// use bevy_tribo::prelude::*;
///
/// /// Your own hooks, e.g. a conveyor belt.
/// #[derive(SystemParam)]
/// struct Conveyor<'w, 's> {
///     belts: Query<'w, 's, &'static Belt>,
/// }
/// #[derive(Component)]
/// struct Belt(f32);
///
/// impl BevyPhysicsHooks for Conveyor<'_, '_> {
///     fn modify_solver_contacts(&self, ctx: ContactModificationContextView) {
///         if let Ok(belt) = self.belts.get(ctx.collider1()) {
///             for c in ctx.raw.solver_contacts.iter_mut() {
///                 c.tangent_velocity = Vec3::X * belt.0;
///             }
///         }
///     }
/// }
///
/// App::new().add_plugins((
///     MinimalPlugins,
///     TransformPlugin,
///     RapierPhysicsPlugin::<TriboHooks<Conveyor>>::default(),
///     TriboPlugin::<Conveyor>::new(),
/// ));
/// ```
///
/// If something other than tribo's step system steps rapier with these hooks (for example
/// bevy_rapier's own `step_simulation` left running in another schedule), the calls are
/// forwarded to your hooks only, counted in [`TriboStats::bypassed_hook_calls`](crate::TriboStats)
/// and reported once as an error in the log: tribo's friction would otherwise silently be off.
#[derive(SystemParam)]
pub struct TriboHooks<'w, 's, H: BevyPhysicsHooks + 'static = ()> {
    /// The user's hooks.
    user: StaticSystemParam<'w, 's, H>,
    /// Counter of calls that did not come from tribo's stepping.
    bypass: Res<'w, HookBypass>,
}

impl<'w, 's, H> TriboHooks<'w, 's, H>
where
    H: BevyPhysicsHooks + 'static,
    for<'a, 'b> SystemParamItem<'a, 'b, H>: BevyPhysicsHooks,
{
    /// The user's hooks (`SystemParamItem` of `H`).
    pub fn user(&self) -> &SystemParamItem<'w, 's, H> {
        &self.user
    }

    pub(crate) fn bypass(&self) -> &HookBypass {
        &self.bypass
    }
}

impl<'w, 's, H> BevyPhysicsHooks for TriboHooks<'w, 's, H>
where
    H: BevyPhysicsHooks + 'static,
    for<'a, 'b> SystemParamItem<'a, 'b, H>: BevyPhysicsHooks,
{
    fn filter_contact_pair(&self, context: PairFilterContextView) -> Option<SolverFlags> {
        self.bypass.record();
        self.user.filter_contact_pair(context)
    }

    fn filter_intersection_pair(&self, context: PairFilterContextView) -> bool {
        self.bypass.record();
        self.user.filter_intersection_pair(context)
    }

    fn modify_solver_contacts(&self, context: ContactModificationContextView) {
        self.bypass.record();
        self.user.modify_solver_contacts(context)
    }
}

/// Counts hook calls that reached [`TriboHooks`] outside tribo's own stepping.
#[derive(Resource, Default, Debug)]
pub(crate) struct HookBypass {
    pub(crate) calls: AtomicU64,
}

impl HookBypass {
    fn record(&self) {
        self.calls.fetch_add(1, Ordering::Relaxed);
    }
}

/// The user's `BevyPhysicsHooks` item as rapier `PhysicsHooks`; tribo_rapier's hooks wrap it
/// (user first, then tribo) for every rapier step.
pub(crate) struct UserHooks<'a, U: BevyPhysicsHooks>(pub(crate) &'a U);

impl<U: BevyPhysicsHooks> PhysicsHooks for UserHooks<'_, U> {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        self.0.filter_contact_pair(PairFilterContextView { raw: context })
    }

    fn filter_intersection_pair(&self, context: &PairFilterContext) -> bool {
        self.0.filter_intersection_pair(PairFilterContextView { raw: context })
    }

    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        self.0.modify_solver_contacts(ContactModificationContextView { raw: context })
    }
}

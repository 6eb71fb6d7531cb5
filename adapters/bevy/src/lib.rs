//! # bevy_tribo
//!
//! Real dry friction for bevy games on bevy_rapier3d, through [`tribo_rapier`]:
//! static/kinetic sliding friction from tracked contact history (a brick rests on a slope
//! below atan μs and, once pushed, slides with μk), rolling resistance and spin friction
//! (solver-integrated motor joints, so a ball stops and stays stopped). Colliders without a
//! [`FrictionMaterial`] keep stock rapier behaviour.
//!
//! ## The three lines
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_rapier3d::prelude::*;
//! use bevy_tribo::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((
//!     MinimalPlugins,
//!     TransformPlugin,
//!     RapierPhysicsPlugin::<TriboHooks>::default(), // 1. tribo's hooks type for bevy_rapier
//!     TriboPlugin::default(),                        // 2. the plugin
//! ));
//! app.world_mut().spawn((
//!     RigidBody::Dynamic,
//!     Collider::ball(0.05),
//!     // 3. the component: μs 0.5, μk 0.4, rolling resistance 2 mm (torque bound 0.002 m × N)
//!     FrictionMaterial::builder().friction(0.5, 0.4).rolling_resistance(0.002).build()?,
//! ));
//! # Ok::<(), bevy_tribo::MaterialError>(())
//! ```
//!
//! With hooks of your own, see [`TriboHooks`]. With physics in `FixedUpdate`, call
//! `.in_fixed_schedule()` on both plugins.
//!
//! ## Cargo.toml
//!
//! A windowed app (bevy's default features, bevy_rapier3d's defaults):
//!
//! ```toml
//! [dependencies]
//! bevy = "=0.19.1"
//! bevy_rapier3d = "=0.36.0"
//! bevy_tribo = { path = "path/to/tribo/adapters/bevy" }
//! ```
//!
//! A headless app (tests, servers, CI): no window, renderer or assets.
//!
//! ```toml
//! [dependencies]
//! bevy = { version = "=0.19.1", default-features = false }
//! bevy_rapier3d = { version = "=0.36.0", default-features = false, features = ["dim3"] }
//! bevy_tribo = { path = "path/to/tribo/adapters/bevy" }
//! ```
//!
//! ## A headless app that prints
//!
//! `App::run` with `MinimalPlugins` loops forever; drive the frames yourself instead. A ball
//! rolling at 1 m/s with rolling resistance c = 0.004 m stops after
//! `v0² · 1.4 R/(2 c g)` = 0.89 m (R = 0.05 m):
//!
//! ```
//! use std::time::Duration;
//! use bevy::prelude::*;
//! use bevy::time::TimeUpdateStrategy;
//! use bevy_rapier3d::prelude::*;
//! use bevy_tribo::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((
//!     MinimalPlugins,
//!     TransformPlugin,
//!     RapierPhysicsPlugin::<TriboHooks>::default(),
//!     TriboPlugin::default(),
//! ))
//! // Each `update` advances 1/60 s, one rapier step of 1/60 s.
//! .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / 60.0)))
//! .insert_resource(TimestepMode::Fixed { dt: 1.0 / 60.0, substeps: 1 });
//! app.finish();
//! app.cleanup();
//! app.update(); // startup: creates the rapier context
//! let material = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.004).build()?;
//! app.world_mut().spawn((Transform::from_xyz(0.0, -0.5, 0.0), Collider::cuboid(50.0, 0.5, 50.0), material));
//! let ball = app
//!     .world_mut()
//!     .spawn((
//!         Transform::from_xyz(0.0, 0.05, 0.0),
//!         RigidBody::Dynamic,
//!         Collider::ball(0.05),
//!         ColliderMassProperties::Density(1000.0),
//!         Velocity { linear: Vec3::X, angular: Vec3::new(0.0, 0.0, -20.0) },
//!         material,
//!     ))
//!     .id();
//! for second in 1..=3 {
//!     for _ in 0..60 {
//!         app.update();
//!     }
//!     let x = app.world().get::<Transform>(ball).unwrap().translation.x;
//!     println!("t = {second} s: x = {x:.3} m");
//! }
//! let x = app.world().get::<Transform>(ball).unwrap().translation.x;
//! assert!((x - 0.892).abs() < 0.05, "{x}");
//! # Ok::<(), bevy_tribo::MaterialError>(())
//! ```
//!
//! ## Materials
//!
//! [`FrictionMaterial`] is the one material type of tribo_rapier and bevy_tribo (a bevy
//! `Component`, `Reflect`, Contensou model included); build it with
//! [`FrictionMaterial::builder`] (f32 or f64 values, validated once by `build`). Rolling and
//! spin resistance are lengths in metres (torque bound `c·N`, as in Chrono, Bullet, MuJoCo);
//! the paper's η forms are kept. Combine rules: the material's, else the collider's
//! bevy_rapier `Friction::combine_rule` (rapier's priority decides between the two sides);
//! per-pair overrides ("ice on steel") in the [`TriboPairMaterials`] resource. Details and
//! every capacity formula: [`tribo::tracking::Material`] and the workspace README.
//!
//! ## Stepping: one tribo update per rapier step
//!
//! bevy_rapier's `step_simulation` may take several rapier steps per run (`substeps`, the
//! catch-up loop of `TimestepMode::Interpolated`), so a system between bevy_rapier's sets
//! would update tribo once per frame only. [`TriboPlugin`] therefore disables
//! `PhysicsSet::StepSimulation` (a run condition) and runs [`tribo_step_simulation`] instead:
//! it splits the frame into exactly the rapier steps bevy_rapier would take, and around each
//! one runs tribo's before-step update, one step through bevy_rapier's own
//! `RapierContextSimulation::step_simulation` (events and user event handlers unchanged) and
//! tribo's after-step update. [`TriboStats`] counts both; the `stepping` tests check them
//! against an independent count in every `TimestepMode`. Steps of zero, negative or
//! non-finite length (time scale 0, a zero-length frame) are skipped: rapier's solver would
//! zero the spin of bodies in contact.
//!
//! ## Diagnostics
//!
//! [`TriboContacts`] (resource: per-contact modes, normal force, friction coefficient, roll
//! and spin torque bounds), [`TriboDiagnostic`] (messages), [`RealizabilityReport`] (messages
//! from the two-contact realizability monitor, opt-in), [`TriboStats`] (resource), the
//! [`TriboContext`] component on each rapier context, and with the `gizmos` feature the
//! `gizmos::TriboGizmosPlugin`.
#![warn(missing_docs)]

use std::marker::PhantomData;

use bevy::ecs::change_detection::{CheckChangeTicks, Tick};
use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParamItem;
use bevy::prelude::*;
use bevy_rapier3d::prelude::{
    ActiveHooks, BevyPhysicsHooks, PhysicsSet, RapierColliderHandle, RapierContextEntityLink,
    RapierContextSimulation, RapierPhysicsPlugin, TimestepMode,
};

mod context;
mod diagnostics;
#[cfg(feature = "gizmos")]
pub mod gizmos;
mod hooks;
mod slip;
mod step;

pub use context::TriboContext;
pub use diagnostics::{
    ContactReport, RealizabilityMonitor, RealizabilityReport, TriboContacts, TriboDiagnostic, TriboStats,
};
pub use hooks::TriboHooks;
pub use slip::{SlipReport, WatchSlip};
pub use step::tribo_step_simulation;
pub use tribo::realizability::Status as RealizabilityStatus;
pub use tribo::realizability::Transition;
pub use tribo_rapier::contensou;
pub use tribo_rapier::diagnostics::{BodyRealizability, BodySlip};
pub use tribo_rapier::{
    limits, CombineRule, CombineRules, Damping, Diagnostic, FrictionMaterial, FrictionMaterialBuilder,
    Material, MaterialError, MaterialId, Mode, PairTable, ParamError, RollOverride, Settings, SpinModel,
    MIN_VALIDATED_DT,
};
pub use tribo_rapier::{LimitDirection, SlipEvolution, SlipFate};

/// `use bevy_tribo::prelude::*;` brings the plugin, the hooks wrapper, the component, the
/// diagnostics and the types their fields use (`Mode`) into scope.
pub mod prelude {
    pub use crate::{
        CombineRule, ContactReport, FrictionMaterial, MaterialId, Mode, RealizabilityMonitor,
        RealizabilityReport, RealizabilityStatus, SlipFate, SlipReport, Transition, TriboContacts,
        TriboContext, TriboDiagnostic, TriboHooks, TriboPairMaterials, TriboPlugin, TriboSet, TriboStats,
        WatchSlip,
    };
}

/// Per-pair material overrides ("ice on steel") for every rapier context: contacts between
/// colliders whose materials carry the two [`MaterialId`]s use the table's material. Changes
/// apply from the next step on.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_tribo::prelude::*;
/// const ICE: MaterialId = MaterialId(1);
/// const STEEL: MaterialId = MaterialId(2);
/// fn setup(mut pairs: ResMut<TriboPairMaterials>) -> Result {
///     pairs.0.insert(ICE, STEEL, FrictionMaterial::builder().friction(0.03, 0.02).build()?);
///     Ok(())
/// }
/// ```
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(opaque, Resource, Default, Debug, PartialEq, Clone)]
pub struct TriboPairMaterials(pub PairTable);

/// System sets of [`TriboPlugin`], in the physics schedule.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum TriboSet {
    /// Material synchronisation and tribo's stepping; after bevy_rapier's (disabled)
    /// `PhysicsSet::StepSimulation`, before `PhysicsSet::Writeback`.
    Step,
}

/// The tribo plugin. `H` is your own `BevyPhysicsHooks` type (default: none); bevy_rapier must
/// be added as `RapierPhysicsPlugin::<TriboHooks<H>>` in the same schedule.
///
/// # Panics
/// At app finish if no `RapierPhysicsPlugin::<TriboHooks<H>>` was added.
pub struct TriboPlugin<H = ()> {
    schedule: Interned<dyn ScheduleLabel>,
    settings: Settings,
    realizability: bool,
    slip_reports: bool,
    _hooks: PhantomData<fn() -> H>,
}

impl Default for TriboPlugin<()> {
    /// The plugin without user hooks, in `PostUpdate` (bevy_rapier's default schedule); goes
    /// with `RapierPhysicsPlugin::<TriboHooks>::default()`.
    fn default() -> Self {
        TriboPlugin::new()
    }
}

impl<H> TriboPlugin<H> {
    /// The plugin for user hooks `H`, in `PostUpdate`: `TriboPlugin::<MyHooks>::new()` goes with
    /// `RapierPhysicsPlugin::<TriboHooks<MyHooks>>::default()`. Without hooks of your own use
    /// `TriboPlugin::default()`.
    pub fn new() -> Self {
        TriboPlugin {
            schedule: PostUpdate.intern(),
            settings: Settings::default(),
            realizability: false,
            slip_reports: false,
            _hooks: PhantomData,
        }
    }

    /// Tuning of the rapier mechanism (slip speed, anchor pull-back, motor damping) for every
    /// rapier context; see [`Settings`].
    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// Turns on the two-contact realizability monitor ([`RealizabilityMonitor`]): after every
    /// rapier step a [`RealizabilityReport`] message for each body on two contacts.
    pub fn with_realizability(mut self, on: bool) -> Self {
        self.realizability = on;
        self
    }

    /// Turns on the single-contact slip diagnostic: registers the [`SlipReport`] message, sent
    /// after every rapier step for each body carrying [`WatchSlip`] that is on exactly one
    /// support. Off by default: without it `WatchSlip` does nothing and no message type is
    /// added to the app.
    pub fn with_slip_reports(mut self, on: bool) -> Self {
        self.slip_reports = on;
        self
    }

    /// Runs in `FixedUpdate`; use together with `RapierPhysicsPlugin::in_fixed_schedule()`.
    pub fn in_fixed_schedule(self) -> Self {
        self.in_schedule(FixedUpdate)
    }

    /// Runs in `schedule`; must be the schedule given to `RapierPhysicsPlugin::in_schedule`.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }
}

impl<H> Plugin for TriboPlugin<H>
where
    H: BevyPhysicsHooks + 'static,
    for<'w, 's> SystemParamItem<'w, 's, H>: BevyPhysicsHooks,
{
    fn build(&self, app: &mut App) {
        app.init_resource::<TriboStats>()
            .init_resource::<TriboContacts>()
            .init_resource::<TriboPairMaterials>()
            .register_type::<FrictionMaterial>()
            .register_type::<TriboPairMaterials>()
            .register_type::<TriboStats>()
            .register_type::<TriboContacts>()
            .register_type::<RealizabilityMonitor>()
            .register_type::<WatchSlip>()
            .init_resource::<hooks::HookBypass>()
            .init_resource::<TimestepMode>()
            .insert_resource(TriboSettings(self.settings))
            .add_message::<TriboDiagnostic>()
            .add_message::<RealizabilityReport>()
            .insert_resource(RealizabilityMonitor { enabled: self.realizability })
            .add_observer(add_context_state)
            .add_observer(add_active_hooks)
            .add_observer(remove_active_hooks)
            .add_observer(check_hook_ticks);
        if self.slip_reports {
            app.add_message::<SlipReport>();
        }
        // bevy_rapier's own stepping is replaced by `tribo_step_simulation`.
        app.configure_sets(self.schedule, PhysicsSet::StepSimulation.run_if(never));
        app.configure_sets(
            self.schedule,
            TriboSet::Step.after(PhysicsSet::StepSimulation).before(PhysicsSet::Writeback),
        );
        app.add_systems(self.schedule, keep_active_hooks.before(PhysicsSet::SyncBackend));
        app.add_systems(
            self.schedule,
            (sync_materials, tribo_step_simulation::<H>, report_bypass).chain().in_set(TriboSet::Step),
        );
    }

    fn finish(&self, app: &mut App) {
        if !app.is_plugin_added::<RapierPhysicsPlugin<TriboHooks<'static, 'static, H>>>() {
            panic!(
                "TriboPlugin<{h}> needs bevy_rapier3d's plugin with tribo's hooks type: add \
                 `RapierPhysicsPlugin::<TriboHooks<{h}>>::default()` (in the same schedule)",
                h = std::any::type_name::<H>()
            );
        }
        // Both plugins must run in one schedule: tribo replaces bevy_rapier's step there; in
        // another schedule bevy_rapier would step the world a second time without tribo.
        if let Some(rapier) = rapier_schedule_mismatch(app, self.schedule) {
            panic!(
                "TriboPlugin runs in {tribo:?} but RapierPhysicsPlugin in {rapier}: put both in \
                 the same schedule (e.g. `.in_fixed_schedule()` on both, or neither)",
                tribo = self.schedule,
            );
        }
    }
}

/// When bevy_rapier set up its system sets (the ones holding `RapierBevyComponentApply`) in a
/// schedule other than `tribo`: that schedule's name.
fn rapier_schedule_mismatch(app: &App, tribo: Interned<dyn ScheduleLabel>) -> Option<String> {
    let marker = bevy::ecs::schedule::SystemSet::intern(&bevy_rapier3d::plugin::RapierBevyComponentApply);
    let schedules = app.world().get_resource::<bevy::ecs::schedule::Schedules>()?;
    let has = |s: &bevy::ecs::schedule::Schedule| s.graph().system_sets.get_key(marker).is_some();
    if schedules.get(tribo).is_some_and(has) {
        return None;
    }
    schedules.iter().find(|(_, s)| has(s)).map(|(label, _)| format!("{label:?}"))
}

fn never() -> bool {
    false
}

/// Marks a collider whose `ActiveHooks::MODIFY_SOLVER_CONTACTS` flag is tribo's: tribo put it
/// there, takes it off with the material and tells the store it may take it off while the
/// collider's contacts are settled. Holds the change tick of tribo's own last write of the
/// collider's `ActiveHooks`; a write with another change tick is someone else's (the user's),
/// and [`keep_active_hooks`] settles from it whose flag is.
///
/// Each tribo write has a change tick no other write shares: [`add_active_hooks`] writes in a
/// command and advances the world's change tick after it, [`keep_active_hooks`] writes through
/// change detection at its own run's tick.
#[derive(Component)]
struct TriboAddedHooks(Tick);

impl TriboAddedHooks {
    /// Whether `hooks` is still as tribo last wrote it.
    fn wrote(&self, hooks: &impl DetectChanges) -> bool {
        hooks.last_changed() == self.0
    }
}

/// The settings new [`TriboContext`]s are created with.
#[derive(Resource)]
struct TriboSettings(Settings);

fn add_context_state(
    add: On<Add, RapierContextSimulation>,
    mut commands: Commands,
    settings: Res<TriboSettings>,
) {
    commands.entity(add.entity).insert(TriboContext::new(settings.0));
}

/// A collider given a material gets `MODIFY_SOLVER_CONTACTS` (OR-ed into its `ActiveHooks`),
/// owned by tribo; a flag it already has stays whose it is (the user's, unless the material was
/// removed and given again before tribo took its flag off).
fn add_active_hooks(add: On<Add, FrictionMaterial>, mut commands: Commands) {
    let entity = add.entity;
    // In a command, to see the `ActiveHooks` the entity has when tribo writes it (the user's
    // commands queued before this one included) and to read the change tick of the write.
    commands.queue(move |world: &mut World| {
        let Ok(mut e) = world.get_entity_mut(entity) else { return };
        let hooks = e.get::<ActiveHooks>().copied().unwrap_or(ActiveHooks::empty());
        if !e.contains::<FrictionMaterial>() || hooks.contains(ActiveHooks::MODIFY_SOLVER_CONTACTS) {
            return;
        }
        e.insert(hooks | ActiveHooks::MODIFY_SOLVER_CONTACTS);
        let Some(tick) = e.get_ref::<ActiveHooks>().map(|h| h.last_changed()) else { return };
        e.insert(TriboAddedHooks(tick));
        // The next write of the component, whoever's, gets a later tick.
        world.increment_change_tick();
    });
}

/// A collider losing its material loses tribo's flag (the rest of its `ActiveHooks` stays);
/// the user's flag stays. A collider whose `ActiveHooks` the user removed after tribo's write
/// gets an empty one: bevy_rapier does not pass a removal on, so the rapier collider still
/// carries tribo's flag, and an empty component is what bevy_rapier writes through.
fn remove_active_hooks(remove: On<Remove, FrictionMaterial>, mut commands: Commands) {
    let entity = remove.entity;
    commands.queue(move |world: &mut World| {
        let Ok(mut e) = world.get_entity_mut(entity) else { return };
        // Given a material again before this command: the flag stays tribo's.
        if e.contains::<FrictionMaterial>() {
            return;
        }
        let Some(marker) = e.take::<TriboAddedHooks>() else { return };
        let hooks = e.get_ref::<ActiveHooks>().map(|h| (*h, marker.wrote(&h)));
        match hooks {
            Some((h, true)) => {
                e.insert(h - ActiveHooks::MODIFY_SOLVER_CONTACTS);
            }
            // Written by the user since tribo's last write: theirs, flag included.
            Some((_, false)) => {}
            None => {
                e.insert(ActiveHooks::empty());
            }
        }
    });
}

/// Settles whose `MODIFY_SOLVER_CONTACTS` flag is after someone other than tribo wrote a
/// collider's `ActiveHooks` (inserted or changed it): a value with the flag makes the flag the
/// user's (tribo no longer takes it off with the material, nor does the store while the
/// contacts are settled); a value without it, on a collider with a material, gets tribo's flag
/// back, owned by tribo.
#[allow(clippy::type_complexity)]
fn keep_active_hooks(
    mut commands: Commands,
    mut q: Query<
        (Entity, Mut<ActiveHooks>, Option<Mut<TriboAddedHooks>>, Has<FrictionMaterial>),
        Changed<ActiveHooks>,
    >,
) {
    for (e, mut h, marker, material) in &mut q {
        if marker.as_ref().is_some_and(|m| m.wrote(&h)) {
            continue; // tribo's own write
        }
        if material && !h.contains(ActiveHooks::MODIFY_SOLVER_CONTACTS) {
            *h |= ActiveHooks::MODIFY_SOLVER_CONTACTS;
            let tick = h.last_changed();
            match marker {
                Some(mut m) => m.0 = tick,
                None => {
                    commands.entity(e).insert(TriboAddedHooks(tick));
                }
            }
        } else if marker.is_some() {
            commands.entity(e).remove::<TriboAddedHooks>();
        }
    }
}

/// Keeps the ticks in [`TriboAddedHooks`] comparable with the component ticks bevy clamps when
/// they grow old (a marker and the tick of the write it records are clamped alike).
fn check_hook_ticks(check: On<CheckChangeTicks>, mut markers: Query<&mut TriboAddedHooks>) {
    for mut m in &mut markers {
        m.0.check_tick(*check);
    }
}

/// Mirrors added, changed and removed [`FrictionMaterial`]s (and despawned colliders) into the
/// per-context tribo state.
#[allow(clippy::type_complexity)]
fn sync_materials(
    changed: Query<
        (Entity, &FrictionMaterial, &RapierColliderHandle, &RapierContextEntityLink, Has<TriboAddedHooks>),
        Or<(Changed<FrictionMaterial>, Changed<RapierColliderHandle>, Changed<RapierContextEntityLink>)>,
    >,
    owners: Query<
        (&RapierColliderHandle, &RapierContextEntityLink, Has<TriboAddedHooks>),
        (With<FrictionMaterial>, Changed<ActiveHooks>),
    >,
    mut removed_material: RemovedComponents<FrictionMaterial>,
    mut removed_handle: RemovedComponents<RapierColliderHandle>,
    mut contexts: Query<(Entity, &mut TriboContext)>,
    pairs: Option<Res<TriboPairMaterials>>,
    mut had_pairs: Local<bool>,
) {
    // A removed `TriboPairMaterials` resource means no pair overrides.
    let (table_changed, table) = match &pairs {
        Some(p) => (p.is_changed() || !*had_pairs, &p.0),
        None => (*had_pairs, &PairTable::default()),
    };
    *had_pairs = pairs.is_some();
    for (_, mut c) in &mut contexts {
        if table_changed || c.is_added() {
            c.set_pair_table(table.clone());
        }
    }
    for e in removed_material.read().chain(removed_handle.read()) {
        for (_, mut c) in &mut contexts {
            c.remove_material(e);
        }
    }
    for (e, m, handle, link, tribo_flag) in &changed {
        // A collider that moved between contexts leaves its old one (in its own context a
        // material marked changed but equal changes nothing: no body is woken).
        for (context, mut c) in &mut contexts {
            if context != link.0 {
                c.remove_material(e);
            }
        }
        if let Ok((_, mut c)) = contexts.get_mut(link.0) {
            c.set_material(e, handle.0, *m);
            // Whose the collider's hook flag is: tribo's (the store may take it off while the
            // contacts stick) or the user's (it stays).
            c.set_hook_flag_owner(handle.0, tribo_flag);
        }
    }
    // A written `ActiveHooks` may have changed whose the flag is (see `keep_active_hooks`).
    for (handle, link, tribo_flag) in &owners {
        if let Ok((_, mut c)) = contexts.get_mut(link.0) {
            c.set_hook_flag_owner(handle.0, tribo_flag);
        }
    }
}

/// Logs (once) that tribo's hooks were called by something other than tribo's stepping.
fn report_bypass(stats: Option<Res<TriboStats>>, mut reported: Local<bool>) {
    let Some(stats) = stats else { return };
    if stats.bypassed_hook_calls > 0 && !*reported {
        *reported = true;
        log::error!(
            "bevy_tribo: TriboHooks was called {} times outside tribo's stepping: bevy_rapier's \
             own step_simulation is running (is TriboPlugin in the same schedule as \
             RapierPhysicsPlugin?). tribo friction is OFF for those steps.",
            stats.bypassed_hook_calls
        );
    }
}

/// The workspace README's examples (plain rapier, bevy, the core crate, materials), compiled
/// and run as doctests (`cargo test -p bevy_tribo --doc`): this crate depends on every crate
/// they use.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct WorkspaceReadmeExamples;

/// This crate's README example (a windowed app: compiled, not run), as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

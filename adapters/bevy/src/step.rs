//! tribo's replacement of bevy_rapier's `step_simulation`: one tribo update per rapier step.

use std::sync::atomic::Ordering;

use bevy::ecs::message::Messages;
use bevy::ecs::system::{StaticSystemParam, SystemParamItem};
use bevy::prelude::*;
use bevy_rapier3d::pipeline::{CollisionEvent, ContactForceEvent};
use bevy_rapier3d::plugin::context::SimulationToRenderTime;
use bevy_rapier3d::prelude::{
    BevyPhysicsHooks, RapierConfiguration, RapierContextColliders, RapierContextEntityLink,
    RapierContextJoints, RapierContextSimulation, RapierRigidBodyHandle, RapierRigidBodySet, TimestepMode,
    TransformInterpolation,
};
use rapier3d::pipeline::PhysicsHooks;

use crate::context::StepOutput;
use crate::context::TriboContext;
use crate::diagnostics::{RealizabilityMonitor, RealizabilityReport, TriboDiagnostic};
use crate::diagnostics::{TriboContacts, TriboStats};
use crate::hooks::{TriboHooks, UserHooks};

/// The lengths of the rapier steps one run of the physics schedule performs for `mode`, exactly
/// as bevy_rapier 0.36's `RapierContextSimulation::step_simulation` would (same dt, same
/// substep split, same interpolation catch-up loop), plus the `IntegrationParameters::dt` it
/// leaves behind.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StepPlan {
    /// `(substep dt, last_catch_up_iteration)` for each rapier step, in order.
    pub(crate) steps: Vec<(f32, bool)>,
    /// The value bevy_rapier stores in `integration_parameters.dt`.
    pub(crate) frame_dt: f32,
}

impl StepPlan {
    /// The steps for `mode`, frame time `delta` (s) and the interpolation accumulator `diff`
    /// (updated in place for [`TimestepMode::Interpolated`]).
    pub(crate) fn new(mode: TimestepMode, delta: f32, diff: &mut f32) -> Self {
        // One frame of `dt` split into `substeps` equal steps (Fixed and Variable).
        let uniform = |dt: f32, substeps: usize| StepPlan {
            steps: vec![(dt / substeps as f32, false); substeps],
            frame_dt: dt,
        };
        match mode {
            TimestepMode::Fixed { dt, substeps } => uniform(dt, substeps),
            TimestepMode::Variable { max_dt, time_scale, substeps } => {
                uniform((delta * time_scale).min(max_dt), substeps)
            }
            TimestepMode::Interpolated { dt, time_scale, substeps } => {
                let mut steps = Vec::new();
                *diff += delta;
                // Same loop (and same float comparisons) as bevy_rapier's.
                while *diff > 0.0 {
                    let last = *diff - dt <= 0.0;
                    for _ in 0..substeps {
                        steps.push((dt / (substeps as f32) * time_scale, last));
                    }
                    *diff -= dt;
                }
                StepPlan { steps, frame_dt: dt }
            }
        }
    }
}

/// tribo's stepping system; it takes the place of bevy_rapier's `step_simulation::<H>` (which
/// [`TriboPlugin`](crate::TriboPlugin) disables with a run condition on
/// `PhysicsSet::StepSimulation`).
///
/// For every rapier context and every rapier step that bevy_rapier would have taken this frame
/// (all [`TimestepMode`]s, substeps included), it runs
/// 1. tribo's before-step work (contact tracking update, roll/spin motor refresh),
/// 2. exactly one rapier step, through bevy_rapier's own
///    `RapierContextSimulation::step_simulation` called with `TimestepMode::Fixed { dt: substep,
///    substeps: 1 }` (so collision/contact-force events, user event handlers and removals behave
///    as in bevy_rapier), with the hooks [`TriboHooks<H>`] composed with tribo's contact
///    modification,
/// 3. tribo's after-step work (read-back of loads, modes and diagnostics).
///
/// [`TriboPlugin`](crate::TriboPlugin) adds it (in [`TriboSet::Step`](crate::TriboSet), after
/// `PhysicsSet::StepSimulation`, before `PhysicsSet::Writeback`) also when bevy_rapier is set
/// up with `with_default_system_setup(false)`; do not add it a second time. bevy_rapier's own
/// step systems, if you add them to `PhysicsSet::StepSimulation` in the same schedule, stay
/// disabled by the run condition.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub fn tribo_step_simulation<H>(
    mut contexts: Query<(
        Entity,
        &mut RapierContextSimulation,
        &mut RapierContextColliders,
        &mut RapierContextJoints,
        &mut RapierRigidBodySet,
        &RapierConfiguration,
        &mut SimulationToRenderTime,
        Option<&mut TriboContext>,
    )>,
    timestep_mode: Res<TimestepMode>,
    hooks: StaticSystemParam<TriboHooks<'static, 'static, H>>,
    time: Res<Time>,
    mut collision_events: MessageWriter<CollisionEvent>,
    mut contact_force_events: MessageWriter<ContactForceEvent>,
    mut interpolation_query: Query<(&RapierRigidBodyHandle, &mut TransformInterpolation)>,
    stats: Option<ResMut<TriboStats>>,
    contacts: Option<ResMut<TriboContacts>>,
    mut diagnostics: MessageWriter<TriboDiagnostic>,
    mut realizability: MessageWriter<RealizabilityReport>,
    monitor: Option<Res<RealizabilityMonitor>>,
    slips: Option<ResMut<Messages<crate::SlipReport>>>,
    watched: Query<(&RapierRigidBodyHandle, Option<&RapierContextEntityLink>), With<crate::WatchSlip>>,
    mut found: Local<StepOutput>,
    mut scratch: Local<(TriboStats, TriboContacts)>,
) where
    H: BevyPhysicsHooks + 'static,
    for<'w, 's> SystemParamItem<'w, 's, H>: BevyPhysicsHooks,
{
    let hooks = hooks.into_inner();
    let user = UserHooks(hooks.user());
    // The diagnostics resources are optional: a user who removed them keeps the physics.
    let (scratch_stats, scratch_contacts) = &mut *scratch;
    let stats = match stats {
        Some(s) => s.into_inner(),
        None => scratch_stats,
    };
    let contacts = match contacts {
        Some(c) => c.into_inner(),
        None => scratch_contacts,
    };
    let monitor_on = monitor.is_some_and(|m| m.enabled);
    stats.frames += 1;
    contacts.clear();

    for (entity, mut sim, mut colliders, mut joints, mut bodies, config, mut sim_to_render, tribo) in
        contexts.iter_mut()
    {
        let sim = &mut *sim;
        let colliders = &mut *colliders;
        let joints = &mut *joints;
        let bodies = &mut *bodies;
        let mut tribo = tribo;

        if !config.physics_pipeline_active {
            bodies.propagate_modified_body_positions_to_colliders(colliders);
            sim.send_bevy_events(&mut collision_events, &mut contact_force_events);
            // Paused: the contacts of the last rapier step are still the current ones.
            if let Some(t) = tribo.as_deref() {
                t.report(entity, colliders, bodies, contacts);
            }
            continue;
        }

        if let Some(t) = tribo.as_deref_mut() {
            t.set_realizability(monitor_on, config.gravity);
            // The watched bodies of this context (a body without a link is in the only one),
            // when the plugin sends slip reports.
            let on = slips.is_some();
            t.set_watched_slips(
                watched.iter().filter(|(_, link)| on && link.is_none_or(|l| l.0 == entity)).map(|(h, _)| h.0),
            );
        }
        let plan = StepPlan::new(*timestep_mode, time.delta_secs(), &mut sim_to_render.diff);
        let mut step = 0u32;
        for &(dt, last_catch_up) in &plan.steps {
            if last_catch_up {
                // bevy_rapier records the interpolation start pose before the last catch-up
                // iteration of `TimestepMode::Interpolated`.
                for (handle, mut interpolation) in interpolation_query.iter_mut() {
                    if let Some(body) = bodies.bodies.get(handle.0) {
                        interpolation.start = Some(*body.position());
                        interpolation.end = None;
                    }
                }
            }
            if !(dt > 0.0 && dt.is_finite()) {
                // A step of zero, negative or non-finite length (time scale 0, a zero-length
                // frame in `Variable` mode, `Fixed { dt: 0.0 }`) is skipped: it would advance
                // nothing, yet rapier's solver run with it sets the angular velocity of bodies
                // in contact to zero (a rolling ball lost its spin in one such step).
                continue;
            }

            if let Some(t) = tribo.as_deref_mut() {
                t.before_step(dt, sim, colliders, joints, bodies);
            }
            {
                let tribo_hooks = tribo.as_deref().map(|t| t.hooks(&user));
                let step_hooks: &dyn PhysicsHooks = match &tribo_hooks {
                    Some(h) => h,
                    None => &user,
                };
                let mut unused = SimulationToRenderTime::default();
                sim.step_simulation(
                    colliders,
                    joints,
                    bodies,
                    config.gravity,
                    TimestepMode::Fixed { dt, substeps: 1 },
                    Some((&collision_events, &contact_force_events)),
                    step_hooks,
                    &time,
                    &mut unused,
                    None,
                );
            }
            // `step_simulation` keeps only the last call's events: send them after every step.
            sim.send_bevy_events(&mut collision_events, &mut contact_force_events);
            if let Some(t) = tribo.as_deref_mut() {
                t.after_step(dt, step, sim, colliders, joints, bodies, entity, &mut found);
                stats.tribo_updates += 1;
            }
            stats.rapier_steps += 1;
            step += 1;
        }
        sim.integration_parameters.dt = plan.frame_dt;

        if let Some(t) = tribo.as_deref() {
            t.report(entity, colliders, bodies, contacts);
        }
    }

    stats.bypassed_hook_calls = hooks.bypass().calls.load(Ordering::Relaxed);
    // Each problem is found once; it is also logged, for apps that read no messages.
    for d in &found.diagnostics {
        log::warn!("bevy_tribo: {d}");
    }
    diagnostics.write_batch(found.diagnostics.drain(..));
    realizability.write_batch(found.realizability.drain(..));
    match slips {
        Some(mut m) => {
            m.write_batch(found.slips.drain(..));
        }
        None => found.slips.clear(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_and_variable_plans() {
        let mut diff = 0.0;
        let p = StepPlan::new(TimestepMode::Fixed { dt: 1.0 / 60.0, substeps: 4 }, 0.5, &mut diff);
        assert_eq!(p.steps.len(), 4);
        assert!((p.steps[0].0 - 1.0 / 240.0).abs() < 1e-9);
        assert_eq!(p.frame_dt, 1.0 / 60.0);
        // Variable: min(delta * scale, max_dt) split in substeps.
        let p = StepPlan::new(
            TimestepMode::Variable { max_dt: 0.05, time_scale: 2.0, substeps: 3 },
            0.01,
            &mut diff,
        );
        assert_eq!(p.steps.len(), 3);
        assert!((p.frame_dt - 0.02).abs() < 1e-9);
        assert!((p.steps[2].0 - 0.02 / 3.0).abs() < 1e-9);
        let p = StepPlan::new(
            TimestepMode::Variable { max_dt: 0.05, time_scale: 1.0, substeps: 2 },
            1.0,
            &mut diff,
        );
        assert!((p.frame_dt - 0.05).abs() < 1e-9);
        assert_eq!(diff, 0.0);
    }

    #[test]
    fn interpolated_plan_catches_up() {
        // Frame of 2.5 dt: three catch-up iterations (diff 2.5 → 1.5 → 0.5 → -0.5), the last
        // one flagged, each with 2 substeps of dt/2 · time_scale.
        let dt = 0.01;
        let mut diff = 0.0;
        let p =
            StepPlan::new(TimestepMode::Interpolated { dt, time_scale: 1.0, substeps: 2 }, 0.025, &mut diff);
        assert_eq!(p.steps.len(), 6);
        assert_eq!(p.steps.iter().filter(|s| s.1).count(), 2);
        assert!(p.steps[4].1 && p.steps[5].1 && !p.steps[3].1);
        assert!((diff + 0.005).abs() < 1e-6);
        assert!((p.steps[0].0 - 0.005).abs() < 1e-9);
        // Next frame of 0.004 s: diff goes -0.005 → -0.001, no step.
        let p =
            StepPlan::new(TimestepMode::Interpolated { dt, time_scale: 1.0, substeps: 2 }, 0.004, &mut diff);
        assert!(p.steps.is_empty());
    }
}

//! Gizmo drawing of tribo contacts (cargo feature `gizmos`).
//!
//! Add [`TriboGizmosPlugin`] next to bevy's `GizmoPlugin` (part of `DefaultPlugins`; the lines
//! show on screen when bevy's `bevy_gizmos_render` feature is on). For every tracked contact it
//! draws, in [`Update`]:
//! * the contact frame: a short line along each tangent (red, green) and the normal (blue);
//! * the normal force `N` as an arrow along the normal, scaled by
//!   [`TriboGizmoConfig::force_scale`] (m per N): green while the contact sticks (static slide),
//!   orange while it slips (kinetic);
//! * the slide friction bound `μ N` as a circle in the tangent plane (same scale);
//! * the roll and spin torque bounds as circles, scaled by
//!   [`TriboGizmoConfig::torque_scale`] (m per N·m): purple for roll, cyan for spin.
//!
//! and for the diagnostics' messages of the frame ([`draw_tribo_verdicts`]):
//! * a [`RealizabilityReport`]: the chord between the body's two contacts, green when two-point
//!   rolling is realizable, red when not, with a red ring at each contact that slips in one of
//!   the predicted transitions;
//! * a [`SlipReport`] of a slipping contact: the slip now (orange arrow) and the final slip
//!   direction (green arrow when the slip ends and rolling holds, red when it grows or slips
//!   again), and the limit directions as short lines (blue attracting, red repelling), each
//!   [`TriboGizmoConfig::frame_size`] long.

use bevy::color::Color;
use bevy::ecs::message::{MessageCursor, Messages};
use bevy::math::Isometry3d;
use bevy::prelude::*;
use tribo_rapier::Mode;

use crate::diagnostics::{RealizabilityReport, TriboContacts};
use crate::SlipReport;

/// Draws tribo's contacts with bevy gizmos (see the module docs).
#[derive(Default)]
pub struct TriboGizmosPlugin;

impl Plugin for TriboGizmosPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TriboGizmoConfig>()
            .register_type::<TriboGizmoConfig>()
            .add_message::<RealizabilityReport>()
            .add_systems(Update, (draw_tribo_contacts, draw_tribo_verdicts));
    }

    /// Refuses to start (with a message naming what to add) when bevy's gizmo resources are
    /// missing: the drawing system could not run.
    fn finish(&self, app: &mut App) {
        use bevy::gizmos::config::{DefaultGizmoConfigGroup, GizmoConfigStore};
        use bevy::gizmos::gizmos::GizmoStorage;
        let world = app.world();
        if !world.contains_resource::<GizmoConfigStore>()
            || !world.contains_resource::<GizmoStorage<DefaultGizmoConfigGroup, ()>>()
        {
            panic!("{}", MISSING_GIZMOS);
        }
    }
}

/// The startup error of [`TriboGizmosPlugin`] without bevy's gizmos.
pub const MISSING_GIZMOS: &str = "TriboGizmosPlugin needs bevy's gizmos: add `DefaultPlugins` \
     (which include `bevy::gizmos::GizmoPlugin`) or `GizmoPlugin` itself; headless apps without \
     rendering can add `app.init_asset::<bevy::gizmos::GizmoAsset>()` and \
     `app.init_gizmo_group::<bevy::gizmos::config::DefaultGizmoConfigGroup>()` instead";

/// Scales and switches of [`TriboGizmosPlugin`].
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Resource, Debug, PartialEq, Clone)]
pub struct TriboGizmoConfig {
    /// Draw anything at all. Default `true`.
    pub enabled: bool,
    /// Length of the contact-frame axes (m). Default 0.1.
    pub frame_size: f32,
    /// Metres of arrow or circle radius per newton. Default 0.05.
    pub force_scale: f32,
    /// Metres of circle radius per newton-metre. Default 1.0.
    pub torque_scale: f32,
}

impl Default for TriboGizmoConfig {
    fn default() -> Self {
        TriboGizmoConfig { enabled: true, frame_size: 0.1, force_scale: 0.05, torque_scale: 1.0 }
    }
}

/// Draws every contact of [`TriboContacts`] (nothing when that resource was removed; the
/// default [`TriboGizmoConfig`] when that one was).
pub fn draw_tribo_contacts(
    contacts: Option<Res<TriboContacts>>,
    config: Option<Res<TriboGizmoConfig>>,
    mut gizmos: Gizmos,
) {
    let config = config.map_or_else(TriboGizmoConfig::default, |c| *c);
    let Some(contacts) = contacts else { return };
    if !config.enabled {
        return;
    }
    for c in &contacts.contacts {
        let n = c.normal.normalize_or_zero();
        if n == Vec3::ZERO || !c.point.is_finite() {
            continue;
        }
        let t1 = n.any_orthonormal_vector();
        let t2 = n.cross(t1);
        let p = c.point;
        let s = config.frame_size;
        gizmos.line(p, p + t1 * s, Color::srgb(1.0, 0.2, 0.2));
        gizmos.line(p, p + t2 * s, Color::srgb(0.2, 1.0, 0.2));
        gizmos.line(p, p + n * s, Color::srgb(0.3, 0.3, 1.0));

        let slide_color = match c.slide {
            Mode::Static => Color::srgb(0.1, 0.9, 0.3),
            Mode::Kinetic => Color::srgb(1.0, 0.6, 0.1),
        };
        if c.normal_force > 0.0 {
            gizmos.arrow(p, p + n * c.normal_force * config.force_scale, slide_color);
        }
        let plane = Isometry3d::new(p, Quat::from_rotation_arc(Vec3::Z, n));
        let mut ring = |radius: f32, color: Color| {
            if radius.is_finite() && radius > 0.0 {
                gizmos.circle(plane, radius, color);
            }
        };
        ring(c.slide_capacity() * config.force_scale, slide_color);
        ring(c.roll_capacity * config.torque_scale, Color::srgb(0.7, 0.3, 1.0));
        ring(c.spin_capacity * config.torque_scale, Color::srgb(0.2, 0.9, 0.9));
    }
}

/// Draws the diagnostics' messages (see the module docs); nothing when [`TriboGizmoConfig`]
/// is disabled.
pub fn draw_tribo_verdicts(
    mut realizability: MessageReader<RealizabilityReport>,
    slip_messages: Option<Res<Messages<SlipReport>>>,
    mut slip_cursor: Local<MessageCursor<SlipReport>>,
    config: Option<Res<TriboGizmoConfig>>,
    mut gizmos: Gizmos,
) {
    let config = config.map_or_else(TriboGizmoConfig::default, |c| *c);
    // `SlipReport` is registered only with `TriboPlugin::with_slip_reports`.
    let slips: Vec<&SlipReport> =
        slip_messages.as_deref().map_or(Vec::new(), |m| slip_cursor.read(m).collect());
    if !config.enabled {
        realizability.clear();
        return;
    }
    let (green, red, orange, blue) = (
        Color::srgb(0.1, 0.9, 0.3),
        Color::srgb(1.0, 0.15, 0.1),
        Color::srgb(1.0, 0.6, 0.1),
        Color::srgb(0.3, 0.5, 1.0),
    );
    let s = config.frame_size;
    for r in realizability.read() {
        let [a, b] = r.report.contacts.map(|c| c.point.as_vec3());
        if !(a.is_finite() && b.is_finite()) || r.status().is_none() {
            continue;
        }
        gizmos.line(a, b, if r.realizable() { green } else { red });
        for t in r.transitions() {
            for c in r.report.slipping_contacts(*t) {
                let n = c.normal.as_vec3().normalize_or_zero();
                if n != Vec3::ZERO {
                    let plane = Isometry3d::new(c.point.as_vec3(), Quat::from_rotation_arc(Vec3::Z, n));
                    gizmos.circle(plane, 0.5 * s, red);
                }
            }
        }
    }
    for r in slips {
        let p = r.point();
        if !p.is_finite() {
            continue;
        }
        for d in r.limit_directions() {
            let dir = d.slip_dir.as_vec3().normalize_or_zero();
            gizmos.line(p, p + dir * (0.5 * s), if d.attracting { blue } else { red });
        }
        let Some(e) = r.evolution() else { continue };
        let slip = r.report.contact.slip.as_vec3().normalize_or_zero();
        if slip != Vec3::ZERO {
            gizmos.arrow(p, p + slip * s, orange);
        }
        if let Some(d) = e.final_direction {
            let color = if matches!(e.fate, tribo_rapier::SlipFate::Rolls { .. }) { green } else { red };
            gizmos.arrow(p, p + d.slip_dir.as_vec3().normalize_or_zero() * s, color);
        }
    }
}

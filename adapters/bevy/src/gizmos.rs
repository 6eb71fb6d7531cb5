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

use bevy::color::Color;
use bevy::math::Isometry3d;
use bevy::prelude::*;
use tribo_rapier::Mode;

use crate::diagnostics::TriboContacts;

/// Draws tribo's contacts with bevy gizmos (see the module docs).
#[derive(Default)]
pub struct TriboGizmosPlugin;

impl Plugin for TriboGizmosPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TriboGizmoConfig>()
            .register_type::<TriboGizmoConfig>()
            .add_systems(Update, draw_tribo_contacts);
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

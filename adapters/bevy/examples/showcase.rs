//! Windowed showcase: stock bevy_rapier next to tribo, lane by lane.
//!
//! * **Balls** rolled at 1.5 m/s on flat ground (far lanes). Stock rapier has no rolling
//!   resistance, so its ball (yellow) rolls on; tribo's ball (magenta) stops at the analytic
//!   distance `v0²/(2a)`, `a = 2 η_r μk g/1.4` (white mark).
//! * **Pool balls** (57.15 mm, 170 g) struck at 1 m/s on cloth, without spin and with topspin
//!   (ω0 R = 1.5 m/s), at the game step of 1/60 s: tribo's balls skid, roll and stop at the
//!   closed-form distances (white marks, 2.10 and 5.32 m for μk = 0.2 and a rolling
//!   resistance of 0.5 mm); stock rapier's roll on.
//! * **Spinning tops** on their ball tips: tribo's spin friction stops its top; the stock top
//!   spins on.
//! * **Bricks on a slope** of 0.4 rad, between atan μk = 0.29 and atan μs = 0.46: at rest both
//!   hold; pushed down-slope, tribo's brick switches to kinetic friction and keeps sliding
//!   (`a = g(sin α − μk cos α)`), while stock rapier (one coefficient) brakes it to rest.
//! * **Balls in V-troughs** under a constant torque, one inside the realizable region of
//!   two-point rolling and one outside: tribo's realizability diagnostic draws its verdict
//!   (green: rolling is realizable, red: slip starts) around each ball.
//!
//! Keys: `R` resets the scene. Run:
//!
//! ```text
//! cargo run --release -p bevy_tribo --example showcase --features showcase
//! ```
//!
//! `-- --capture FILE.png [--seconds S]` renders `S` simulated seconds (default 6) at one
//! physics step of 1/60 s per frame, saves a screenshot and exits; `FILE.png.txt` then lists
//! the simulated positions and their projections into the picture (the rendered test
//! `tests/showcase_render.rs` checks the picture against them).

use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4, SQRT_2};
use std::path::PathBuf;
use std::time::Duration;

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::prelude::*;
use bevy::render::view::screenshot::{save_to_disk, Screenshot, ScreenshotCaptured};
use bevy::time::TimeUpdateStrategy;
use bevy::window::WindowResolution;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;

/// Physics step (s): one rapier step per frame.
pub const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

/// Rolling balls: radius (m), launch speed (m/s), start x (m), lanes (z).
pub const BALL_R: f32 = 0.2;
/// Launch speed of the rolling balls (m/s).
pub const BALL_V0: f32 = 1.5;
/// Start x of the rolling balls (m).
pub const BALL_X0: f32 = -0.5;
const BALL_Z_STOCK: f32 = -3.3;
const BALL_Z_TRIBO: f32 = -2.6;
const BALL_MU: (f64, f64) = (0.6, 0.5);
/// Rolling resistance length of the tribo ball (m): roll torque bound `c·N`.
const BALL_C: f64 = 0.01;

/// Expected stopping distance of the tribo ball: `v0²/(2a)`, `a = T R/(I + m R²)` with
/// `T = c m g` and `I = 0.4 m R²` (docs/tracking.md §3.3), i.e. `a = c g/(1.4 R)`.
pub fn ball_stop_distance() -> f32 {
    let a = BALL_C as f32 * G / (1.4 * BALL_R);
    BALL_V0 * BALL_V0 / (2.0 * a)
}

// Pool balls: radius (m), mass (kg), μs/μk, rolling resistance length (m), cue speed (m/s).
const POOL_R: f32 = 0.028575;
const POOL_M: f32 = 0.17;
const POOL_MU: (f64, f64) = (0.25, 0.2);
const POOL_C: f64 = 0.0005;
const POOL_V0: f32 = 1.0;
const POOL_X0: f32 = -0.5;

/// Where a tribo pool ball struck at `v0` with topspin `w0r` = ω0 R ≥ 0 is after `t` seconds
/// (`f32::INFINITY`: where it stops). While its contact slips (s = v − ωR, σ = sgn s), kinetic
/// friction drives its centre, `dv/dt = −σ μk g`, and with the roll torque c N against ω its
/// spin, `d(ωR)/dt = 2.5 g (σ μk − c/R)` (I = 0.4 m R²), so the slip ends after
/// `t1 = |s0|/(g (3.5 μk − 2.5 σ c/R))`; then it rolls to rest at `a = (c/R) g/1.4`.
/// Struck at 1 m/s: stun (no spin) 2.10 m, follow (ω0 R = 1.5 v0) 5.32 m (the docs' billiard
/// table at 2 m/s, 8.41 and 21.29 m, scaled by v0²).
pub fn pool_course(v0: f32, w0r: f32, t: f32) -> f32 {
    let (mu, c_r) = (POOL_MU.1 as f32, POOL_C as f32 / POOL_R);
    let s0 = v0 - w0r;
    let sigma = s0.signum();
    let t1 = s0.abs() / (G * (3.5 * mu - 2.5 * sigma * c_r));
    if t <= t1 {
        return v0 * t - 0.5 * sigma * mu * G * t * t;
    }
    let v1 = v0 - sigma * mu * G * t1;
    let x1 = v0 * t1 - 0.5 * sigma * mu * G * t1 * t1;
    let a = c_r * G / 1.4;
    let tr = (t - t1).min(v1 / a);
    x1 + v1 * tr - 0.5 * a * tr * tr
}

/// The pool shots: (lane, topspin ω0 R in m/s, z of the lane).
const POOL_SHOTS: [(Lane, f32, f32); 4] = [
    (Lane::Stock, 0.0, -5.25),
    (Lane::Tribo, 0.0, -4.95),
    (Lane::Stock, 1.5, -4.65),
    (Lane::Tribo, 1.5, -4.35),
];

// Tops (as in the `marbles` example).
const TIP_R: f32 = 0.02;
const DISK_R: f32 = 0.1;
const OMEGA0: f32 = 40.0;
const TOP_Z: f32 = -1.2;

// Slope and bricks.
const SLOPE_ALPHA: f32 = 0.4;
const BRICK_MU: (f64, f64) = (0.5, 0.3);
const BRICK_HALF: Vec3 = Vec3::new(0.2, 0.1, 0.15);

// Troughs.
const TROUGH_R: f32 = 0.15;
const TROUGH_MU: f64 = 0.3;

/// Which engine a body runs with.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lane {
    /// Stock rapier friction.
    Stock,
    /// tribo friction.
    Tribo,
}

/// The rolling balls.
#[derive(Component)]
pub struct RollingBall;

/// A pool ball, with its topspin at the strike (ω0 R, m/s).
#[derive(Component)]
struct PoolBall {
    w0r: f32,
}

/// A ball in a trough, with its dimensionless torque.
#[derive(Component)]
struct TroughBall {
    m: [f32; 3],
    torque: Vec3,
}

/// A spinning top.
#[derive(Component)]
struct Top;

/// Everything the scene spawns (despawned on reset).
#[derive(Component)]
struct SceneItem;

/// A screen label pinned to a world point.
#[derive(Component)]
struct Pinned(Vec3);

/// The live readout.
#[derive(Component)]
struct Readout;

/// The latest realizability verdict per trough ball: (realizable, text).
#[derive(Resource, Default)]
struct Verdicts(Vec<(Entity, bool, String)>);

/// Capture mode: render `frames` frames, save a screenshot to `path`, exit.
#[derive(Resource, Clone, Debug)]
pub struct Capture {
    /// PNG path.
    pub path: PathBuf,
    /// Frames (= physics steps) before the screenshot.
    pub frames: u32,
}

#[derive(Resource, Default)]
struct FrameCount(u32);

/// Builds the showcase app (windowed; `capture` renders a fixed number of frames, saves a
/// screenshot and exits).
pub fn app(capture: Option<Capture>) -> App {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "tribo showcase: stock rapier vs tribo (R: reset)".into(),
                resolution: WindowResolution::new(1280, 720).with_scale_factor_override(1.0),
                ..default()
            }),
            ..default()
        }),
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default().with_realizability(true),
    ))
    .insert_resource(TimestepMode::Fixed { dt: DT, substeps: 1 })
    .insert_resource(ClearColor(Color::srgb(0.78, 0.84, 0.9)))
    .init_resource::<Verdicts>()
    .init_resource::<FrameCount>()
    .add_systems(Startup, (setup_view, spawn_scene))
    .add_systems(
        Update,
        (
            count_frames,
            apply_trough_torques,
            reset_on_key,
            read_verdicts,
            draw_marks,
            update_labels,
            update_readout,
        )
            .chain(),
    );
    if let Some(c) = capture {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)))
            .insert_resource(c)
            .add_systems(Last, capture_system);
    }
    app
}

fn setup_view(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Tonemapping::None,
        Transform::from_xyz(3.6, 9.5, 6.6).looking_at(Vec3::new(3.6, 0.0, -0.9), Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 2500.0, shadow_maps_enabled: false, ..default() },
        Transform::from_xyz(2.0, 8.0, 5.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight { brightness: 150.0, ..default() });
    commands.spawn((
        Text::new(""),
        TextFont::from_font_size(15.0),
        TextColor(Color::srgb(0.05, 0.05, 0.1)),
        Node { position_type: PositionType::Absolute, left: Val::Px(10.0), top: Val::Px(8.0), ..default() },
        Readout,
    ));
}

fn lane_color(lane: Lane) -> Color {
    match lane {
        Lane::Stock => Color::srgb(0.93, 0.55, 0.2),
        Lane::Tribo => Color::srgb(0.2, 0.45, 0.85),
    }
}

fn label(commands: &mut Commands, text: impl Into<String>, at: Vec3, color: Color) {
    commands.spawn((
        Text::new(text),
        TextFont::from_font_size(13.0),
        TextColor(color),
        Node { position_type: PositionType::Absolute, ..default() },
        Pinned(at),
        SceneItem,
    ));
}

/// Spawns the lanes (also run on reset).
fn spawn_scene(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut frames: ResMut<FrameCount>,
) -> Result {
    frames.0 = 0;
    let mut mat =
        |c: Color| materials.add(StandardMaterial { base_color: c, perceptual_roughness: 0.8, ..default() });
    let floor_mat = mat(Color::srgb(0.55, 0.6, 0.55));
    let wall_mat = mat(Color::srgb(0.6, 0.6, 0.66));
    let stock_mat = mat(lane_color(Lane::Stock));
    let tribo_mat = mat(lane_color(Lane::Tribo));
    let dark = mat(Color::srgb(0.2, 0.2, 0.25));
    let unlit = |m: &mut Assets<StandardMaterial>, c: Color| {
        m.add(StandardMaterial { base_color: c, unlit: true, ..default() })
    };
    // Floor: top face at y = 0.
    let floor = Vec3::new(7.0, 0.5, 5.0);
    commands.spawn((
        SceneItem,
        Transform::from_xyz(4.0, -0.5, -0.8),
        Collider::cuboid(floor.x, floor.y, floor.z),
        Mesh3d(meshes.add(Cuboid::from_size(floor * 2.0))),
        MeshMaterial3d(floor_mat),
    ));

    // 1. Rolling balls (unlit colours: the rendered test finds them by colour).
    let ball_mesh = meshes.add(Sphere::new(BALL_R).mesh().uv(32, 18));
    for (lane, z, color) in [
        (Lane::Stock, BALL_Z_STOCK, Color::srgb(1.0, 0.85, 0.0)),
        (Lane::Tribo, BALL_Z_TRIBO, Color::srgb(1.0, 0.0, 1.0)),
    ] {
        let material = unlit(&mut materials, color);
        let mut e = commands.spawn((
            SceneItem,
            RollingBall,
            lane,
            Transform::from_xyz(BALL_X0, BALL_R, z),
            RigidBody::Dynamic,
            Collider::ball(BALL_R),
            ColliderMassProperties::Density(1000.0),
            Velocity { linear: Vec3::X * BALL_V0, angular: Vec3::Y.cross(Vec3::X) * (BALL_V0 / BALL_R) },
            Sleeping::disabled(),
            Mesh3d(ball_mesh.clone()),
            MeshMaterial3d(material),
        ));
        match lane {
            Lane::Tribo => {
                e.insert(
                    FrictionMaterial::builder()
                        .friction(BALL_MU.0, BALL_MU.1)
                        .rolling_resistance(BALL_C)
                        .spin(bevy_tribo::SpinModel::Off)
                        .build()?,
                );
            }
            Lane::Stock => {
                e.insert(Friction::coefficient(BALL_MU.0 as f32));
            }
        }
    }
    label(
        &mut commands,
        "stock rapier ball: no rolling resistance, rolls on",
        Vec3::new(BALL_X0 - 0.3, 0.0, BALL_Z_STOCK - 0.75),
        Color::srgb(0.45, 0.25, 0.0),
    );
    label(
        &mut commands,
        format!("tribo ball (c = {BALL_C} m): stops at v0^2/2a = {:.2} m (white mark)", ball_stop_distance()),
        Vec3::new(BALL_X0 - 0.3, 0.0, BALL_Z_TRIBO + 0.3),
        Color::srgb(0.05, 0.15, 0.5),
    );

    // 1b. Pool balls at the game step (real size), struck without spin and with topspin.
    let pool_mesh = meshes.add(Sphere::new(POOL_R).mesh().uv(16, 10));
    for (lane, w0r, z) in POOL_SHOTS {
        let m = if lane == Lane::Stock { stock_mat.clone() } else { tribo_mat.clone() };
        let mut e = commands.spawn((
            SceneItem,
            PoolBall { w0r },
            lane,
            Transform::from_xyz(POOL_X0, POOL_R, z),
            RigidBody::Dynamic,
            Collider::ball(POOL_R),
            ColliderMassProperties::Mass(POOL_M),
            Velocity { linear: Vec3::X * POOL_V0, angular: Vec3::NEG_Z * (w0r / POOL_R) },
            Sleeping::disabled(),
            Mesh3d(pool_mesh.clone()),
            MeshMaterial3d(m),
        ));
        match lane {
            Lane::Tribo => {
                e.insert(
                    FrictionMaterial::builder()
                        .friction(POOL_MU.0, POOL_MU.1)
                        .rolling_resistance(POOL_C)
                        .spin(bevy_tribo::SpinModel::Off)
                        .build()?,
                );
            }
            Lane::Stock => {
                e.insert(Friction::coefficient(POOL_MU.0 as f32));
            }
        }
    }
    label(
        &mut commands,
        format!(
            "pool balls at 1/60 s, {POOL_V0} m/s, far pair no spin, near pair topspin:\ntribo (blue) stops at {:.2} and {:.2} m (white marks), stock rolls on",
            pool_course(POOL_V0, 0.0, f32::INFINITY),
            pool_course(POOL_V0, 1.5, f32::INFINITY),
        ),
        Vec3::new(POOL_X0 + 5.6, 0.0, -5.35),
        Color::srgb(0.1, 0.1, 0.1),
    );

    // 2. Spinning tops: ball tip (the contact), stem, disk.
    for (lane, x) in [(Lane::Stock, 0.3), (Lane::Tribo, 1.6)] {
        let m = if lane == Lane::Stock { stock_mat.clone() } else { tribo_mat.clone() };
        let mut tip = commands.spawn((Transform::IDENTITY, Collider::ball(TIP_R)));
        if lane == Lane::Tribo {
            // Spin torque bound c·N, c = 4 mm.
            tip.insert(FrictionMaterial::builder().friction(0.5, 0.4).spinning_resistance(0.004).build()?);
        }
        let tip = tip.id();
        let stem = commands
            .spawn((
                Transform::from_xyz(0.0, 0.07, 0.0),
                Collider::cylinder(0.05, 0.004),
                Mesh3d(meshes.add(Cylinder::new(0.004, 0.1))),
                MeshMaterial3d(dark.clone()),
            ))
            .id();
        let disk = commands
            .spawn((
                Transform::from_xyz(0.0, 0.06, 0.0),
                Collider::cylinder(0.01, DISK_R),
                ColliderMassProperties::Density(3000.0),
                Mesh3d(meshes.add(Cylinder::new(DISK_R, 0.02))),
                MeshMaterial3d(m),
            ))
            .id();
        // A radial stripe shows the rotation.
        let stripe = commands
            .spawn((
                Transform::from_xyz(DISK_R * 0.5, 0.071, 0.0),
                Mesh3d(meshes.add(Cuboid::new(DISK_R, 0.004, 0.02))),
                MeshMaterial3d(dark.clone()),
            ))
            .id();
        commands
            .spawn((
                SceneItem,
                Top,
                lane,
                Transform::from_xyz(x, TIP_R, TOP_Z),
                RigidBody::Dynamic,
                Velocity { linear: Vec3::ZERO, angular: Vec3::Y * OMEGA0 },
                Sleeping::disabled(),
                Visibility::default(),
            ))
            .add_children(&[tip, stem, disk, stripe]);
    }
    label(
        &mut commands,
        "tops, w0 = 40 rad/s: stock (orange) spins on,\ntribo (blue) spin friction stops it",
        Vec3::new(-0.6, 0.0, TOP_Z + 0.3),
        Color::srgb(0.1, 0.1, 0.1),
    );

    // 3. Slope between the friction angles, four bricks.
    let rot = Quat::from_rotation_z(-SLOPE_ALPHA);
    let (n, down) = (rot * Vec3::Y, rot * Vec3::X);
    let slope_half = Vec3::new(2.0, 0.1, 1.15);
    let slope_c = Vec3::new(5.3, 2.0 * SLOPE_ALPHA.sin() + 0.05, -0.35);
    commands.spawn((
        SceneItem,
        Transform::from_translation(slope_c).with_rotation(rot),
        Collider::cuboid(slope_half.x, slope_half.y, slope_half.z),
        Friction::coefficient(BRICK_MU.0 as f32),
        Mesh3d(meshes.add(Cuboid::from_size(slope_half * 2.0))),
        MeshMaterial3d(wall_mat.clone()),
    ));
    let brick_mesh = meshes.add(Cuboid::from_size(BRICK_HALF * 2.0));
    for (lane, push, z) in [
        (Lane::Stock, 0.0, -1.25),
        (Lane::Tribo, 0.0, -0.7),
        (Lane::Stock, 1.0, -0.05),
        (Lane::Tribo, 1.0, 0.5),
    ] {
        let p = slope_c + n * (slope_half.y + BRICK_HALF.y) - down * 1.4 + Vec3::Z * (z - slope_c.z);
        let m = if lane == Lane::Stock { stock_mat.clone() } else { tribo_mat.clone() };
        let mut e = commands.spawn((
            SceneItem,
            lane,
            Transform::from_translation(p).with_rotation(rot),
            RigidBody::Dynamic,
            Collider::cuboid(BRICK_HALF.x, BRICK_HALF.y, BRICK_HALF.z),
            ColliderMassProperties::Density(1000.0),
            Velocity { linear: down * push, angular: Vec3::ZERO },
            Mesh3d(brick_mesh.clone()),
            MeshMaterial3d(m),
        ));
        match lane {
            Lane::Tribo => e.insert(FrictionMaterial::new(BRICK_MU.0, BRICK_MU.1)?),
            Lane::Stock => e.insert(Friction::coefficient(BRICK_MU.0 as f32)),
        };
    }
    label(
        &mut commands,
        "slope 0.4 rad, atan mu_k < a < atan mu_s:\nat rest both hold; pushed: tribo (blue)\nslides on with mu_k, stock (orange) stops",
        slope_c + Vec3::new(0.6, 0.0, 1.3),
        Color::srgb(0.1, 0.1, 0.1),
    );

    // 4. Balls in V-troughs (trough axis along z), one realizable torque, one not.
    let (ex, ey) =
        (Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0), Vec3::new(-FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0));
    let r = TROUGH_R;
    for (x, m) in [(0.4, [0.15f32, 0.15, 0.0]), (2.2, [0.0, 0.0, 0.6])] {
        let o = Vec3::new(x, SQRT_2 * r + 0.05, 1.6);
        let (half_len, half_thick, half_axis) = (3.0 * r, 0.5 * r, 0.6);
        let bottom = o + Vec3::new(0.0, -SQRT_2 * r, 0.0);
        for (nw, angle) in [(ey, FRAC_PI_4), (ex, -FRAC_PI_4)] {
            let along = Vec3::Z.cross(nw);
            let up = if along.y > 0.0 { along } else { -along };
            let center = bottom + up * half_len - nw * half_thick;
            commands.spawn((
                SceneItem,
                Transform::from_translation(center).with_rotation(Quat::from_rotation_z(angle)),
                Collider::cuboid(half_len, half_thick, half_axis),
                Mesh3d(meshes.add(Cuboid::new(2.0 * half_len, 2.0 * half_thick, 2.0 * half_axis))),
                MeshMaterial3d(wall_mat.clone()),
            ));
        }
        let mass = 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * r * r * r;
        let big_g = mass * G / SQRT_2;
        commands.spawn((
            SceneItem,
            TroughBall { m, torque: (ex * m[0] + ey * m[1] + Vec3::Z * m[2]) * big_g * r },
            Lane::Tribo,
            Transform::from_translation(o),
            RigidBody::Dynamic,
            Collider::ball(r),
            ColliderMassProperties::Density(1000.0),
            Sleeping::disabled(),
            // The torque is applied after the ball has settled (`apply_trough_torques`).
            ExternalForce::default(),
            FrictionMaterial::builder()
                .friction(TROUGH_MU, TROUGH_MU)
                .no_rolling_resistance()
                .spin(bevy_tribo::SpinModel::Off)
                .build()?,
            Mesh3d(meshes.add(Sphere::new(r).mesh().uv(24, 12))),
            MeshMaterial3d(tribo_mat.clone()),
        ));
        label(
            &mut commands,
            format!("mu = 0.3\nm = ({}, {}, {})", m[0], m[1], m[2]),
            o + Vec3::new(-0.35, 0.0, 0.75),
            Color::srgb(0.1, 0.1, 0.1),
        );
    }
    Ok(())
}

fn count_frames(mut frames: ResMut<FrameCount>) {
    frames.0 += 1;
}

/// Applies the trough torques once the balls rest on both walls (after 0.1 s).
fn apply_trough_torques(frames: Res<FrameCount>, mut balls: Query<(&TroughBall, &mut ExternalForce)>) {
    if frames.0 == (0.1 / DT).round() as u32 {
        for (b, mut f) in &mut balls {
            f.torque = b.torque;
        }
    }
}

fn reset_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    items: Query<Entity, With<SceneItem>>,
    mut verdicts: ResMut<Verdicts>,
    mut commands: Commands,
) {
    if keys.just_pressed(KeyCode::KeyR) {
        for e in &items {
            commands.entity(e).despawn();
        }
        verdicts.0.clear();
        commands.run_system_cached(spawn_scene);
    }
}

/// Keeps, per trough ball, the diagnostic's first verdict after the torque onset (the
/// prediction: once a ball slips, it no longer rests on two sticking contacts and gets no
/// report).
fn read_verdicts(
    frames: Res<FrameCount>,
    mut reports: MessageReader<RealizabilityReport>,
    balls: Query<Entity, With<TroughBall>>,
    mut verdicts: ResMut<Verdicts>,
) {
    let onset = frames.0 > (0.1 / DT).round() as u32;
    for rep in reports.read() {
        let Some(body) = rep.body.filter(|b| balls.contains(*b)) else { continue };
        if !onset || verdicts.0.iter().any(|v| v.0 == body) {
            continue;
        }
        let text = match (rep.realizable(), rep.margin()) {
            (true, Some(m)) => format!("realizable: keeps rolling (margin {m:+.2} m/s2)"),
            (false, Some(m)) => {
                let t: Vec<String> = rep.transitions().iter().map(|t| format!("{t:?}")).collect();
                format!("not realizable: slip {} starts (margin {m:+.2} m/s2)", t.join("/"))
            }
            _ => "no verdict".to_string(),
        };
        verdicts.0.push((body, rep.realizable(), text));
    }
}

fn draw_marks(
    mut gizmos: Gizmos,
    balls: Query<(Entity, &Transform), With<TroughBall>>,
    verdicts: Res<Verdicts>,
) {
    // Analytic stop of the tribo ball.
    let xs = BALL_X0 + ball_stop_distance();
    gizmos.line(
        Vec3::new(xs, 0.01, BALL_Z_TRIBO - 0.35),
        Vec3::new(xs, 0.01, BALL_Z_TRIBO + 0.35),
        Color::WHITE,
    );
    for (lane, w0r, z) in POOL_SHOTS {
        if lane == Lane::Tribo {
            let xp = POOL_X0 + pool_course(POOL_V0, w0r, f32::INFINITY);
            gizmos.line(Vec3::new(xp, 0.01, z - 0.12), Vec3::new(xp, 0.01, z + 0.12), Color::WHITE);
        }
    }
    for (e, tr) in &balls {
        let Some((_, ok, _)) = verdicts.0.iter().find(|v| v.0 == e) else { continue };
        let c = if *ok { Color::srgb(0.0, 0.8, 0.1) } else { Color::srgb(0.9, 0.05, 0.05) };
        gizmos.sphere(Isometry3d::from_translation(tr.translation), TROUGH_R * 1.35, c);
        gizmos.circle(
            Isometry3d::new(tr.translation, Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
            TROUGH_R * 1.6,
            c,
        );
    }
}

fn update_labels(cams: Query<(&Camera, &GlobalTransform)>, mut labels: Query<(&Pinned, &mut Node)>) {
    let Ok((cam, gt)) = cams.single() else { return };
    for (p, mut node) in &mut labels {
        if let Ok(v) = cam.world_to_viewport(gt, p.0) {
            node.left = Val::Px(v.x);
            node.top = Val::Px(v.y);
        }
    }
}

fn update_readout(
    frames: Res<FrameCount>,
    balls: Query<(&Lane, &Transform), With<RollingBall>>,
    pool: Query<(&Lane, &PoolBall, &Transform)>,
    tops: Query<(&Lane, &Velocity), With<Top>>,
    troughs: Query<(Entity, &TroughBall)>,
    verdicts: Res<Verdicts>,
    mut text: Query<&mut Text, With<Readout>>,
) {
    let Ok(mut text) = text.single_mut() else { return };
    let t = frames.0 as f32 * DT;
    let mut s = format!("tribo vs stock rapier, t = {t:.2} s   (R: reset)\n");
    // One line per pair: stock, then tribo.
    let pair = |name: &str, unit: &str, values: Vec<(Lane, f32)>| {
        let get = |l: Lane| values.iter().find(|v| v.0 == l).map_or(f32::NAN, |v| v.1);
        format!("{name}: stock {:.2} {unit}, tribo {:.2} {unit}\n", get(Lane::Stock), get(Lane::Tribo))
    };
    s += &pair("balls, x", "m", balls.iter().map(|(l, tr)| (*l, tr.translation.x - BALL_X0)).collect());
    for (shot, topspin) in [("no spin", false), ("topspin", true)] {
        let xs = pool.iter().filter(|p| (p.1.w0r > 0.0) == topspin);
        s += &pair(
            &format!("pool balls ({shot}), x"),
            "m",
            xs.map(|(l, _, tr)| (*l, tr.translation.x - POOL_X0)).collect(),
        );
    }
    s += &pair("tops, spin", "rad/s", tops.iter().map(|(l, v)| (*l, v.angular.y)).collect());
    for (e, tb) in &troughs {
        if let Some((_, _, txt)) = verdicts.0.iter().find(|v| v.0 == e) {
            s += &format!("trough m = {:?}, verdict at torque onset: {txt}\n", tb.m);
        }
    }
    text.0 = s;
}

/// The positions the capture writes beside the screenshot (world x of the balls and their
/// projections in pixels).
fn capture_system(
    frames: Res<FrameCount>,
    capture: Res<Capture>,
    cams: Query<(&Camera, &GlobalTransform)>,
    balls: Query<(&Lane, &Transform), With<RollingBall>>,
    pool: Query<(&Lane, &PoolBall, &Transform)>,
    mut commands: Commands,
) -> Result {
    if frames.0 != capture.frames {
        if frames.0 > capture.frames + 600 {
            return Err("screenshot not captured within 600 frames".into());
        }
        return Ok(());
    }
    let (cam, gt) = cams.single()?;
    let px = |p: Vec3| cam.world_to_viewport(gt, p).map(|v| format!("{} {}", v.x, v.y));
    let mut out = String::new();
    for (lane, tr) in &balls {
        let name = format!("{lane:?}").to_lowercase();
        out += &format!("{name}_ball_x {}\n", tr.translation.x - BALL_X0);
        out += &format!("{name}_ball_px {}\n", px(tr.translation)?);
    }
    // Pool balls: simulated x, and the closed form's x at the capture's time (tribo).
    let t = capture.frames as f32 * DT;
    for (lane, p, tr) in &pool {
        let name = format!("{lane:?}_pool_{}", if p.w0r > 0.0 { "topspin" } else { "stun" }).to_lowercase();
        out += &format!("{name}_x {}\n", tr.translation.x - POOL_X0);
        out += &format!("{name}_expected_x {}\n", pool_course(POOL_V0, p.w0r, t));
    }
    let stop = Vec3::new(BALL_X0 + ball_stop_distance(), BALL_R, BALL_Z_TRIBO);
    out += &format!("expected_stop_x {}\n", ball_stop_distance());
    out += &format!("expected_stop_px {}\n", px(stop)?);
    out += &format!("start_px {}\n", px(Vec3::new(BALL_X0, BALL_R, BALL_Z_TRIBO))?);
    out += &format!("seconds {}\n", capture.frames as f32 * DT);
    let mut side = capture.path.clone().into_os_string();
    side.push(".txt");
    std::fs::write(&side, out)?;
    commands.spawn(Screenshot::primary_window()).observe(save_to_disk(capture.path.clone())).observe(
        |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
            exit.write(AppExit::Success);
        },
    );
    Ok(())
}

/// Parses `--capture FILE [--seconds S]`.
pub fn parse_args(args: &[String]) -> Option<Capture> {
    let path = args.iter().position(|a| a == "--capture").and_then(|i| args.get(i + 1))?;
    let seconds: f32 = args
        .iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(6.0);
    Some(Capture { path: PathBuf::from(path), frames: (seconds / DT).round().max(1.0) as u32 })
}

fn main() -> AppExit {
    let args: Vec<String> = std::env::args().skip(1).collect();
    app(parse_args(&args)).run()
}

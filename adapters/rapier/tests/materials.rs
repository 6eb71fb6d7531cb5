//! Friction materials in engine units: rolling resistance as a length (torque bound c·N),
//! combine rules per coefficient (rapier's rules, the collider's rapier rule as fallback) and
//! the per-pair override table.

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{CombineRule, FrictionMaterial, MaterialId, Mode, TriboRapier};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

struct Scene {
    world: PhysicsWorld,
    tribo: TriboRapier,
    ground: ColliderHandle,
    ball: RigidBodyHandle,
    ball_collider: ColliderHandle,
}

/// A ball of radius `r` on a flat static ground (no body), rolling along +x at `v0` without
/// slipping; `ground_rule` is the ground collider's rapier `friction_combine_rule`.
fn scene(r: f32, v0: f32, ground_rule: CoefficientCombineRule) -> Scene {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, -G, 0.0);
    world.integration_parameters.dt = DT;
    let ground = world.colliders.insert(
        ColliderBuilder::cuboid(100.0, 0.5, 5.0)
            .translation(Vector::new(0.0, -0.5, 0.0))
            .friction_combine_rule(ground_rule),
    );
    let ball = world.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, r, 0.0))
            .linvel(Vector::new(v0, 0.0, 0.0))
            .angvel(Vector::new(0.0, 0.0, -v0 / r))
            .can_sleep(false),
    );
    let ball_collider =
        world.colliders.insert_with_parent(ColliderBuilder::ball(r).density(1000.0), ball, &mut world.bodies);
    Scene { world, tribo: TriboRapier::new(), ground, ball, ball_collider }
}

impl Scene {
    fn step(&mut self) {
        self.tribo.step_world(&mut self.world, &(), &());
    }

    /// Runs until the ball has stopped (speed below 1 mm/s) or `t_max`; returns the distance.
    fn roll_out(&mut self, t_max: f32) -> f32 {
        let mut t = 0.0;
        while t < t_max {
            self.step();
            t += DT;
            if t > 0.5 && self.world.bodies[self.ball].linvel().length() < 1e-3 {
                break;
            }
        }
        self.world.bodies[self.ball].translation().x
    }
}

/// Rolling resistance c = 0.004 m (static and kinetic) with one material for three radii: the
/// ball stops at d = v0²·1.4 R/(2 c g) (energy 0.7 m v0² dissipated by the torque c m g over the
/// angle d/R): 0.892, 1.784 and 3.568 m for v0 = 1 m/s. The radius enters only through the
/// rotation angle; the material is the same object for all three.
#[test]
fn rolling_resistance_length_stops_every_radius_at_the_analytic_distance() {
    let c = 0.004;
    let material = FrictionMaterial::builder()
        .friction(0.6f32, 0.5f32)
        .rolling_resistance(c)
        .spinning_resistance(0.0)
        .build()
        .unwrap();
    for r in [0.05f32, 0.1, 0.2] {
        let mut s = scene(r, 1.0, CoefficientCombineRule::Average);
        s.tribo.set_material(s.ball_collider, material);
        s.tribo.set_material(s.ground, material);
        let d = s.roll_out(30.0);
        let expected = 1.4 * r / (2.0 * c as f32 * G);
        eprintln!("R = {r} m: stopped after {d} m, analytic {expected} m");
        assert!(
            (d - expected).abs() < 0.03 * expected,
            "R = {r}: stopped after {d} m, expected v0²·1.4R/(2cg) = {expected} m"
        );
        assert!(s.world.bodies[s.ball].linvel().length() < 1e-3, "R = {r}: not stopped");
    }
}

/// The same material on both sides of the contact gives the same resistance as on one side
/// only (Average, Min and Max of equal lengths are that length): the same stop distance, and
/// the same combined c.
#[test]
fn same_material_on_both_sides_gives_the_same_length_as_one_side() {
    let m = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.004).build().unwrap();
    let mut one = scene(0.1, 1.0, CoefficientCombineRule::Average);
    one.tribo.set_material(one.ball_collider, m);
    let mut both = scene(0.1, 1.0, CoefficientCombineRule::Average);
    both.tribo.set_material(both.ball_collider, m);
    both.tribo.set_material(both.ground, m);
    let c_one = one.tribo.pair_material(one.ground, one.ball_collider).unwrap().rolling_resistance();
    let c_both = both.tribo.pair_material(both.ground, both.ball_collider).unwrap().rolling_resistance();
    assert_eq!(c_one, Some((0.004, 0.004)));
    assert_eq!(c_both, Some((0.004, 0.004)));
    let (d1, d2) = (one.roll_out(30.0), both.roll_out(30.0));
    assert!((d1 - d2).abs() < 1e-3 * d1, "one side {d1} m, both sides {d2} m");
    assert!((d1 - 1.784).abs() < 0.03 * 1.784, "{d1}");
}

/// μ and c of the contact of a resting ball (static: μs and c_s), read from the store.
fn resting_contact(
    ground: FrictionMaterial,
    ball: FrictionMaterial,
    ground_rule: CoefficientCombineRule,
    pair: Option<(MaterialId, MaterialId, FrictionMaterial)>,
) -> (f32, f32) {
    let mut s = scene(0.1, 0.0, ground_rule);
    s.tribo.set_material(s.ground, ground);
    s.tribo.set_material(s.ball_collider, ball);
    if let Some((a, b, m)) = pair {
        s.tribo.set_pair_material(a, b, m);
    }
    for _ in 0..60 {
        s.step();
    }
    let info = s.tribo.contact(s.ground, s.ball_collider).expect("resting contact");
    assert_eq!(info.slide, Mode::Static);
    assert_eq!(info.roll, Mode::Static);
    // N = m g for the resting ball (ρ 4/3 π R³ g = 41.09 N).
    let mg = 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * 0.001 * G;
    assert!((info.normal_force - mg).abs() < 0.01 * mg, "N = {}", info.normal_force);
    (info.friction, info.roll_capacity / info.normal_force)
}

/// Each rule on μs and on c_s: ground μs = 0.8, c = 0.004 m; ball μs = 0.2, c = 0.001 m.
/// Average 0.5 / 0.0025, Min 0.2 / 0.001, Max 0.8 / 0.004, Multiply 0.16 / 4e-6 — set on the
/// material, and alternatively as the ground collider's rapier `friction_combine_rule`.
#[test]
fn each_combine_rule_on_mu_and_c_from_the_material_or_the_collider() {
    let g = FrictionMaterial::builder().friction(0.8, 0.6).rolling_resistance(0.004).build().unwrap();
    let b = FrictionMaterial::builder().friction(0.2, 0.1).rolling_resistance(0.001).build().unwrap();
    let cases = [
        (CombineRule::Average, CoefficientCombineRule::Average, 0.5, 0.0025),
        (CombineRule::Min, CoefficientCombineRule::Min, 0.2, 0.001),
        (CombineRule::Max, CoefficientCombineRule::Max, 0.8, 0.004),
        (CombineRule::Multiply, CoefficientCombineRule::Multiply, 0.16, 0.000004),
    ];
    for (rule, rapier_rule, mu, c) in cases {
        let with_rule = g.map(|m| Ok(m.with_combine_rule(rule))).unwrap();
        let (mu1, c1) = resting_contact(with_rule, b, CoefficientCombineRule::Average, None);
        let (mu2, c2) = resting_contact(g, b, rapier_rule, None);
        for (got_mu, got_c, how) in [(mu1, c1, "material"), (mu2, c2, "collider")] {
            assert!((got_mu - mu).abs() < 1e-6, "{rule:?} ({how}): μ = {got_mu}, expected {mu}");
            assert!((got_c - c).abs() < 1e-4 * c, "{rule:?} ({how}): c = {got_c}, expected {c}");
        }
    }
    // The material's rule has rapier's priority against the collider's: Max beats Min.
    let with_max = g.map(|m| Ok(m.with_combine_rule(CombineRule::Max))).unwrap();
    let (mu, _) = resting_contact(with_max, b, CoefficientCombineRule::Min, None);
    assert!((mu - 0.8).abs() < 1e-6, "{mu}");
}

/// "Ice on steel": a pair override replaces the combination of the two labelled materials
/// (μs 0.03, c 0.0005 m), in either order of the ids; unlabelled materials still combine.
#[test]
fn pair_override_sets_mu_and_c() {
    const ICE: MaterialId = MaterialId(7);
    const STEEL: MaterialId = MaterialId(3);
    let ice =
        FrictionMaterial::builder().friction(0.1, 0.05).rolling_resistance(0.002).id(ICE).build().unwrap();
    let steel =
        FrictionMaterial::builder().friction(0.7, 0.5).rolling_resistance(0.001).id(STEEL).build().unwrap();
    let ice_on_steel =
        FrictionMaterial::builder().friction(0.03, 0.02).rolling_resistance(0.0005).build().unwrap();
    for (a, b) in [(ICE, STEEL), (STEEL, ICE)] {
        let (mu, c) =
            resting_contact(steel, ice, CoefficientCombineRule::Average, Some((a, b, ice_on_steel)));
        assert!((mu - 0.03).abs() < 1e-6, "μ = {mu}");
        assert!((c - 0.0005).abs() < 1e-4 * 0.0005, "c = {c}");
    }
    // Without the table entry: the average, 0.4 and 0.0015 m.
    let (mu, c) = resting_contact(steel, ice, CoefficientCombineRule::Average, None);
    assert!((mu - 0.4).abs() < 1e-6 && (c - 0.0015).abs() < 1e-4 * 0.0015, "{mu} {c}");
}

/// Invalid values are reported once, at `build`, whatever the order of the setters.
#[test]
fn builder_validates_once_at_build() {
    let e = FrictionMaterial::builder().rolling_resistance(-0.1).friction(0.3, 0.5).build();
    assert!(e.is_err());
    assert!(FrictionMaterial::builder().friction(f32::NAN, 0.1).build().is_err());
    assert!(FrictionMaterial::builder().friction(1e30f32, 0.1).build().is_err());
    assert_eq!(FrictionMaterial::builder().stock().build(), Ok(FrictionMaterial::Stock));
}

/// Every way of making a material returns the one error type, `MaterialError`, and its message
/// names the parameter and the value: the builder, `new`, the η and length setters and the
/// Contensou model.
#[test]
fn one_error_type_naming_parameter_and_value() {
    use tribo_rapier::contensou::Contensou;
    use tribo_rapier::{MaterialError, SpinModel};
    let ok = FrictionMaterial::new(0.5, 0.4).unwrap();
    let cases: [(Result<FrictionMaterial, MaterialError>, &[&str]); 9] = [
        (FrictionMaterial::builder().friction(0.3, 0.5).build(), &["μs = 0.3", "μk = 0.5"]),
        (FrictionMaterial::new(0.3, 0.5), &["μs = 0.3", "μk = 0.5"]),
        (FrictionMaterial::builder().rolling_resistance(-0.002).build(), &["roll_static_length", "-0.002"]),
        (ok.with_rolling_resistance(f64::NAN), &["roll_static_length", "NaN"]),
        (ok.with_roll_eta(-0.5), &["eta_r", "-0.5"]),
        (ok.with_spin_eta(2e4), &["eta_psi", "20000", "1e4"]),
        (FrictionMaterial::builder().roll_eta(-1.0).build(), &["eta_r", "-1"]),
        (ok.with_contensou(Contensou::hertz(None).unwrap()), &["PatchRadius::Hertz", "Heuristic"]),
        (
            FrictionMaterial::builder().spin(SpinModel::Hertz { effective_modulus: 0.0 }).build(),
            &["effective_modulus", "= 0"],
        ),
    ];
    for (k, (r, words)) in cases.into_iter().enumerate() {
        let msg = r.expect_err("invalid").to_string();
        for w in words {
            assert!(msg.contains(w), "case {k}: {w:?} not in {msg:?}");
        }
    }
    let too_big = Contensou::flat(1e4).unwrap_err().to_string();
    assert!(too_big.contains("patch radius") && too_big.contains("10000"), "{too_big}");
}

/// A material changed under a sleeping body takes effect: a box at rest on a 20° slope with
/// μs = 0.6 (tan 20° = 0.364) falls asleep; given ice (μs = μk = 0.1) it slides down at
/// `a = g (sin α − μk cos α)` = 2.43 m/s², ½ a t² = 1.216 m in the first second (±5 %). The
/// same with the slope's material removed: rapier's own friction of the pair (the colliders'
/// `friction`, 0.1 here) applies and the box slides alike. And the same for a box that fell
/// asleep on rapier's own friction (`friction` 0.6 on both colliders, no tribo material): given
/// the ice material, it wakes and slides.
#[test]
fn a_material_changed_under_a_sleeping_body_takes_effect() {
    let alpha = 20f32.to_radians();
    for (remove, first) in [(false, false), (true, false), (false, true)] {
        let mu0 = if first { 0.6 } else { 0.1 };
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(G * alpha.sin(), -G * alpha.cos(), 0.0);
        world.integration_parameters.dt = DT;
        let slope = world.colliders.insert(
            ColliderBuilder::cuboid(100.0, 0.5, 5.0).translation(Vector::new(0.0, -0.5, 0.0)).friction(mu0),
        );
        let body = world.bodies.insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.25, 0.0)));
        let c = world.colliders.insert_with_parent(
            ColliderBuilder::cuboid(0.25, 0.25, 0.25).density(1000.0).friction(mu0),
            body,
            &mut world.bodies,
        );
        let mut tribo = TriboRapier::new();
        let rough = FrictionMaterial::builder().friction(0.6, 0.5).build().expect("valid");
        if !first {
            tribo.set_material(slope, rough);
            tribo.set_material(c, rough);
        }
        let mut steps = 0;
        while !world.bodies[body].is_sleeping() {
            tribo.step_world(&mut world, &(), &());
            steps += 1;
            assert!(steps < 1200, "remove {remove}, first {first}: the box did not fall asleep in 20 s");
        }
        let x0 = world.bodies[body].translation().x;
        let ice = FrictionMaterial::builder().friction(0.1, 0.1).build().expect("valid");
        tribo.set_material(c, ice);
        if first {
            // The slope gets ice too, so that the pair's μ is 0.1 (the box's material alone
            // would be combined with the slope's rapier friction, 0.6).
            tribo.set_material(slope, ice);
        } else if remove {
            tribo.remove_material(slope);
            tribo.remove_material(c);
        } else {
            tribo.set_material(slope, ice);
        }
        for _ in 0..60 {
            tribo.step_world(&mut world, &(), &());
        }
        let d = world.bodies[body].translation().x - x0;
        let expected = 0.5 * G * (alpha.sin() - 0.1 * alpha.cos());
        assert!(
            (d - expected).abs() < 0.05 * expected,
            "remove {remove}, first {first}: slid {d} m in 1 s, expected {expected} m"
        );
    }
}

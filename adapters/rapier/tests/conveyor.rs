//! Conveyor belts: a user hook that sets `tangent_velocity` (rapier's conveyor mechanism) must
//! compose with tribo's friction. tribo measures slip relative to the belt surface, so a brick
//! riding a belt sticks (μs), and a brick dropped on a running belt slides (μk) until it
//! reaches the belt speed.

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, Mode, TriboRapier};

const G: f32 = 9.81;
const MU_S: f64 = 0.6;
const MU_K: f64 = 0.4;

/// The user's conveyor: the belt collider's surface moves at `u` (world frame).
struct Belt {
    belt: ColliderHandle,
    u: Vector,
}

impl PhysicsHooks for Belt {
    fn modify_solver_contacts(&self, ctx: &mut ContactModificationContext) {
        // `tangent_velocity` is the desired velocity of collider 2's surface relative to
        // collider 1's.
        let tv = if ctx.collider1 == self.belt { self.u } else { -self.u };
        #[cfg(not(feature = "rapier-0-36"))]
        let contacts = &mut *ctx.solver_contacts;
        #[cfg(feature = "rapier-0-36")]
        let Some(m) = ctx.rigid_mut() else {
            return;
        };
        #[cfg(feature = "rapier-0-36")]
        let contacts = &mut *m.solver_contacts;
        for c in contacts.iter_mut() {
            c.tangent_velocity = tv;
        }
    }
}

struct Scene {
    world: PhysicsWorld,
    tribo: Option<TriboRapier>,
    hooks: Belt,
    belt: ColliderHandle,
    brick: RigidBodyHandle,
    brick_collider: ColliderHandle,
}

impl Scene {
    /// A flat belt moving at `u` along +x, gravity tilted by `alpha` so that "down-slope" is −x,
    /// and a brick resting on it with initial velocity `v0` along x.
    fn new(alpha: f32, u: f32, v0: f32, dt: f32, tribo: bool) -> Scene {
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::new(-G * alpha.sin(), -G * alpha.cos(), 0.0);
        world.integration_parameters.dt = dt;
        let belt = world.colliders.insert(
            ColliderBuilder::cuboid(50.0, 0.5, 5.0)
                .translation(Vector::new(0.0, -0.5, 0.0))
                .friction(MU_S as f32)
                .active_hooks(ActiveHooks::MODIFY_SOLVER_CONTACTS),
        );
        let brick = world.bodies.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, 0.1, 0.0))
                .linvel(Vector::new(v0, 0.0, 0.0))
                .can_sleep(false),
        );
        let brick_collider = world.colliders.insert_with_parent(
            ColliderBuilder::cuboid(0.2, 0.1, 0.15).density(1000.0).friction(MU_S as f32),
            brick,
            &mut world.bodies,
        );
        let tribo = tribo.then(|| {
            let mut t = TriboRapier::new();
            let m = FrictionMaterial::new(MU_S, MU_K).unwrap();
            t.set_material(belt, m);
            t.set_material(brick_collider, m);
            t
        });
        Scene { world, tribo, hooks: Belt { belt, u: Vector::new(u, 0.0, 0.0) }, belt, brick, brick_collider }
    }

    fn step(&mut self) {
        match &mut self.tribo {
            Some(t) => t.step_world(&mut self.world, &self.hooks, &()),
            None => self.world.step_with_events(&self.hooks, &()),
        }
    }

    fn vx(&self) -> f32 {
        self.world.bodies[self.brick].linvel().x
    }

    fn x(&self) -> f32 {
        self.world.bodies[self.brick].translation().x
    }

    fn slide(&self) -> Option<Mode> {
        self.tribo.as_ref()?.contact(self.belt, self.brick_collider).map(|c| c.slide)
    }
}

/// Flat belt at 1 m/s, brick dropped at rest: kinetic friction accelerates it at μk g until it
/// rides at the belt speed (t = u/(μk g) = 0.255 s), then the contact sticks.
#[test]
fn brick_dropped_on_a_belt_slides_at_mu_k_then_rides_it() {
    for dt in [1.0 / 60.0, 1.0 / 240.0] {
        let mut s = Scene::new(0.0, 1.0, 0.0, dt, true);
        let mut t = 0.0;
        let (mut v_early, mut t_early) = (0.0, 0.0);
        let mut modes = Vec::new();
        while t < 1.0 - 1e-6 {
            s.step();
            t += dt;
            if t <= 0.15 + 1e-6 {
                (v_early, t_early) = (s.vx(), t);
            }
            modes.push(s.slide());
        }
        let a = v_early / t_early;
        let expected = (MU_K * G as f64) as f32;
        assert!(
            (a - expected).abs() < 0.03 * expected,
            "dt {dt}: acceleration on the belt {a} m/s², expected μk g = {expected}"
        );
        assert!((s.vx() - 1.0).abs() < 1e-3, "dt {dt}: brick speed {} after 1 s, belt 1 m/s", s.vx());
        assert_eq!(
            modes.last().copied().flatten(),
            Some(Mode::Static),
            "dt {dt}: riding the belt is sticking, modes {modes:?}"
        );
        assert_eq!(
            modes[(0.15 / dt).round() as usize - 1],
            Some(Mode::Kinetic),
            "dt {dt}: at 0.15 s the brick still slides on the belt"
        );
    }
}

/// Belt running up a slope with atan μk < α < atan μs, brick moving with it: static friction
/// carries the brick up at the belt speed. (Measured against the ground instead of the belt,
/// the contact would count as slipping, get μk < tan α and slide back down.) Stock friction
/// (one coefficient, μs) carries it too; the difference shows with a brick dropped at rest,
/// which tribo lets slide down (μk g cos α < g sin α) while stock carries it up.
#[test]
fn belt_up_a_slope_carries_a_riding_brick_and_drops_a_resting_one() {
    let alpha = 0.5f32.atan(); // tan α = 0.5: between μk = 0.4 and μs = 0.6
    let u = 0.5;
    for dt in [1.0 / 60.0, 1.0 / 240.0] {
        let mut riding = Scene::new(alpha, u, u, dt, true);
        let mut dropped = Scene::new(alpha, u, 0.0, dt, true);
        let mut stock = Scene::new(alpha, u, 0.0, dt, false);
        let steps = (2.0 / dt).round() as usize;
        for _ in 0..steps {
            riding.step();
            dropped.step();
            stock.step();
        }
        // Riding: 2 s at 0.5 m/s up the slope.
        assert!(
            (riding.x() - 1.0).abs() < 0.02,
            "dt {dt}: riding brick moved {} m, expected 1.0 m",
            riding.x()
        );
        assert!((riding.vx() - u).abs() < 1e-3, "dt {dt}: riding brick speed {}", riding.vx());
        assert_eq!(riding.slide(), Some(Mode::Static), "dt {dt}");
        // Dropped at rest: kinetic, a = g (μk cos α − sin α) < 0 (it slides down).
        let a = G * (MU_K as f32 * alpha.cos() - alpha.sin());
        let expected_v = a * 2.0;
        assert!(
            (dropped.vx() - expected_v).abs() < 0.03 * expected_v.abs(),
            "dt {dt}: dropped brick v = {}, expected {expected_v}",
            dropped.vx()
        );
        assert_eq!(dropped.slide(), Some(Mode::Kinetic), "dt {dt}");
        // Stock: one coefficient (μs), the brick is carried up.
        assert!(stock.vx() > 0.9 * u, "dt {dt}: stock brick v = {}", stock.vx());
    }
}

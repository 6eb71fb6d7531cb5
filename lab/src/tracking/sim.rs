//! Engine-independent reference integrator (docs/tracking.md §5.1) and a one-body-on-a-plane scene, so the
//! paper's experiments run exactly as published.
//!
//! Integrator: first-order semi-implicit (symplectic) Euler with the loads computed at the end
//! of the previous step: `v1 = v0 + Δt F/m`, `x1 = x0 + Δt v1`, `ω1 = ω0 + Δt α0` with the
//! body-frame Euler equations `α = A I⁻¹(M_b − ω_b × I ω_b)`, `q1 = Exp(Δt ω1) ⊗ q0`.

use glam::{DMat3, DQuat, DVec3};
use std::fmt;
use tribo::tracking::Surface;
use tribo::tracking::{
    ContactBody, ContactInput, ContactOutput, ContactState, DampingInertia, TrackingConfig, UpdateError,
};
use tribo::tracking::{Material, ParamError};

/// Invalid body or scene parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum SimError {
    /// A mass, inertia, dimension or step is NaN, infinite, zero or negative.
    BadParameter {
        /// Which parameter.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// The friction update failed.
    Update(UpdateError),
    /// Invalid friction material parameter.
    Param(ParamError),
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::BadParameter { name, value } => {
                write!(f, "simulation parameter `{name}` = {value} must be finite and > 0")
            }
            SimError::Update(e) => write!(f, "friction update failed: {e}"),
            SimError::Param(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SimError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SimError::Update(e) => Some(e),
            SimError::Param(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParamError> for SimError {
    fn from(e: ParamError) -> Self {
        SimError::Param(e)
    }
}

impl From<UpdateError> for SimError {
    fn from(e: UpdateError) -> Self {
        SimError::Update(e)
    }
}

fn positive(name: &'static str, value: f64) -> Result<f64, SimError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(SimError::BadParameter { name, value })
    }
}

/// A rigid body integrated by semi-implicit Euler (docs/tracking.md §5.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody {
    mass: f64,
    inertia: DVec3,
    /// Centre of mass (global).
    pub position: DVec3,
    /// Rotation body → global.
    pub rotation: DQuat,
    /// Linear velocity (global).
    pub velocity: DVec3,
    /// Angular velocity (global).
    pub angular_velocity: DVec3,
    /// A non-rotating body (the brick of T1): rotation and angular velocity are never updated.
    pub lock_rotation: bool,
    /// If set, the body may only rotate about this fixed global unit axis (the angular velocity
    /// is projected onto it after each step): the one-degree-of-freedom spin setting of the
    /// paper's spin experiments.
    pub rotation_axis: Option<DVec3>,
}

impl RigidBody {
    /// A body of `mass` > 0 with principal moments `inertia` (body frame, all > 0), at rest
    /// at the origin.
    pub fn new(mass: f64, inertia: DVec3) -> Result<Self, SimError> {
        positive("mass", mass)?;
        positive("inertia.x", inertia.x)?;
        positive("inertia.y", inertia.y)?;
        positive("inertia.z", inertia.z)?;
        Ok(RigidBody {
            mass,
            inertia,
            position: DVec3::ZERO,
            rotation: DQuat::IDENTITY,
            velocity: DVec3::ZERO,
            angular_velocity: DVec3::ZERO,
            lock_rotation: false,
            rotation_axis: None,
        })
    }
    /// Sets the position.
    pub fn with_position(mut self, p: DVec3) -> Self {
        self.position = p;
        self
    }
    /// Sets the rotation.
    pub fn with_rotation(mut self, q: DQuat) -> Self {
        self.rotation = q.normalize();
        self
    }
    /// Sets the linear velocity.
    pub fn with_velocity(mut self, v: DVec3) -> Self {
        self.velocity = v;
        self
    }
    /// Sets the angular velocity (global).
    pub fn with_angular_velocity(mut self, w: DVec3) -> Self {
        self.angular_velocity = w;
        self
    }
    /// Makes the body non-rotating.
    pub fn locked(mut self) -> Self {
        self.lock_rotation = true;
        self
    }
    /// Restricts the rotation to the global `axis` (normalised; a zero axis locks rotation).
    pub fn with_rotation_axis(mut self, axis: DVec3) -> Self {
        match axis.try_normalize() {
            Some(a) => self.rotation_axis = Some(a),
            None => self.lock_rotation = true,
        }
        self
    }
    /// Mass.
    pub fn mass(&self) -> f64 {
        self.mass
    }
    /// Principal moments of inertia (body frame).
    pub fn inertia(&self) -> DVec3 {
        self.inertia
    }
    /// Kinetic energy.
    pub fn kinetic_energy(&self) -> f64 {
        let wb = self.rotation.conjugate() * self.angular_velocity;
        0.5 * self.mass * self.velocity.length_squared() + 0.5 * (wb * wb).dot(self.inertia)
    }
    /// World-frame inertia tensor.
    pub fn world_inertia(&self) -> DMat3 {
        let a = DMat3::from_quat(self.rotation);
        a * DMat3::from_diagonal(self.inertia) * a.transpose()
    }

    /// One semi-implicit Euler step with total external `force` and `torque` (about the CM).
    pub fn step(&mut self, force: DVec3, torque: DVec3, dt: f64) {
        self.velocity += force * (dt / self.mass);
        self.position += self.velocity * dt;
        if self.lock_rotation {
            return;
        }
        let qc = self.rotation.conjugate();
        let wb = qc * self.angular_velocity;
        let mb = qc * torque;
        let alpha_b = (mb - wb.cross(self.inertia * wb)) / self.inertia;
        self.angular_velocity += (self.rotation * alpha_b) * dt;
        if let Some(a) = self.rotation_axis {
            self.angular_velocity = a * self.angular_velocity.dot(a);
        }
        let rot = self.angular_velocity * dt;
        if rot != DVec3::ZERO {
            self.rotation = (DQuat::from_scaled_axis(rot) * self.rotation).normalize();
        }
    }
}

/// Shape of the moving body, centred at its centre of mass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A flat-bottomed block whose contact is the material point `half_height` below the CM
    /// (the non-rotating brick of T1).
    Brick {
        /// Distance CM → bottom face (m).
        half_height: f64,
    },
    /// Sphere of `radius`.
    Sphere {
        /// Radius (m).
        radius: f64,
    },
    /// Ellipsoid with semi-axes along the body axes.
    Ellipsoid {
        /// Semi-axis x.
        a: f64,
        /// Semi-axis y.
        b: f64,
        /// Semi-axis z.
        c: f64,
    },
}

impl Shape {
    fn surface(&self) -> Surface {
        match *self {
            Shape::Brick { .. } => Surface::Plane,
            Shape::Sphere { radius } => Surface::Sphere { radius },
            Shape::Ellipsoid { a, b, c } => Surface::Ellipsoid { a, b, c },
        }
    }
    fn validate(&self) -> Result<(), SimError> {
        match *self {
            Shape::Brick { half_height } => {
                if !(half_height.is_finite() && half_height >= 0.0) {
                    return Err(SimError::BadParameter { name: "half_height", value: half_height });
                }
            }
            Shape::Sphere { radius } => {
                positive("radius", radius)?;
            }
            Shape::Ellipsoid { a, b, c } => {
                positive("a", a)?;
                positive("b", b)?;
                positive("c", c)?;
            }
        }
        Ok(())
    }
    /// Contact with the plane z = 0 (outward normal +z): `(point on the plane, point on the
    /// body's surface, penetration)`. The two points differ only along the normal.
    fn plane_contact(&self, body: &RigidBody) -> (DVec3, DVec3, f64) {
        let r = body.position;
        let (on_body, depth) = match *self {
            Shape::Brick { half_height } => {
                let c = r + body.rotation * DVec3::new(0.0, 0.0, -half_height);
                (c, -c.z)
            }
            Shape::Sphere { radius } => (r - DVec3::Z * radius, radius - r.z),
            Shape::Ellipsoid { a, b, c } => {
                // docs/tracking.md T6: G⁻¹ = A diag(a²,b²,c²) Aᵀ; the tangency point of the ellipsoid with a
                // plane of normal n̂ = ẑ is r − G⁻¹n̂/√(n̂ᵀG⁻¹n̂); its projection onto the plane is
                // x* = r + λ G⁻¹ n̂, λ = n̂·(x0 − r)/(n̂ᵀG⁻¹n̂).
                let am = DMat3::from_quat(body.rotation);
                let ginv = am * DMat3::from_diagonal(DVec3::new(a * a, b * b, c * c)) * am.transpose();
                let gn = ginv * DVec3::Z;
                let h = gn.z.sqrt();
                (r - gn / h, h - r.z)
            }
        };
        (DVec3::new(on_body.x, on_body.y, 0.0), on_body, depth)
    }
}

/// Normal-force model of a [`PlaneScene`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormalModel {
    /// Analytic constant normal force `n` (e.g. `m g cos α`); the body's motion along the plane
    /// normal is constrained (normal velocity and displacement held at zero); the moment of
    /// `n` about the centre of mass is applied (zero when the contact is below the centre).
    Constrained {
        /// Normal force (N).
        n: f64,
    },
    /// Undamped Hookean penalty `N = k_n δ` (δ: penetration), applied at the contact point.
    Hookean {
        /// Normal stiffness (N/m).
        k_n: f64,
    },
}

/// Legacy roll torque replacing the history-based roll friction (App. A eq. 7–8), for the T2c
/// baseline: `M_r = −ω̂_rel μ_r R N` on the moving body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LegacyRoll {
    /// Rolling-resistance coefficient μ_r.
    pub mu_r: f64,
    /// Effective radius (m).
    pub r_eff: f64,
}

/// One moving body on the fixed plane `z = 0` (body i = ground, n = −ẑ, body j = the mover),
/// with gravity, a normal-force model and contact-point-tracking friction.
#[derive(Clone, Debug)]
pub struct PlaneScene {
    /// The moving body (body j).
    pub body: RigidBody,
    /// Its shape.
    pub shape: Shape,
    /// Gravitational acceleration (global; tilt it for an incline).
    pub gravity: DVec3,
    /// Normal-force model.
    pub normal: NormalModel,
    /// Friction material.
    pub material: Material,
    /// Kinematic options.
    pub config: TrackingConfig,
    /// Fictitious mass/inertia for the damping defaults.
    pub inertia: DampingInertia,
    /// Optional legacy roll model (T2c).
    pub legacy_roll: Option<LegacyRoll>,
    /// Step Δt.
    pub dt: f64,
    /// Current time.
    pub time: f64,
    /// Contact state (None: not in contact).
    pub state: Option<ContactState>,
    /// Output of the last friction update.
    pub last: ContactOutput,
    /// Normal force of the last evaluation.
    pub normal_force: f64,
    force: DVec3,
    torque: DVec3,
}

/// Gravity for an incline of angle `alpha` with x pointing up-slope and z along the incline
/// normal: `(−g sin α, 0, −g cos α)`.
pub fn incline_gravity(g: f64, alpha: f64) -> DVec3 {
    DVec3::new(-g * alpha.sin(), 0.0, -g * alpha.cos())
}

impl PlaneScene {
    /// Builds the scene and evaluates the contact at t = 0 (the onset step, zero friction).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        body: RigidBody,
        shape: Shape,
        gravity: DVec3,
        normal: NormalModel,
        material: Material,
        inertia: DampingInertia,
        dt: f64,
    ) -> Result<Self, SimError> {
        shape.validate()?;
        positive("dt", dt)?;
        if !gravity.is_finite() {
            return Err(SimError::BadParameter { name: "gravity", value: f64::NAN });
        }
        match normal {
            NormalModel::Constrained { n } => {
                if !(n.is_finite() && n >= 0.0) {
                    return Err(SimError::BadParameter { name: "n", value: n });
                }
            }
            NormalModel::Hookean { k_n } => {
                positive("k_n", k_n)?;
            }
        }
        let mut s = PlaneScene {
            body,
            shape,
            gravity,
            normal,
            material,
            config: TrackingConfig::default(),
            inertia,
            legacy_roll: None,
            dt,
            time: 0.0,
            state: None,
            last: ContactOutput::default(),
            normal_force: 0.0,
            force: DVec3::ZERO,
            torque: DVec3::ZERO,
        };
        s.evaluate()?;
        Ok(s)
    }

    /// Sets the kinematic options (before the first step).
    pub fn with_config(mut self, config: TrackingConfig) -> Self {
        self.config = config;
        self
    }
    /// Replaces the roll friction by the legacy constant-torque model (T2c).
    pub fn with_legacy_roll(mut self, l: LegacyRoll) -> Self {
        self.legacy_roll = Some(l);
        self
    }

    /// Contact detection, normal force and friction update at the current time; stores the
    /// loads used by the next step.
    fn evaluate(&mut self) -> Result<(), SimError> {
        let (point, on_body, depth) = self.shape.plane_contact(&self.body);
        let n_force = match self.normal {
            NormalModel::Constrained { n } => n,
            NormalModel::Hookean { k_n } => {
                if depth > 0.0 {
                    k_n * depth
                } else {
                    0.0
                }
            }
        };
        let in_contact = matches!(self.normal, NormalModel::Constrained { .. }) || depth > 0.0;
        self.force = DVec3::ZERO;
        self.torque = DVec3::ZERO;
        self.normal_force = n_force;
        if !in_contact {
            self.state = None;
            self.last = ContactOutput::default();
            return Ok(());
        }
        let input = ContactInput {
            body_i: ContactBody::ground(Surface::Plane),
            body_j: ContactBody::new(self.body.position, self.body.rotation, self.shape.surface()),
            point_i: point,
            point_j: on_body,
            normal: DVec3::NEG_Z,
            normal_force: n_force,
            dt: self.dt,
            inertia: self.inertia,
        };
        let state = self.state.get_or_insert_with(ContactState::default);
        let out = state.update(&self.material, &self.config, &input)?;
        self.last = out;
        self.force += out.wrench_j.force;
        self.torque += out.wrench_j.torque;
        if let Some(l) = self.legacy_roll {
            // The history roll torque (if any) is replaced by the constant torque (8).
            self.torque -= out.roll_torque_j;
            // Torque on the mover (body j): with ω_rel = ω_j − ω_ground.
            self.torque += super::legacy::constant_roll_torque(
                self.body.angular_velocity,
                DVec3::ZERO,
                DVec3::Z,
                l.mu_r,
                l.r_eff,
                n_force,
            );
        }
        // The normal force acts at the contact point. Constrained: only its moment is applied
        // (the normal motion is removed by the constraint); Hookean: force and moment.
        let f = DVec3::Z * n_force;
        if let NormalModel::Hookean { .. } = self.normal {
            self.force += f;
        }
        self.torque += (point - self.body.position).cross(f);
        Ok(())
    }

    /// Total external force (excluding gravity) and torque that the next step applies.
    pub fn loads(&self) -> (DVec3, DVec3) {
        (self.force, self.torque)
    }

    /// Advances one step: integrate with the loads of the previous evaluation, then detect,
    /// compute N and update friction at the new time.
    pub fn step(&mut self) -> Result<(), SimError> {
        let f = self.force + self.gravity * self.body.mass();
        self.body.step(f, self.torque, self.dt);
        if let NormalModel::Constrained { .. } = self.normal {
            // Hold the body on the plane: zero normal velocity and zero penetration (for a
            // sphere or the non-rotating brick this is the initial height).
            self.body.velocity.z = 0.0;
            let (_, _, depth) = self.shape.plane_contact(&self.body);
            self.body.position.z += depth;
        }
        self.time += self.dt;
        self.evaluate()
    }

    /// Contact state (None when not in contact).
    pub fn contact(&self) -> Option<&ContactState> {
        self.state.as_ref()
    }
}

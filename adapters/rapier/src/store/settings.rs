//! The tuning of the rapier mechanism ([`Settings`]).

/// Tuning of the rapier mechanism. The defaults suit SI scenes (metres, kilograms).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde-serialize", serde(default))]
pub struct Settings {
    /// Relative slip speed (m/s) below which a slipping contact sticks again (a sticking one
    /// slips when its accumulated slip exceeds the material's static threshold `μs N/K_E`).
    /// For roll and spin the angular speed is `slip_speed · κ̄` (κ̄ the contact's curvature:
    /// `slip_speed/R` for a ball on a plane). Default `1e-3`.
    pub slip_speed: f32,
    /// Fraction (0..=1) of the accumulated stick deflection (slide offset from the anchor,
    /// roll and spin angles) removed per step by the anchor pull-back, which never moves the
    /// contact faster than the slip-detection speed ([`slip_speed`](Self::slip_speed), angular
    /// `slip_speed · κ̄`): a faster pull-back makes the contacts of a body wedged in a pile
    /// fight each other and keeps it jittering. 0 disables it (the contact may then creep at
    /// the solver's tolerance). Default `0.5`.
    pub anchor_gain: f32,
    /// Damping factor of the motor rows (rapier `set_motor_velocity` factor); large means a rigid
    /// motor up to its torque bound. Default `1e6`.
    pub motor_damping: f32,
    /// Take `ActiveHooks::MODIFY_SOLVER_CONTACTS` off a material collider on a dynamic body
    /// while all its contacts stick, so that rapier recycles its contacts as it does for pairs
    /// without hooks (it re-clips a hooked pair every step, and for equal, aligned faces, a
    /// stack of boxes, the re-clip drops the warm starts of some corners: the stack leans more
    /// than under stock rapier). A contact counts as settled when slide, roll and spin are
    /// static (after the onset hold), its slide deflection is within half its static threshold
    /// and its slip is below ten [`slip_speed`](Self::slip_speed)s (or it carries no load, or
    /// one more step at its slip keeps the deflection within half the threshold); in its first
    /// loaded step (the bodies touched during the step) the two deflection tests do not apply.
    /// A contact that slides (kinetic) while roll and spin stick counts as settled too, while
    /// rapier recycles its pair: the recycled pair keeps the μk the hook wrote at its last step
    /// on the hook, and the contact goes back on the hook before its relative pose leaves
    /// rapier's recycling bound. A contact goes off only after a step on the hook that wrote the
    /// coefficient of its current mode (a contact that just stopped sliding spends one step on
    /// the hook, writing μs).
    /// Meanwhile
    /// the collider's `friction` is its material's μs (the user's value comes back with the
    /// hook), tribo keeps tracking stick and slip, and the motors keep resisting roll and spin;
    /// the hook comes back before the next step once a contact changes mode or its deflection
    /// grows, or the collider gains a contact with a collider that has the hook. Colliders whose
    /// pairs rapier would combine to another coefficient than μs (pair-table overrides,
    /// differing combine rules, a partner without a material), Contensou contacts, colliders
    /// without a body or on fixed or kinematic bodies, and colliders whose hook flag the user
    /// set stay hooked.
    /// See docs/rapier.md §2. Default `true`.
    pub unhook_settled: bool,
    /// Lift rapier's angular speed cap (`(π/4)/dt`, 47 rad/s at dt = 1/60) on the dynamic bodies
    /// of colliders with a material and of every body in a tribo contact
    /// (`RigidBody::set_allow_fast_rotation(true)`, when the material is set and when the
    /// contact begins): a billiard ball rolling at 1.4 m/s turns at 49 rad/s, and capped it
    /// rolls with its contact sliding. rapier's cap keeps its continuous collision detection
    /// reliable for bodies turning by more than a quarter turn per step; set `false` to keep
    /// it, and tribo reports its bodies held at it ([`Diagnostic::AngularSpeedCapped`](crate::Diagnostic)).
    /// Default `true`.
    pub allow_fast_rotation: bool,
    /// How a contact's roll and spin resistance reaches rapier (docs/rapier.md §8.1). Default
    /// [`RollSpin::Motors`].
    pub roll_spin: RollSpin,
}

/// How a contact's roll and spin resistance reaches rapier ([`Settings::roll_spin`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum RollSpin {
    /// A motor joint per contact (angular rows bounded by the capacities, solved inside
    /// rapier's velocity solver).
    #[default]
    Motors,
    /// A torque per contact, held over the next step (`RigidBody::add_torque`), chosen by an
    /// observer of the load so that the step ends where the motor's bounded rows would have put
    /// it (`tribo::resistance`); no joint. Contacts of bodies on the user's joints (impulse or
    /// multibody) and Contensou contacts keep their motors. tribo takes its torques back at the
    /// next `before_step` (a body whose user torque changed in between, reset by the user, is
    /// left as the user set it).
    Torques,
}

impl Settings {
    /// The settings clamped to sane ranges: `slip_speed > 0`, `anchor_gain ∈ [0, 1]`,
    /// `motor_damping > 0`; NaN or out-of-range values take the default.
    pub(super) fn sanitized(self) -> Settings {
        let d = Settings::default();
        let pos = |x: f32, dflt: f32| if x.is_finite() && x > 0.0 { x } else { dflt };
        Settings {
            slip_speed: pos(self.slip_speed, d.slip_speed),
            anchor_gain: if self.anchor_gain.is_finite() {
                self.anchor_gain.clamp(0.0, 1.0)
            } else {
                d.anchor_gain
            },
            motor_damping: pos(self.motor_damping, d.motor_damping),
            unhook_settled: self.unhook_settled,
            allow_fast_rotation: self.allow_fast_rotation,
            roll_spin: self.roll_spin,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            slip_speed: 1e-3,
            anchor_gain: 0.5,
            motor_damping: 1e6,
            unhook_settled: true,
            allow_fast_rotation: true,
            roll_spin: RollSpin::Motors,
        }
    }
}

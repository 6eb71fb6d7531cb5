//! General two-contact bodies (docs/realizability.md §3.8–3.10, §7.3): input validation, cross-checks of the
//! mobility-matrix formulation against literal Newton–Euler solves (docs/realizability.md §3.8 steps 1, 2, 4),
//! completeness of the SS limit-direction scan against a dense sphere search, invariances and
//! the force-based relations G1–G4.

use glam::DMat3;
use nalgebra::{DMatrix, DVector};
use tribo::realizability::{Options, Status};
use tribo::realizability::{RealizabilityError, Transition, TwoContactProblem};
use tribo::{DQuat, DVec3};

mod common;
use common::{random_v_body, Rng};

/// A random body lying in a V-shaped support under gravity, with random extra loads, spin and
/// curvature.
fn random_body(rng: &mut Rng) -> TwoContactProblem {
    random_v_body(rng, (0.1, 0.8), 0.4, 0.3)
}

fn rotated(pb: &TwoContactProblem, q: DQuat) -> TwoContactProblem {
    let r = DMat3::from_quat(q);
    let mut out = pb.clone();
    out.inertia_world = r * pb.inertia_world * r.transpose();
    out.com = q * pb.com;
    for k in 0..2 {
        out.contacts[k].point = q * pb.contacts[k].point;
        out.contacts[k].normal = q * pb.contacts[k].normal;
        out.contacts[k].curvature_radius = r * pb.contacts[k].curvature_radius * r.transpose();
    }
    out.applied_force = q * pb.applied_force;
    out.applied_torque = q * pb.applied_torque;
    out
}

fn base_problem() -> TwoContactProblem {
    random_body(&mut Rng(42))
}

#[test]
fn invalid_input_is_rejected() {
    let ok = base_problem();
    assert!(ok.realizability().is_ok());
    let mut p = ok.clone();
    p.mass = f64::NAN;
    assert!(matches!(p.realizability(), Err(RealizabilityError::NonFinite(_))));
    for m in [0.0, -1.0] {
        let mut p = ok.clone();
        p.mass = m;
        assert_eq!(p.realizability().unwrap_err(), RealizabilityError::NonPositiveMass);
    }
    let mut p = ok.clone();
    p.inertia_world = DMat3::from_diagonal(DVec3::new(1.0, -1.0, 1.0));
    assert_eq!(p.realizability().unwrap_err(), RealizabilityError::InertiaNotSpd);
    let mut p = ok.clone();
    p.inertia_world = DMat3::from_cols(DVec3::new(1.0, 0.5, 0.0), DVec3::new(0.0, 1.0, 0.0), DVec3::Z);
    assert_eq!(p.realizability().unwrap_err(), RealizabilityError::InertiaNotSpd);
    let mut p = ok.clone();
    p.contacts[1].normal = DVec3::ZERO;
    assert_eq!(p.realizability().unwrap_err(), RealizabilityError::ZeroNormal);
    let mut p = ok.clone();
    p.contacts[0].mu = -0.1;
    assert_eq!(p.realizability().unwrap_err(), RealizabilityError::NegativeFriction);
    let mut p = ok.clone();
    p.contacts[0].point.x = f64::INFINITY;
    assert!(matches!(p.realizability(), Err(RealizabilityError::NonFinite(_))));
    let mut p = ok.clone();
    p.applied_torque.y = f64::NAN;
    assert!(matches!(p.realizability(), Err(RealizabilityError::NonFinite(_))));
    let mut p = ok.clone();
    p.contacts[1].point = p.contacts[0].point;
    assert!(matches!(p.realizability(), Err(RealizabilityError::DegenerateGeometry(_))));
    let mut p = ok.clone();
    p.contacts[0].normal = p.contacts[0].point - p.contacts[1].point;
    assert!(matches!(p.realizability(), Err(RealizabilityError::DegenerateGeometry(_))));
    let mut p = ok.clone();
    p.contacts[0].curvature_radius = DMat3::from_diagonal(DVec3::new(-1.0, -1.0, -1.0));
    assert_eq!(p.realizability().unwrap_err(), RealizabilityError::BadCurvature);
    // The error type is a std error with a message.
    let e: Box<dyn std::error::Error> = Box::new(RealizabilityError::NonPositiveMass);
    assert!(!e.to_string().is_empty());
}

/// Literal docs/realizability.md §3.8 solves with nalgebra (independent of the mobility-matrix code path).
struct Literal {
    m: f64,
    j: DMat3,
    r: [DVec3; 2],
    n: [DVec3; 2],
    t1: [DVec3; 2],
    t2: [DVec3; 2],
    a: DVec3,
    kappa: [DVec3; 2],
    fe: DVec3,
    me: DVec3,
    mu: [f64; 2],
}

impl Literal {
    fn new(pb: &TwoContactProblem) -> Self {
        let r = [pb.contacts[0].point - pb.com, pb.contacts[1].point - pb.com];
        let n = [pb.contacts[0].normal.normalize(), pb.contacts[1].normal.normalize()];
        let a = (r[0] - r[1]).normalize();
        let t1 = [a.cross(n[0]).normalize(), a.cross(n[1]).normalize()];
        let t2 = [n[0].cross(t1[0]), n[1].cross(t1[1])];
        let om = a * pb.spin;
        let mut kappa = [DVec3::ZERO; 2];
        for k in 0..2 {
            let mut w = pb.contacts[k].curvature_radius * om.cross(n[k]);
            w -= n[k] * w.dot(n[k]);
            kappa[k] = om.cross(om.cross(r[k])) + om.cross(w);
        }
        Literal {
            m: pb.mass,
            j: pb.inertia_world,
            r,
            n,
            t1,
            t2,
            a,
            kappa,
            fe: pb.applied_force,
            me: pb.applied_torque - om.cross(pb.inertia_world * om),
            mu: [pb.contacts[0].mu, pb.contacts[1].mu],
        }
    }

    /// Newton–Euler rows for unknowns (a_C, ω̇) + extra force columns; returns the matrix with
    /// 6 rows filled and the rhs.
    fn ne(&self, ncols: usize, nrows: usize) -> (DMatrix<f64>, DVector<f64>) {
        let mut a = DMatrix::zeros(nrows, ncols);
        let mut b = DVector::zeros(nrows);
        for i in 0..3 {
            a[(i, i)] = self.m;
            for k in 0..3 {
                a[(3 + i, 3 + k)] = self.j.col(k)[i];
            }
            b[i] = self.fe[i];
            b[3 + i] = self.me[i];
        }
        (a, b)
    }

    /// Adds the force column(s) of a contact force `f` = `col_vec` · unknown.
    fn force_col(&self, a: &mut DMatrix<f64>, col: usize, k: usize, e: DVec3) {
        let re = self.r[k].cross(e);
        for i in 0..3 {
            a[(i, col)] = -e[i];
            a[(3 + i, col)] = -re[i];
        }
    }

    /// v̇_k = a_C + ω̇ × r_k + κ_k.
    fn vdot(&self, x: &DVector<f64>, k: usize) -> DVec3 {
        let ac = DVec3::new(x[0], x[1], x[2]);
        let al = DVec3::new(x[3], x[4], x[5]);
        ac + al.cross(self.r[k]) + self.kappa[k]
    }

    /// Row `e·(a_C + ω̇ × r_k) = −e·κ_k`.
    fn kin_row(&self, a: &mut DMatrix<f64>, b: &mut DVector<f64>, row: usize, k: usize, e: DVec3) {
        let re = self.r[k].cross(e);
        for i in 0..3 {
            a[(row, i)] = e[i];
            a[(row, 3 + i)] = re[i];
        }
        b[row] = -e.dot(self.kappa[k]);
    }

    /// Step 2/3: roll at `roll`, slip at the other with σ.
    fn one_slip(&self, roll: usize, sigma: f64) -> (f64, f64, f64) {
        let slip = 1 - roll;
        let (mut a, mut b) = self.ne(10, 10);
        for (c, e) in [DVec3::X, DVec3::Y, DVec3::Z].into_iter().enumerate() {
            self.force_col(&mut a, 6 + c, roll, e);
        }
        let e = self.n[slip] - self.t1[slip] * (self.mu[slip] * sigma);
        self.force_col(&mut a, 9, slip, e);
        for (c, e) in [DVec3::X, DVec3::Y, DVec3::Z].into_iter().enumerate() {
            self.kin_row(&mut a, &mut b, 6 + c, roll, e);
        }
        self.kin_row(&mut a, &mut b, 9, slip, self.n[slip]);
        let x = a.lu().solve(&b).unwrap();
        let f = DVec3::new(x[6], x[7], x[8]);
        (self.t1[slip].dot(self.vdot(&x, slip)), self.n[roll].dot(f), x[9])
    }

    /// Step 4: SS limit field for d in (u1⁺, u1⁻, u_a).
    fn ss(&self, d: DVec3) -> (DVec3, [f64; 2]) {
        let c = [1.0 / self.t2[0].dot(self.a), 1.0 / self.t2[1].dot(self.a)];
        let lp = (self.t1[0] * d.x + self.t2[0] * (c[0] * d.z)).normalize();
        let lm = (self.t1[1] * d.y + self.t2[1] * (c[1] * d.z)).normalize();
        let (mut a, mut b) = self.ne(8, 8);
        self.force_col(&mut a, 6, 0, self.n[0] - lp * self.mu[0]);
        self.force_col(&mut a, 7, 1, self.n[1] - lm * self.mu[1]);
        self.kin_row(&mut a, &mut b, 6, 0, self.n[0]);
        self.kin_row(&mut a, &mut b, 7, 1, self.n[1]);
        let x = a.lu().solve(&b).unwrap();
        let vp = self.vdot(&x, 0);
        let vm = self.vdot(&x, 1);
        (DVec3::new(self.t1[0].dot(vp), self.t1[1].dot(vm), self.a.dot(vp)), [x[6], x[7]])
    }

    /// Step 1: RR accelerations by least squares (12 unknowns, rank 11).
    fn rr(&self) -> (DVec3, DVec3) {
        let (mut a, mut b) = self.ne(12, 12);
        for k in 0..2 {
            for (c, e) in [DVec3::X, DVec3::Y, DVec3::Z].into_iter().enumerate() {
                self.force_col(&mut a, 6 + 3 * k + c, k, e);
                self.kin_row(&mut a, &mut b, 6 + 3 * k + c, k, e);
            }
        }
        let svd = a.svd(true, true);
        let x = svd.solve(&b, 1e-10).unwrap();
        (DVec3::new(x[0], x[1], x[2]), DVec3::new(x[3], x[4], x[5]))
    }
}

/// The mobility-matrix formulation reproduces literal Newton–Euler solves.
#[test]
fn matches_literal_newton_euler_solves() {
    let mut rng = Rng(0x1111_2222_3333_4444);
    for _ in 0..100 {
        let pb = random_body(&mut rng);
        let lit = Literal::new(&pb);
        let rep = pb.realizability().unwrap();
        let scale = pb.applied_force.length() / pb.mass + pb.spin * pb.spin;
        // RR
        let (ac, al) = lit.rr();
        assert!((ac - rep.rr.acc_com).length() < 1e-8 * scale, "{ac:?} {:?}", rep.rr.acc_com);
        assert!((al - rep.rr.ang_acc).length() < 1e-7 * scale * 10.0);
        // RS (roll +) and SR (roll −)
        for (i, s) in [1.0, -1.0].into_iter().enumerate() {
            let (s_rs, n_roll, n_slip) = lit.one_slip(0, s);
            assert!((s_rs - rep.rs.slip_acc[i]).abs() < 1e-9 * scale);
            assert!((n_roll - rep.rs.normal_rolling[i]).abs() < 1e-9 * pb.mass * scale);
            assert!((n_slip - rep.rs.normal_slipping[i]).abs() < 1e-9 * pb.mass * scale);
            let (s_sr, _, _) = lit.one_slip(1, s);
            assert!((s_sr - rep.sr.slip_acc[i]).abs() < 1e-9 * scale);
        }
        // SS at random directions and at the found limit directions
        for _ in 0..5 {
            let d = rng.unit();
            let (f, n) = lit.ss(d);
            let (f2, n2) = pb.ss_limit_field(d).unwrap().unwrap();
            assert!((f - f2).length() < 1e-9 * scale, "{f:?} {f2:?}");
            assert!(
                (n[0] - n2[0]).abs() < 1e-9 * pb.mass * scale
                    && (n[1] - n2[1]).abs() < 1e-9 * pb.mass * scale
            );
        }
        for ld in &rep.ss.directions {
            let (f, _) = lit.ss(ld.d);
            assert!(
                (f - ld.d * ld.r).length() < 1e-7 * scale,
                "not a limit direction: {f:?} vs R d = {:?}",
                ld.d * ld.r
            );
            // a·v̇⁺ = a·v̇⁻ at Σ# (shared u̇_a).
        }
    }
}

/// Dense reference search on the sphere (docs/realizability.md §3.8 step 5: lattice + local minima + Newton).
fn dense_roots(pb: &TwoContactProblem, n: usize) -> Vec<(DVec3, f64)> {
    let field = |d: DVec3| pb.ss_limit_field(d).unwrap();
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let pts: Vec<DVec3> = (0..n)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let th = golden * i as f64;
            DVec3::new(r * th.cos(), r * th.sin(), z)
        })
        .collect();
    let hval = |d: DVec3| -> Option<(f64, f64)> {
        let (f, _) = field(d)?;
        let h = f - d * f.dot(d);
        Some((h.length() / f.length().max(1e-300), h.length()))
    };
    let vals: Vec<Option<(f64, f64)>> = pts.iter().map(|&d| hval(d)).collect();
    let spacing = (4.0 * std::f64::consts::PI / n as f64).sqrt();
    let mut roots: Vec<(DVec3, f64)> = Vec::new();
    for i in 0..n {
        let Some(vi) = vals[i] else { continue };
        // neighbours within 2.2 spacings
        let mut is_min = [true, true];
        for j in 0..n {
            if i == j || (pts[i] - pts[j]).length() > 2.2 * spacing {
                continue;
            }
            if let Some(vj) = vals[j] {
                if vj.0 < vi.0 {
                    is_min[0] = false;
                }
                if vj.1 < vi.1 {
                    is_min[1] = false;
                }
            }
        }
        if !(is_min[0] || is_min[1]) {
            continue;
        }
        // Gauss–Newton on the tangent plane.
        let mut d = pts[i];
        for _ in 0..60 {
            let b1 = if d.x.abs() < 0.6 { DVec3::X } else { DVec3::Y }.cross(d).normalize();
            let b2 = d.cross(b1);
            let res = |d: DVec3| -> Option<[f64; 2]> {
                let (f, _) = field(d)?;
                let h = f - d * f.dot(d);
                Some([h.dot(b1), h.dot(b2)])
            };
            let Some(r0) = res(d) else { break };
            let eps = 1e-7;
            let (Some(r1), Some(r2)) = (res((d + b1 * eps).normalize()), res((d + b2 * eps).normalize()))
            else {
                break;
            };
            let jm = [
                [(r1[0] - r0[0]) / eps, (r2[0] - r0[0]) / eps],
                [(r1[1] - r0[1]) / eps, (r2[1] - r0[1]) / eps],
            ];
            let det = jm[0][0] * jm[1][1] - jm[0][1] * jm[1][0];
            if det == 0.0 {
                break;
            }
            let x1 = (jm[1][1] * r0[0] - jm[0][1] * r0[1]) / det;
            let x2 = (-jm[1][0] * r0[0] + jm[0][0] * r0[1]) / det;
            let step = (x1 * x1 + x2 * x2).sqrt();
            let damp = if step > 0.2 { 0.2 / step } else { 1.0 };
            d = (d - b1 * (x1 * damp) - b2 * (x2 * damp)).normalize();
            if step < 1e-13 {
                break;
            }
        }
        if let Some((f, _)) = field(d) {
            let h = f - d * f.dot(d);
            let excluded =
                [DVec3::X, -DVec3::X, DVec3::Y, -DVec3::Y].iter().any(|e| (d - *e).length() < 1e-4);
            if h.length() <= 1e-9 * f.length().max(1.0)
                && !excluded
                && !roots.iter().any(|(x, _)| (*x - d).length() < 1e-6)
            {
                roots.push((d, f.dot(d)));
            }
        }
    }
    roots
}

/// Every normal force of every slip limit is positive: the bilateral analysis of \[004\]
/// applies unchanged (the setting of the invariants checked below).
fn bilateral(rep: &tribo::realizability::Report) -> bool {
    rep.well_posed && rep.ss.all_pressed && rep.rs.mode == [true; 2] && rep.sr.mode == [true; 2]
}

/// The torus-slice scan finds exactly the roots of a dense 6 000-point sphere search
/// (with Gauss–Newton refinement) on random general bodies.
#[test]
fn ss_scan_matches_dense_sphere_search() {
    let mut rng = Rng(0x7777_8888_9999_aaaa);
    let mut compared = 0;
    let mut total_roots = 0;
    let nrep: usize =
        std::env::var("TRIBO_STRESS").ok().and_then(|s| s.parse().ok()).map(|n: usize| n / 20).unwrap_or(25);
    for _ in 0..nrep {
        let pb = random_body(&mut rng);
        let rep = pb.realizability().unwrap();
        if !bilateral(&rep) {
            continue;
        }
        let dense = dense_roots(&pb, 6000);
        compared += 1;
        total_roots += dense.len();
        for (d, r) in &dense {
            let hit = rep.ss.directions.iter().find(|x| (x.d - *d).length() < 1e-5);
            let hit = hit.unwrap_or_else(|| {
                panic!("dense root {d:?} (R={r}) missed; scan found {:?}", rep.ss.directions)
            });
            assert!((hit.r - r).abs() < 1e-7 * rep.accel_ref);
        }
        for x in &rep.ss.directions {
            if !dense.iter().any(|(d, _)| (x.d - *d).length() < 1e-5) {
                // The lattice can miss roots close to the excluded single-slip directions,
                // where the field turns quickly: then the scan root must be a genuine root.
                let (f, _) = pb.ss_limit_field(x.d).unwrap().unwrap();
                let h = f - x.d * f.dot(x.d);
                assert!(h.length() < 1e-8 * rep.accel_ref, "scan root {:?} not in dense set {dense:?}", x.d);
                let near_e = [DVec3::X, -DVec3::X, DVec3::Y, -DVec3::Y]
                    .iter()
                    .map(|e| (x.d - *e).length())
                    .fold(f64::INFINITY, f64::min);
                assert!(near_e < 0.1, "scan-only root far from the excluded points: {:?}", x.d);
            }
        }
        // A much finer scan gives the same set.
        let fine = pb
            .clone()
            .with_options(Options { scan_samples: 2048, ..Options::default() })
            .realizability()
            .unwrap();
        assert_eq!(fine.ss.directions.len(), rep.ss.directions.len());
    }
    assert!(compared >= 10 && total_roots >= 2 * compared, "{compared} {total_roots}");
}

/// G1: RS_ok ⇔ η_RS < 1 and SR_ok ⇔ η_SR < 1 (hard); G2: realizable ⇒ possible (hard);
/// G3: inside RS ∧ SR, SS_ok ⇔ possible (soft, counted and printed).
#[test]
fn g1_g2_g3_force_based_relations() {
    let mut rng = Rng(0x2468_ace0_1357_9bdf);
    let (mut n_wp, mut n_real, mut g3_total, mut g3_disagree) = (0, 0, 0, 0);
    for _ in 0..400 {
        let pb = random_body(&mut rng);
        let rep = pb.realizability().unwrap();
        if !bilateral(&rep) || rep.status == Status::Marginal {
            continue;
        }
        n_wp += 1;
        if (rep.rr.eta_rs - 1.0).abs() > 1e-9 {
            assert_eq!(rep.rs.attracting, rep.rr.eta_rs < 1.0, "η_RS = {}", rep.rr.eta_rs);
        }
        if (rep.rr.eta_sr - 1.0).abs() > 1e-9 {
            assert_eq!(rep.sr.attracting, rep.rr.eta_sr < 1.0, "η_SR = {}", rep.rr.eta_sr);
        }
        if rep.realizable {
            n_real += 1;
            assert!(rep.rr.possible_interval.is_some(), "realizable but not possible");
        }
        if rep.rs.attracting && rep.sr.attracting {
            g3_total += 1;
            if (rep.ss.margin > 0.0) != rep.rr.possible_interval.is_some() {
                g3_disagree += 1;
                eprintln!("G3 counterexample candidate: {pb:?}");
            }
        }
    }
    eprintln!("well-posed {n_wp}, realizable {n_real}, G3 {g3_disagree}/{g3_total} disagreements");
    assert!(n_wp > 100 && n_real > 20, "{n_wp} {n_real}");
}

/// G4: spin sweep with non-spherical curvature: the margin varies continuously.
#[test]
fn g4_spin_sweep_is_continuous() {
    let mut rng = Rng(0x1357_2468_0000_ffff);
    let mut done = 0;
    while done < 5 {
        let pb = random_body(&mut rng);
        if !bilateral(&pb.realizability().unwrap()) {
            continue;
        }
        done += 1;
        let mut prev: Option<f64> = None;
        for i in 0..=200 {
            let w = -4.0 + 8.0 * i as f64 / 200.0;
            let r = pb.clone().with_spin(w).realizability().unwrap();
            if !bilateral(&r) {
                prev = None;
                continue;
            }
            let m = r.rs.margin.min(r.sr.margin).min(r.ss.margin);
            if let Some(p) = prev {
                assert!(
                    (m - p).abs() < 0.05 * r.accel_ref + 0.5 * (p.abs()).min(m.abs()) * 0.0 + 0.2,
                    "jump {p} → {m} at Ω_a = {w}"
                );
            }
            prev = Some(m);
        }
    }
}

/// Rotating the whole problem changes nothing; swapping the contacts swaps RS and SR.
#[test]
fn frame_invariance_and_contact_swap() {
    let mut rng = Rng(0x0f0f_0f0f_1234_4321);
    let nrep: usize = std::env::var("TRIBO_STRESS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    for _ in 0..nrep {
        let pb = random_body(&mut rng);
        let rep = pb.realizability().unwrap();
        let q = rng.rot();
        let rot = rotated(&pb, q).realizability().unwrap();
        assert_eq!(rep.status, rot.status);
        assert_eq!(rep.transitions, rot.transitions);
        assert!((rep.margin - rot.margin).abs() < 1e-9 * rep.accel_ref);
        assert_eq!(rep.ss.directions.len(), rot.ss.directions.len());
        for (a, b) in rep.ss.directions.iter().zip(rot.ss.directions.iter()) {
            assert!((a.r - b.r).abs() < 1e-8 * rep.accel_ref);
            assert!((a.d - b.d).length() < 1e-7);
            assert!((q * a.slip_dirs[0] - b.slip_dirs[0]).length() < 1e-7);
            assert_eq!(a.angular_type, b.angular_type);
        }
        let mut sw = pb.clone();
        sw.contacts.swap(0, 1);
        let s = sw.realizability().unwrap();
        let same = |a: f64, b: f64| a == b || (a - b).abs() < 1e-9 * rep.accel_ref;
        assert!(same(s.rs.margin, rep.sr.margin) && same(s.sr.margin, rep.rs.margin));
        assert!(same(s.lift[0].margin, rep.lift[1].margin) && same(s.lift[1].margin, rep.lift[0].margin));
        if s.ss.directions.len() != rep.ss.directions.len() {
            eprintln!(
                "ORIG {:#?}\nSWAP {:#?}\n{:?} {:?}\nDENSE {:?}\nDENSE SWAP {:?}",
                rep.ss.directions,
                s.ss.directions,
                rep.ss.boundary_roots,
                s.ss.boundary_roots,
                dense_roots(&pb, 6000),
                dense_roots(&sw, 6000)
            );
        }
        assert_eq!(s.ss.directions.len(), rep.ss.directions.len());
        let mut ra: Vec<f64> = rep.ss.directions.iter().map(|x| x.r).collect();
        let mut rb: Vec<f64> = s.ss.directions.iter().map(|x| x.r).collect();
        ra.sort_by(|a, b| a.partial_cmp(b).unwrap());
        rb.sort_by(|a, b| a.partial_cmp(b).unwrap());
        for (a, b) in ra.iter().zip(rb.iter()) {
            assert!((a - b).abs() < 1e-8 * rep.accel_ref);
        }
        assert_eq!(s.realizable, rep.realizable);
        for t in &rep.transitions {
            let swapped = match t {
                Transition::RS => Transition::SR,
                Transition::SR => Transition::RS,
                Transition::SS => Transition::SS,
                Transition::LiftPlus => Transition::LiftMinus,
                Transition::LiftMinus => Transition::LiftPlus,
            };
            assert!(s.transitions.contains(&swapped));
        }
    }
}

/// Margin sign and status agree; no NaN leaks; an ill-posed (Painlevé-like) case is flagged.
#[test]
fn report_consistency_and_ill_posed() {
    let mut rng = Rng(0x9999_1111_2222_3333);
    for _ in 0..200 {
        let pb = random_body(&mut rng);
        let r = pb.realizability().unwrap();
        assert!(r.margin.is_finite());
        match r.status {
            Status::Realizable => assert!(r.realizable && r.margin > 0.0 && r.transitions.is_empty()),
            Status::NotRealizable => assert!(!r.realizable && r.margin < 0.0 && !r.transitions.is_empty()),
            Status::Marginal => assert!(!r.realizable),
            Status::IllPosed => assert!(!r.realizable && !r.ill_posed_reasons.is_empty()),
        }
    }
    // Ball in a trough with μ > 1: N⁺ < 0 in the SS limits near the pole u_a > 0
    // (docs/realizability.md §4.5): those directions are not modes; a verdict is still given.
    let t = tribo_lab::realizability::trough::Trough::new(1.2, 0.4);
    let r = t.problem([0.0, 0.0, 0.0]).realizability().unwrap();
    assert!(r.well_posed && r.status == Status::Realizable, "{:?}", r.status);
    assert!(!r.ss.excluded.is_empty());
    // m_z ≥ 1 would need N⁺ = G(1 − m_z) < 0 in the SR limit: SR is not a mode (no SR
    // transition), the verdict comes from the other modes (SS at μ = 0.3).
    let t = tribo_lab::realizability::trough::Trough::new(0.3, 0.4);
    let r = t.problem([0.0, 0.0, 1.05]).realizability().unwrap();
    assert!(r.well_posed && r.status == Status::NotRealizable);
    assert_eq!(r.sr.mode, [false, false]);
    assert_eq!(r.transitions, vec![Transition::SS]);
}

/// Extreme but valid inputs (μ = 0, huge/tiny scales, strong spin, pulling loads) never panic
/// and never leak NaN: either an error or a report with a finite margin.
#[test]
fn fuzz_no_panic_no_nan() {
    let mut rng = Rng(0xabad_1dea_0000_0001);
    for i in 0..600 {
        let mut pb = random_body(&mut rng);
        let scale = 10f64.powf(rng.range(-6.0, 6.0));
        pb.mass *= scale;
        pb.inertia_world *= scale * 10f64.powf(rng.range(-3.0, 3.0));
        pb.applied_force = rng.unit() * (pb.mass * 10f64.powf(rng.range(-3.0, 4.0)));
        pb.applied_torque = rng.unit() * (pb.mass * 10f64.powf(rng.range(-3.0, 4.0)));
        pb.spin = rng.range(-50.0, 50.0);
        if i % 5 == 0 {
            pb.contacts[0].mu = 0.0;
        }
        if i % 7 == 0 {
            pb.contacts[1].mu = 0.0;
            pb.contacts[0].mu = 0.0;
        }
        match pb.realizability() {
            Ok(r) => {
                assert!(r.margin.is_finite(), "{pb:?} {:?} {:?} {:?} {:?}", r.lift, r.rs, r.sr, r.ss);
                for d in &r.ss.directions {
                    assert!(d.r.is_finite() && d.d.is_finite());
                }
                assert!(r.rs.margin.is_finite() || !r.well_posed || r.rs.mode == [false, false]);
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

/// Frictionless contacts: the slipping field is smooth, F* is the same for every direction, so
/// the limit directions are ±F*/‖F*‖ with R = ±‖F*‖ and two-point rolling is not realizable
/// under a load that accelerates the contact points.
#[test]
fn frictionless_limit_directions() {
    let mut rng = Rng(0x5555_aaaa_5555_aaaa);
    for _ in 0..20 {
        let mut pb = random_body(&mut rng);
        pb.contacts[0].mu = 0.0;
        pb.contacts[1].mu = 0.0;
        let r = pb.realizability().unwrap();
        if !r.well_posed {
            continue;
        }
        let (f, _) = pb.ss_limit_field(rng.unit()).unwrap().unwrap();
        let (f2, _) = pb.ss_limit_field(rng.unit()).unwrap().unwrap();
        assert!((f - f2).length() < 1e-9 * r.accel_ref);
        assert_eq!(r.ss.directions.len(), 2);
        assert!((r.ss.directions[0].r - f.length()).abs() < 1e-9 * r.accel_ref);
        assert!(!r.realizable && r.transitions.contains(&Transition::SS));
    }
}

//! Ball in a right-angle trough (\[004\] §6, docs/realizability.md §4 and §7.2): the generic two-contact method
//! (built through `Trough::problem`, i.e. the general API) against the paper's closed forms
//! and the numbers of the tables of the model notes.

use std::f64::consts::{PI, SQRT_2};
use tribo::realizability::Status;
use tribo::realizability::{Transition, TwoContactProblem};
use tribo::DVec3;
use tribo_lab::realizability::trough::{max_acceleration, mz1, mz2, mz3, to_paper_coords, Trough};

const G: f64 = 9.81;

mod common;
use common::Rng;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

fn report(t: &Trough, m: [f64; 3]) -> tribo::realizability::Report {
    t.problem(m).realizability().expect("valid trough problem")
}

/// B1: geometry of (004:69) with the corrected c± = √2.
#[test]
fn b1_geometry() {
    let r = report(&Trough::new(0.3, 0.4), [0.2, 0.1, 0.3]);
    let g = r.geometry;
    let a = DVec3::new(1.0, -1.0, 0.0) / SQRT_2;
    assert!((g.a - a).length() < 1e-14);
    assert!((g.t1[0] - DVec3::Z).length() < 1e-14 && (g.t1[1] - DVec3::Z).length() < 1e-14);
    assert!((g.t2[0] - DVec3::X).length() < 1e-14 && (g.t2[1] + DVec3::Y).length() < 1e-14);
    assert!(close(g.c[0], SQRT_2, 1e-14) && close(g.c[1], SQRT_2, 1e-14));
}

/// B2: two-point rolling acceleration (004:78) `v̇ = g(m_x − m_y)/(√2(1+2j))`; model-notes value
/// 0.385373195746668 m/s² for m = (0.2, 0.1, 0.3); `Ω̇ = √2 (v̇/r) a`; the force family is
/// `F± ± τ a` (null direction of the rolling system).
#[test]
fn b2_two_point_rolling() {
    let t = Trough::new(0.3, 0.4);
    let m = [0.2, 0.1, 0.3];
    let r = report(&t, m);
    let vdot = r.rr.acc_com.z;
    assert!(close(vdot, 0.385373195746668, 1e-9), "{vdot}");
    assert!(close(vdot, t.rr_acceleration(m), 1e-12));
    assert!(r.rr.acc_com.x.abs() < 1e-12 && r.rr.acc_com.y.abs() < 1e-12);
    let expected_w = r.geometry.a * (SQRT_2 * vdot / t.radius);
    assert!((r.rr.ang_acc - expected_w).length() < 1e-12);
    assert!(r.rr.residual < 1e-12);
    // T1± along e_z (docs/realizability.md §4.3, in units of G): [(1+j)m_x + j m_y]/(1+2j), −[(1+j)m_y + j m_x]/(1+2j).
    let gg = t.big_g();
    let t1p = (1.4 * 0.2 + 0.4 * 0.1) / 1.8;
    let t1m = -(1.4 * 0.1 + 0.4 * 0.2) / 1.8;
    assert!(close(r.rr.forces[0].z / gg, t1p, 1e-12));
    assert!(close(r.rr.forces[1].z / gg, t1m, 1e-12));
    // T2⁺ + T2⁻ = −M_ez/r: e_x·F⁺ − e_y·F⁻ = −G m_z.
    assert!(close(r.rr.forces[0].x - r.rr.forces[1].y, -gg * 0.3, 1e-12));
}

/// B3: RS/SR one-sided accelerations (docs/realizability.md §4.4 corrected formulas and the four spec numbers).
#[test]
fn b3_one_point_slip_limits() {
    let t = Trough::new(0.3, 0.4);
    let m = [0.2, 0.1, 0.3];
    let r = report(&t, m);
    let expect_rs = [-5.970531868389457, 11.42080992252091];
    let expect_sr = [-8.646122913144897, 0.7184457434991467];
    for i in 0..2 {
        assert!(close(r.rs.slip_acc[i], expect_rs[i], 1e-9), "{:?}", r.rs.slip_acc);
        assert!(close(r.sr.slip_acc[i], expect_sr[i], 1e-9), "{:?}", r.sr.slip_acc);
    }
    let gg = t.big_g();
    for i in 0..2 {
        // RS: N⁺ = G, N⁻ = G(1 + m_z); SR: N⁻ = G, N⁺ = G(1 − m_z).
        assert!(close(r.rs.normal_rolling[i], gg, 1e-12));
        assert!(close(r.rs.normal_slipping[i], gg * 1.3, 1e-12));
        assert!(close(r.sr.normal_rolling[i], gg, 1e-12));
        assert!(close(r.sr.normal_slipping[i], gg * 0.7, 1e-12));
    }
    // Closed forms at random loads and parameters.
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200 {
        let tt = Trough::new(rng.range(0.05, 0.9), rng.range(0.1, 1.0));
        let m = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.9, 0.9)];
        let r = report(&tt, m);
        for (i, s) in [1.0, -1.0].into_iter().enumerate() {
            assert!(close(r.rs.slip_acc[i], tt.rs_slip_acc(m, s), 1e-9));
            assert!(close(r.sr.slip_acc[i], tt.sr_slip_acc(m, s), 1e-9));
        }
        assert_eq!(r.rs.attracting, tt.rs_ok(m));
        assert_eq!(r.sr.attracting, tt.sr_ok(m));
    }
}

/// B4: the generic SS limit field equals (004:85)–(004:86) (in `(u1⁺, u1⁻, u2)`, `u2 = √2 u_a`).
#[test]
fn b4_ss_limit_field() {
    let mut rng = Rng(0xdead_beef_1234_5678);
    for _ in 0..300 {
        let t = Trough::new(rng.range(0.05, 0.9), rng.range(0.1, 1.0))
            .with_mass_radius(rng.range(0.1, 5.0), rng.range(0.05, 2.0));
        let m = [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-0.9, 0.9)];
        let pb = t.problem(m);
        let d = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize();
        let (f, n) = pb.ss_limit_field(d).unwrap().unwrap();
        let (phi_p, phi_m) = ((SQRT_2 * d.z).atan2(d.x), (SQRT_2 * d.z).atan2(d.y));
        let (fp, np) = t.ss_field(m, phi_p, phi_m);
        let scale = t.g * (1.0 + 1.0 / t.j);
        assert!((f.x - fp[0]).abs() < 1e-11 * scale);
        assert!((f.y - fp[1]).abs() < 1e-11 * scale);
        assert!((SQRT_2 * f.z - fp[2]).abs() < 1e-11 * scale);
        assert!(close(n[0], np[0], 1e-11) && close(n[1], np[1], 1e-11));
    }
}

struct Row5 {
    m: [f64; 3],
    rs: bool,
    sr: bool,
    dirs: &'static [([f64; 3], f64)],
    realizable: bool,
}

/// B5: the limit-direction table of docs/realizability.md §7.2 (directions in `(u1⁺, u1⁻, u2)`, `R̃ = R√2/g`).
#[test]
fn b5_limit_direction_table() {
    let rows = [
        Row5 {
            m: [0.2, 0.1, 0.3],
            rs: true,
            sr: true,
            dirs: &[
                ([-0.98913, 0.064314, 0.132235], -0.118206),
                ([0.46025, -0.054958, -0.886087], -2.324521),
            ],
            realizable: true,
        },
        Row5 {
            m: [-0.3, 0.2, -0.4],
            rs: true,
            sr: true,
            dirs: &[
                ([-0.450744, -0.418402, 0.788524], -2.826577),
                ([0.569453, 0.404982, -0.715341], -0.234686),
            ],
            realizable: true,
        },
        Row5 {
            m: [0.5, -0.5, 0.2],
            rs: true,
            sr: false,
            dirs: &[
                ([-0.934769, -0.313107, 0.167841], 0.099782),
                ([0.697498, 0.650248, -0.301121], -3.664254),
            ],
            realizable: false,
        },
        Row5 {
            m: [0.0, 0.0, 0.5],
            rs: true,
            sr: true,
            dirs: &[([0.0, 0.0, 1.0], -0.126147), ([0.0, 0.0, -1.0], -2.626147)],
            realizable: true,
        },
        Row5 {
            m: [0.0, 0.0, 0.6],
            rs: true,
            sr: true,
            dirs: &[([0.0, 0.0, 1.0], 0.123853), ([0.0, 0.0, -1.0], -2.876147)],
            realizable: false,
        },
        Row5 {
            m: [0.1, 0.3, -0.2],
            rs: false,
            sr: true,
            dirs: &[
                ([-0.002162, -0.690446, 0.723381], -2.368776),
                ([0.987234, 0.083792, -0.135451], -1.713920),
                ([-0.023037, -0.957534, -0.287399], -1.527464),
            ],
            realizable: false,
        },
    ];
    let t = Trough::new(0.3, 0.4);
    for row in rows.iter() {
        let r = report(&t, row.m);
        assert_eq!(r.rs.attracting, row.rs, "{:?}", row.m);
        assert_eq!(r.sr.attracting, row.sr, "{:?}", row.m);
        assert_eq!(r.realizable, row.realizable, "{:?}", row.m);
        assert_eq!(r.ss.directions.len(), row.dirs.len(), "{:?}", row.m);
        for (d, rt) in row.dirs {
            let want = DVec3::from_array(*d);
            let found =
                r.ss.directions
                    .iter()
                    .map(|x| to_paper_coords(x.d, x.r))
                    .find(|(dp, _)| (*dp - want).length() < 2e-6);
            let (_, rp) = found.unwrap_or_else(|| panic!("direction {d:?} not found for {:?}", row.m));
            assert!((rp * SQRT_2 / G - rt).abs() < 2e-6, "{:?}: R̃ {} vs {}", row.m, rp * SQRT_2 / G, rt);
        }
    }
    // Row m = (0.5, −0.5, 0.2): angles (φ⁺, φ⁻) of the repelling direction 169.8208°, 151.8065°.
    let r = report(&t, [0.5, -0.5, 0.2]);
    assert_eq!(r.transitions, vec![Transition::SR, Transition::SS]);
    let (dp, _) = to_paper_coords(r.ss.directions[0].d, r.ss.directions[0].r);
    assert!((dp.z.atan2(dp.x).to_degrees() - 169.8208).abs() < 1e-3);
    assert!((dp.z.atan2(dp.y).to_degrees() - 151.8065).abs() < 1e-3);
    // Zero load (non-generic, m_z = 0): 6 directions, closed-form R̃ values.
    let r = report(&t, [0.0, 0.0, 0.0]);
    assert_eq!(r.ss.directions.len(), 6);
    let (mu, j) = (0.3f64, 0.4f64);
    let mut rts: Vec<f64> =
        r.ss.directions.iter().map(|x| to_paper_coords(x.d, x.r).1 * SQRT_2 / G).collect();
    rts.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let pole = -2.0 * mu / ((1.0 + mu * mu) * j);
    let arc_pp = -SQRT_2 * mu * (1.0 + 2.0 * j) / j;
    let arc_pm = -SQRT_2 * mu / j;
    let mut want = vec![pole, pole, arc_pp, arc_pp, arc_pm, arc_pm];
    want.sort_by(|a, b| a.partial_cmp(b).unwrap());
    for (a, b) in rts.iter().zip(want.iter()) {
        assert!((a - b).abs() < 1e-9, "{rts:?} vs {want:?}");
    }
    assert!(
        (pole + 1.376147).abs() < 1e-6
            && (arc_pp + 1.909188).abs() < 1e-6
            && (arc_pm + 1.060660).abs() < 1e-6
    );
}

/// B6: tetrahedron vertices (docs/realizability.md §4.4): points scaled toward (0, 0, m_z) by 0.999 pass the
/// RS/SR checks, by 1.001 fail one of them.
#[test]
fn b6_tetrahedron() {
    for (mu, j) in [(0.3, 0.4), (0.5, 2.0 / 3.0), (0.6, 0.4)] {
        let t = Trough::new(mu, j);
        let verts = [
            [2.0 * mu * (1.0 + j), -2.0 * mu * j, -1.0],
            [-2.0 * mu * (1.0 + j), 2.0 * mu * j, -1.0],
            [2.0 * mu * j, -2.0 * mu * (1.0 + j), 1.0],
            [-2.0 * mu * j, 2.0 * mu * (1.0 + j), 1.0],
        ];
        // Vertices: scaled toward the axis they lie inside both boundary planes through them
        // (RS and SR margins positive), scaled away they lie outside one of them.
        for v in verts {
            let check = |m: [f64; 3]| {
                let r = report(&t, m);
                (r.rs.margin, r.sr.margin)
            };
            let inside = [0.999 * v[0], 0.999 * v[1], v[2] * 0.999];
            let outside = [1.001 * v[0], 1.001 * v[1], v[2]];
            let (a, b) = check(inside);
            assert!(a > 0.0 && b > 0.0, "inside {inside:?}: {a} {b}");
            let (a, b) = check(outside);
            assert!(a < 0.0 || b < 0.0, "outside {outside:?}: {a} {b}");
        }
        // Lateral edges at several heights.
        for sa in [1.0, -1.0] {
            for sb in [1.0, -1.0] {
                for mz in [-0.7, -0.2, 0.0, 0.3, 0.8] {
                    let s = mu * (sa * (1.0 + mz) + sb * (1.0 - mz));
                    let dd = mu * (1.0 + 2.0 * j) * (sb * (1.0 - mz) - sa * (1.0 + mz));
                    let (mx, my) = (0.5 * (s + dd), 0.5 * (s - dd));
                    let rin = report(&t, [0.999 * mx, 0.999 * my, mz]);
                    let rout = report(&t, [1.001 * mx, 1.001 * my, mz]);
                    assert!(rin.rs.attracting && rin.sr.attracting);
                    assert!(!rout.rs.attracting && !rout.sr.attracting);
                }
            }
        }
    }
}

fn slice_corners(mu: f64, j: f64, mz: f64) -> [[f64; 2]; 4] {
    let mut out = [[0.0; 2]; 4];
    let mut k = 0;
    for sa in [1.0, -1.0] {
        for sb in [1.0, -1.0] {
            let s = mu * (sa * (1.0 + mz) + sb * (1.0 - mz));
            let dd = mu * (1.0 + 2.0 * j) * (sb * (1.0 - mz) - sa * (1.0 + mz));
            out[k] = [0.5 * (s + dd), 0.5 * (s - dd)];
            k += 1;
        }
    }
    out
}

/// B7: special torque levels (004:90): corners of the T-slice realizable iff |m_z| < m_z1;
/// planar SR faces active up to m_z2; apex (0,0,±m_z3) with the pole as repelling direction.
#[test]
fn b7_special_values() {
    // Model-notes numbers for the formulas.
    assert!(
        (mz1(0.3) - 0.1651376).abs() < 1e-7
            && (mz2(0.3) - 0.4431818).abs() < 1e-7
            && (mz3(0.3) - 0.5504587).abs() < 1e-7
    );
    assert!(
        (mz1(0.5) - 0.4).abs() < 1e-12 && (mz2(0.5) - 0.75).abs() < 1e-12 && (mz3(0.5) - 0.8).abs() < 1e-12
    );
    assert!(
        (mz1(0.6) - 0.5294118).abs() < 1e-7
            && (mz2(0.6) - 0.8571429).abs() < 1e-7
            && (mz3(0.6) - 0.8823529).abs() < 1e-7
    );
    for (mu, j) in [(0.3, 0.4), (0.5, 2.0 / 3.0), (0.6, 0.4), (0.3, 0.1)] {
        let t = Trough::new(mu, j);
        let z1 = mz1(mu);
        for sgn in [1.0, -1.0] {
            for mz in [0.0, 0.5 * z1, z1 - 2e-3] {
                for c in slice_corners(mu, j, sgn * mz) {
                    let m = [0.999 * c[0], 0.999 * c[1], sgn * mz];
                    assert!(report(&t, m).realizable, "μ={mu} j={j} corner {m:?} should be realizable");
                }
            }
            for mz in [z1 + 2e-3, 0.5 * (z1 + 1.0), 0.95] {
                for c in slice_corners(mu, j, sgn * mz) {
                    let m = [0.999 * c[0], 0.999 * c[1], sgn * mz];
                    let r = report(&t, m);
                    assert!(
                        !r.realizable && r.transitions.contains(&Transition::SS),
                        "μ={mu} j={j} corner {m:?}: {:?}",
                        r.transitions
                    );
                }
            }
        }
        // Apex: (0, 0, m_z) realizable iff |m_z| < m_z3; pole repelling with R̃ = (m_z − m_z3)/j.
        let z3 = mz3(mu);
        for sgn in [1.0, -1.0] {
            assert!(report(&t, [0.0, 0.0, sgn * (z3 - 2e-3)]).realizable);
            let r = report(&t, [0.0, 0.0, sgn * (z3 + 2e-3)]);
            assert!(!r.realizable && r.transitions == vec![Transition::SS]);
            let top = &r.ss.directions[0];
            assert!((top.d - DVec3::new(0.0, 0.0, sgn)).length() < 1e-9);
            let (_, rp) = to_paper_coords(top.d, top.r);
            assert!((rp * SQRT_2 / G - (2e-3) / j).abs() < 1e-9, "{}", rp * SQRT_2 / G);
        }
    }
    // Faces of the slice (μ = 0.3, j = 0.4): between m_z1 and m_z2 some SR-face points are
    // realizable and no RS-face point; above m_z2 no boundary point is.
    let (mu, j) = (0.3, 0.4);
    let t = Trough::new(mu, j);
    let count = |mz: f64, sr_face: bool| -> (usize, usize) {
        let c = slice_corners(mu, j, mz); // order (sa,sb) = (+,+), (+,−), (−,+), (−,−)
                                          // SR faces: sb fixed (corners sharing sb); RS faces: sa fixed.
        let faces = if sr_face { [(0, 2), (1, 3)] } else { [(0, 1), (2, 3)] };
        let mut counts = (0, 0);
        for (fi, (a, b)) in faces.into_iter().enumerate() {
            for i in 0..100 {
                let s = (i as f64 + 0.5) / 100.0; // 100 equispaced points (cell midpoints)
                let x = c[a][0] + s * (c[b][0] - c[a][0]);
                let y = c[a][1] + s * (c[b][1] - c[a][1]);
                if report(&t, [(1.0 - 1e-4) * x, (1.0 - 1e-4) * y, mz]).realizable {
                    if fi == 0 {
                        counts.0 += 1
                    } else {
                        counts.1 += 1
                    }
                }
            }
        }
        counts
    };
    let z1 = mz1(mu);
    let z2 = mz2(mu);
    for mz in [z1 + 2e-3, 0.5 * (z1 + z2), z2 - 5e-3] {
        let (a, b) = count(mz, true);
        assert!(a > 0 && b > 0, "SR faces at m_z={mz}: {a} {b}");
        // mirror: m_z < 0 with the RS faces
        let (a, b) = count(-mz, false);
        assert!(a > 0 && b > 0, "RS faces at m_z={}: {a} {b}", -mz);
    }
    // Model-notes example at m_z = m_z2 − 0.005: 16 of 100 points on each SR face, none on the RS faces.
    assert_eq!(count(z2 - 5e-3, true), (16, 16));
    assert_eq!(count(z2 - 5e-3, false), (0, 0));
    assert_eq!(count(-(z2 - 5e-3), true), (0, 0));
    for mz in [z2 + 2e-3, 0.5] {
        assert_eq!(count(mz, true), (0, 0));
        assert_eq!(count(mz, false), (0, 0));
    }
}

/// B8: maximal acceleration √2 μ g on the red edge, realizable only for |m_z| ≤ m_z1.
#[test]
fn b8_max_acceleration() {
    let (mu, j) = (0.3, 0.4);
    let t = Trough::new(mu, j);
    for (mz, ok) in [
        (0.0, true),
        (0.1, true),
        (-0.1, true),
        (0.16, true),
        (-0.16, true),
        (0.17, false),
        (-0.17, false),
        (0.2, false),
        (-0.2, false),
    ] {
        let m = [0.999 * (mu * (1.0 + 2.0 * j) - mu * mz), 0.999 * (-mu * (1.0 + 2.0 * j) - mu * mz), mz];
        let r = report(&t, m);
        assert_eq!(r.realizable, ok, "m_z = {mz}");
        assert!(close(r.rr.acc_com.z, 0.999 * max_acceleration(mu, G), 1e-12));
    }
    assert!(close(max_acceleration(mu, G), SQRT_2 * 0.3 * 9.81, 1e-15));
}

/// B9: possible but not realizable: m = (−0.124, 0.434, 0).
#[test]
fn b9_possible_not_realizable() {
    let t = Trough::new(0.3, 0.4);
    let r = report(&t, [-0.124, 0.434, 0.0]);
    assert!(!r.rs.attracting && r.sr.attracting && r.ss.margin > 0.0);
    assert_eq!(r.transitions, vec![Transition::RS]);
    assert!(close(r.rr.eta_rs, 0.558 / 0.54, 1e-9), "{}", r.rr.eta_rs);
    let (lo, hi) = r.rr.possible_interval.expect("wedge interval non-empty");
    // τ = T2⁺/G = e_x·F⁺(τ)/G, F⁺(τ) = F⁺₀ + τ a, e_x·a = 1/√2.
    let gg = t.big_g();
    let f = |tau: f64| (r.rr.forces[0].x + tau / SQRT_2) / gg;
    assert!((f(lo) + 0.154382).abs() < 1e-6, "{}", f(lo));
    assert!((f(hi) + 0.043420).abs() < 1e-6, "{}", f(hi));
}

/// The B10 oracle of docs/realizability.md §7.2, written out independently here; returns (possible, gap) where
/// gap = min over the conditions (distance-like; negative when violated).
fn oracle_possible(mu: f64, j: f64, m: [f64; 3]) -> (bool, f64) {
    let t1p = ((1.0 + j) * m[0] + j * m[1]) / (1.0 + 2.0 * j);
    let t1m = -((1.0 + j) * m[1] + j * m[0]) / (1.0 + 2.0 * j);
    let mz = m[2];
    let k = 1.0 - mu * mu;
    let dp = mu * mu * (1.0 - mz).powi(2) - k * t1p * t1p;
    let dm = mu * mu * (1.0 + mz).powi(2) - k * t1m * t1m;
    if dp < 0.0 || dm < 0.0 {
        return (false, dp.min(dm));
    }
    let ip = ((-mu * mu * (1.0 - mz) - dp.sqrt()) / k, (-mu * mu * (1.0 - mz) + dp.sqrt()) / k);
    let im = ((-mu * mu * (1.0 + mz) - dm.sqrt()) / k - mz, (-mu * mu * (1.0 + mz) + dm.sqrt()) / k - mz);
    let gap = ip.1.min(im.1) - ip.0.max(im.0);
    (gap >= 0.0, gap.min(dp).min(dm))
}

/// B10: oracle sweep: Definition-11 verdict == RS_ok ∧ SR_ok ∧ possible (2 000 random samples,
/// random μ, j); plus B8's global bound |v̇| ≤ √2 μ g on realizable samples.
#[test]
fn b10_oracle_sweep() {
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    let mut n = 0;
    let mut n_real = 0;
    while n < 2000 {
        let mu = rng.range(0.1, 0.9);
        let j = rng.range(0.1, 1.0);
        let lim = 1.5 * mu * (1.0 + 2.0 * j);
        let m = [rng.range(-lim, lim), rng.range(-lim, lim), rng.range(-1.0, 1.0)];
        let t = Trough::new(mu, j);
        let rs_d = mu * (1.0 + 2.0 * j) * (1.0 + m[2]) - (j * m[0] + (1.0 + j) * m[1]).abs();
        let sr_d = mu * (1.0 + 2.0 * j) * (1.0 - m[2]) - ((1.0 + j) * m[0] + j * m[1]).abs();
        let (poss, gap) = oracle_possible(mu, j, m);
        if rs_d.abs() < 1e-6 || sr_d.abs() < 1e-6 || gap.abs() < 1e-6 || (m[2].abs() - 1.0).abs() < 1e-6 {
            continue;
        }
        let r = report(&t, m);
        if r.status == Status::Marginal || r.margin.abs() < 1e-6 * r.accel_ref {
            continue;
        }
        n += 1;
        let oracle = rs_d > 0.0 && sr_d > 0.0 && poss;
        assert_eq!(r.realizable, oracle, "μ={mu} j={j} m={m:?}: {:?} {:?}", r.status, r.transitions);
        assert_eq!(poss, t.possible(m));
        if r.realizable {
            n_real += 1;
            assert!(r.rr.acc_com.z.abs() <= max_acceleration(mu, G) * (1.0 + 1e-12));
            assert!(r.force_based_agrees);
        }
    }
    assert!(n_real > 100, "too few realizable samples: {n_real}");
}

/// B11: symmetries (m_x, m_y, m_z) ↦ (−m_x, −m_y, m_z) and ↦ (m_y, m_x, −m_z); independence of
/// Ω_a, m and r.
#[test]
fn b11_symmetries_and_independence() {
    let mut rng = Rng(0x5eed_5eed_5eed_5eed);
    for _ in 0..150 {
        let mu = rng.range(0.1, 0.9);
        let j = rng.range(0.1, 1.0);
        let lim = 1.2 * mu * (1.0 + 2.0 * j);
        let m = [rng.range(-lim, lim), rng.range(-lim, lim), rng.range(-0.95, 0.95)];
        let t = Trough::new(mu, j);
        let base = report(&t, m);
        if base.margin.abs() < 1e-6 * base.accel_ref {
            continue;
        }
        assert_eq!(report(&t, [-m[0], -m[1], m[2]]).realizable, base.realizable);
        assert_eq!(report(&t, [m[1], m[0], -m[2]]).realizable, base.realizable);
        let t2 = t.with_mass_radius(rng.range(0.2, 4.0), rng.range(0.05, 1.5));
        let pb: TwoContactProblem = t2.problem(m).with_spin(rng.range(-8.0, 8.0));
        let r2 = pb.realizability().unwrap();
        assert_eq!(r2.realizable, base.realizable);
        assert_eq!(r2.transitions, base.transitions);
        assert!((r2.margin - base.margin).abs() < 1e-8 * base.accel_ref, "{} {}", r2.margin, base.margin);
    }
}

/// B12: single-axis torques and critical friction coefficients (docs/realizability.md §4.6, ±0.1 %).
#[test]
fn b12_single_axis_torques() {
    let (mu, j) = (0.3, 0.4);
    let t = Trough::new(mu, j);
    let drive = mu * (1.0 + 2.0 * j);
    assert!(report(&t, [0.999 * drive, -0.999 * drive, 0.0]).realizable);
    assert!(!report(&t, [1.001 * drive, -1.001 * drive, 0.0]).realizable);
    assert!(report(&t, [0.999 * mu, 0.999 * mu, 0.0]).realizable);
    assert!(!report(&t, [1.001 * mu, 1.001 * mu, 0.0]).realizable);
    let z3 = 2.0 * mu / (1.0 + mu * mu);
    assert!(report(&t, [0.0, 0.0, 0.999 * z3]).realizable);
    assert!(!report(&t, [0.0, 0.0, 1.001 * z3]).realizable);
    // μ_crit = (1 − √(1 − m_z²))/m_z = 2 − √3 for m_z = 0.5.
    let mu_c = 2.0 - 3f64.sqrt();
    assert!((mu_c - 0.2679492).abs() < 1e-7);
    assert!(report(&Trough::new(1.001 * mu_c, j), [0.0, 0.0, 0.5]).realizable);
    assert!(!report(&Trough::new(0.999 * mu_c, j), [0.0, 0.0, 0.5]).realizable);
}

/// The attracting/repelling boundary surface (004:87)–(004:88): at `m(φ⁺, φ⁻)` the generic limit
/// field vanishes in the direction `(φ⁺, φ⁻)`, and where that point lies inside the tetrahedron
/// the generic analysis finds that direction as a marginal root.
#[test]
fn boundary_surface_points() {
    let mut rng = Rng(0xabcdef0123456789);
    let mut inside = 0;
    for _ in 0..300 {
        let t = Trough::new(rng.range(0.1, 0.8), rng.range(0.1, 1.0));
        let upper = rng.next() < 0.5;
        let (pp, pm) = if upper {
            (rng.range(0.05, PI - 0.05), rng.range(0.05, PI - 0.05))
        } else {
            (rng.range(PI + 0.05, 2.0 * PI - 0.05), rng.range(PI + 0.05, 2.0 * PI - 0.05))
        };
        let m = t.boundary_surface(pp, pm);
        // Direction in (u1⁺, u1⁻, u2) (docs/realizability.md §3.5 parametrisation), then in (u1⁺, u1⁻, u_a).
        let s = if pp.sin() > 0.0 { 1.0 } else { -1.0 };
        let dp = DVec3::new(pm.sin() * pp.cos(), pp.sin() * pm.cos(), pp.sin() * pm.sin()) * s;
        let d = DVec3::new(dp.x, dp.y, dp.z / SQRT_2).normalize();
        let pb = t.problem(m);
        let (f, _) = pb.ss_limit_field(d).unwrap().unwrap();
        assert!(f.length() < 1e-10 * t.g, "F* = {f:?}");
        if t.rs_ok(m) && t.sr_ok(m) && m[2].abs() < 0.95 {
            inside += 1;
            let r = pb.realizability().unwrap();
            let hit = r.ss.directions.iter().any(|x| (x.d - d).length() < 1e-5 && x.r.abs() < 1e-7 * t.g);
            assert!(hit || r.status == Status::Marginal, "m={m:?} d={d:?}: {:?}", r.ss.directions);
        }
    }
    assert!(inside > 20);
}

/// Wedge margin (docs/realizability.md §3.10): positive exactly when admissible rolling forces exist (the
/// possibility oracle of B10), and for m = 0 it equals the closed form
/// `max_τ min(μ(G − τ) − |τ|, μ(G − τ) − |τ|)` = `μG` at τ = 0 (docs/realizability.md §4.3 family:
/// N⁺ = G − τ', N⁻ = G − τ', no tangential load).
#[test]
fn wedge_margin_matches_possibility() {
    let t = Trough::new(0.3, 0.4);
    let r = report(&t, [0.0, 0.0, 0.0]);
    assert!((r.rr.wedge_margin - 0.3 * t.big_g()).abs() < 1e-9 * t.big_g(), "{}", r.rr.wedge_margin);
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for _ in 0..300 {
        let mu = rng.range(0.1, 0.9);
        let j = rng.range(0.1, 1.0);
        let lim = 1.5 * mu * (1.0 + 2.0 * j);
        let m = [rng.range(-lim, lim), rng.range(-lim, lim), rng.range(-0.95, 0.95)];
        let tt = Trough::new(mu, j);
        let r = report(&tt, m);
        if r.rr.wedge_margin.abs() < 1e-6 * tt.big_g() {
            continue;
        }
        assert_eq!(r.rr.wedge_margin > 0.0, tt.possible(m), "m={m:?} μ={mu} j={j}");
        assert_eq!(r.rr.wedge_margin > 0.0, r.rr.possible_interval.is_some());
    }
}

/// μ = 1 (docs/realizability.md §3.11): in two-point slip N⁺ ∝ 1 − μ sin φ⁻ and
/// N⁻ ∝ 1 + μ sin φ⁺ vanish at the spin poles; that is a boundary case with a verdict. Zero
/// torque is realizable, with the pole limit directions at R̃ = −2μ/((1 + μ²) j) = −1/j and
/// one normal force zero there.
#[test]
fn mu_one_zero_torque_is_realizable() {
    let j = 0.4;
    let t = Trough::new(1.0, j);
    let r = report(&t, [0.0, 0.0, 0.0]);
    assert!(r.well_posed && r.status == Status::Realizable && r.realizable, "{:?}", r.status);
    assert!(r.transitions.is_empty() && r.margin > 0.0);
    let gg = t.big_g();
    for sgn in [1.0, -1.0] {
        let pole =
            r.ss.directions.iter().find(|d| (d.d - DVec3::new(0.0, 0.0, sgn)).length() < 1e-9).unwrap();
        let (_, rp) = to_paper_coords(pole.d, pole.r);
        assert!((rp * SQRT_2 / G + 1.0 / j).abs() < 1e-9, "{}", rp * SQRT_2 / G);
        // u_a > 0: N⁺ = 0, N⁻ = G; u_a < 0: N⁻ = 0, N⁺ = G.
        let (zero, full) = if sgn > 0.0 { (0, 1) } else { (1, 0) };
        assert!(pole.normal_forces[zero].abs() < 1e-9 * gg, "{:?}", pole.normal_forces);
        assert!((pole.normal_forces[full] - gg).abs() < 1e-9 * gg, "{:?}", pole.normal_forces);
    }
}

/// The special values (004:90) at μ = 1 all equal 1: m_z1 = 2μ²/(1 + μ²), m_z2 = (μ² + μ)/(2μ² −
/// μ + 1), m_z3 = 2μ/(1 + μ²). The corners of the T slice (shrunk by 1e-3) are realizable for
/// |m_z| ≤ m_z1 − 2e-3, the apex (0, 0, m_z) iff |m_z| < m_z3 with the pole at R̃ = (m_z −
/// m_z3)/j, and the SR faces (RS for m_z < 0) keep realizable points up to m_z2.
#[test]
fn mu_one_special_values() {
    let (mu, j) = (1.0, 0.4);
    assert_eq!((mz1(mu), mz2(mu), mz3(mu)), (1.0, 1.0, 1.0));
    let t = Trough::new(mu, j);
    for sgn in [1.0, -1.0] {
        for mz in [0.0, 0.3, 0.6, 0.9, 0.998] {
            for c in slice_corners(mu, j, sgn * mz) {
                let m = [0.999 * c[0], 0.999 * c[1], sgn * mz];
                let r = report(&t, m);
                assert!(r.realizable, "corner {m:?} should be realizable: {:?}", r.transitions);
                // The ball stays on both walls: with one wall released, the other slips (its
                // rolling friction exceeds μN there) and pulls the ball back.
                assert!(r.lift.iter().all(|l| l.separation_acc < 0.0), "{:?}", r.lift);
            }
        }
        for mz in [0.5, 0.9, 0.99, 0.998] {
            let r = report(&t, [0.0, 0.0, sgn * mz]);
            assert!(r.realizable, "apex {mz}");
            let pole =
                r.ss.directions.iter().find(|d| (d.d - DVec3::new(0.0, 0.0, sgn)).length() < 1e-9).unwrap();
            let (_, rp) = to_paper_coords(pole.d, pole.r);
            assert!((rp * SQRT_2 / G - (mz - 1.0) / j).abs() < 1e-9, "{mz}: {}", rp * SQRT_2 / G);
        }
        // Above m_z3 = 1 the apex is not realizable: the pole repels (SS) and the ball can
        // neither keep rolling on one wall (rolling friction (j + |m_z|)/(1 + j)·G > μG) nor
        // leave the other one (a slipping wall holds at most μG = G, the weight's pull).
        let r = report(&t, [0.0, 0.0, sgn * 1.002]);
        assert!(!r.realizable && r.transitions.contains(&Transition::SS), "{:?}", r.transitions);
        assert!(r.lift.iter().all(|l| l.separation_acc <= 1e-9 * r.accel_ref), "{:?}", r.lift);
    }
}

/// Verdicts are continuous in μ across 1: on a fine μ grid around 1 every load gets a verdict
/// and the verdict is the same on the whole grid. The margin is continuous for μ ≤ 1; above
/// 1 slip limit directions whose normal force passes through zero (first the spin poles) stop
/// being modes, so the margin jumps where such a direction was the binding attracting one,
/// without changing its sign (docs/realizability.md §3.11).
#[test]
fn verdicts_continuous_in_mu_across_one() {
    let loads = [
        [0.0, 0.0, 0.0],
        [0.2, 0.1, 0.3],
        [-0.3, 0.2, -0.4],
        [0.5, -0.5, 0.2],
        [1.0, -1.0, 0.5],
        [0.0, 0.0, 0.95],
        [0.1, -0.2, -0.9],
        [0.0, 0.0, 1.05],
        [2.0, 2.0, 0.0],
        [1.5, -1.0, -0.2],
    ];
    for m in loads {
        let mut prev: Option<(bool, f64)> = None;
        for i in 0..=40 {
            let mu = 0.98 + 0.04 * i as f64 / 40.0;
            let r = report(&Trough::new(mu, 0.4), m);
            assert!(r.well_posed && r.status != Status::IllPosed, "μ={mu} m={m:?}");
            assert!(r.margin.is_finite());
            if let Some((real, margin)) = prev {
                assert_eq!(real, r.realizable, "μ={mu} m={m:?}: verdict flips");
                // dμ = 0.001: the SS field changes by O(g dμ).
                if mu <= 1.0 + 1e-12 {
                    assert!((r.margin - margin).abs() < 0.05 * G, "μ={mu} m={m:?}: {margin} → {}", r.margin);
                }
            }
            prev = Some((r.realizable, r.margin));
        }
    }
}

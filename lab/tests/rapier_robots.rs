//! URDF robots (rapier3d-urdf, feature `rapier-0-36`): every `robot …` validation row passes
//! (the gripper's hold thresholds, slip accelerations and re-grip, the pinched rod's and ball's
//! torsional hold, the differential-drive robot's coasting, turning and parking; each expected number is
//! the scene's mechanics, derived in `lab/src/rapier/robots/{gripper,drive}.rs`). The loader
//! itself (`tribo_rapier::urdf`) is tested in `adapters/rapier/tests/urdf.rs`.
#![cfg(feature = "rapier-0-36")]
#[test]
fn every_robot_row_passes() {
    let rows = tribo_lab::rapier::robots::rows::validation_rows();
    // 4 (joints × dt) × (box 11 + rod 4 + ball 5) + the box at 1/1000 (6) + 3 drive
    // configurations × (coast 3 + turn 4 + park 4).
    assert_eq!(rows.len(), 4 * 20 + 6 + 3 * 11);
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| !r.pass)
        .map(|r| format!("{} | {}: expected {} measured {}", r.case, r.quantity, r.expected, r.measured))
        .collect();
    assert!(failed.is_empty(), "failed rows:\n{}", failed.join("\n"));
}

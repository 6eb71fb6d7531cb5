//! The game-step scenes (`tribo_lab::rapier::game_step`) against their closed forms at dt =
//! 1/30, 1/60, 1/144 and 1/240: every validation row passes.

use tribo_lab::rapier::game_step::validation_rows;

#[test]
fn game_step_rows_pass() {
    let rows = validation_rows();
    let failing: Vec<_> = rows.iter().filter(|r| !r.pass).collect();
    for r in &rows {
        println!(
            "{} | {} | expected {:.5} measured {:.5} {}",
            r.case,
            r.quantity,
            r.expected,
            r.measured,
            if r.pass { "ok" } else { "FAIL" }
        );
    }
    assert!(failing.is_empty(), "failing rows: {failing:#?}");
}

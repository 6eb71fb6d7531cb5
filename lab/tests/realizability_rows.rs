//! The validation rows of the realizability module all pass.
#[test]
fn validation_rows_pass() {
    let rows = tribo_lab::realizability::validation_rows();
    assert!(rows.len() >= 20, "{}", rows.len());
    for r in &rows {
        assert!(r.pass, "{} / {}: expected {} measured {}", r.case, r.quantity, r.expected, r.measured);
    }
}

//! The validation rows (used by the root `validate` example) all pass.

#[test]
fn validation_rows_pass() {
    let rows = tribo_lab::rapier::validation_rows();
    assert!(rows.len() > 40, "{} rows", rows.len());
    let failed: Vec<_> = rows.iter().filter(|r| !r.pass).collect();
    assert!(failed.is_empty(), "failing rows: {failed:#?}");
}

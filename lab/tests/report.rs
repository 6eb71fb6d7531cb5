//! The report (`validate --report DIR`): every plot the report promises is drawn, says what it
//! shows with units, and the page embeds the plots and the rows.

use tribo_lab::report;
use tribo_lab::validation::{Row, Tolerance};

#[test]
fn report_has_every_plot_with_units_and_checks() {
    let figs = report::plots::all().expect("figures draw");
    let ids: Vec<&str> = figs.iter().map(|f| f.id).collect();
    for id in [
        "t1_brick_force",
        "t1_brick_slide",
        "t2_disk",
        "t3_sphere35",
        "t4_spin_down",
        "contensou_eps",
        "contensou_accuracy_q",
        "contensou_accuracy_t",
        "trough_slice",
        "rapier_ball_distance",
        "rapier_ball_speed",
        "rapier_spin",
        "rapier_brick",
    ] {
        assert!(ids.contains(&id), "missing plot {id}");
    }
    for f in &figs {
        assert!(f.svg.contains("<svg") && f.svg.len() > 5_000, "{}: empty SVG", f.id);
        // Axis labels carry units in brackets; the caption names the checked rows.
        assert!(f.svg.contains('['), "{}: no unit on the axes", f.id);
        assert!(f.caption.contains("row"), "{}: caption names no checked row", f.id);
    }
    let rows = vec![("s".to_string(), vec![Row::new("c", "q [m]", 1.0, 1.0, Tolerance::Abs(0.0), "src")])];
    let page = report::html(&rows, &figs);
    assert_eq!(page.matches("<svg").count(), figs.len());
    assert!(page.contains("1 validation rows, 1 passed, 0 failed"));
}

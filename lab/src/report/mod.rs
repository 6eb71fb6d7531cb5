//! The validation report: `validate --report DIR` writes `DIR/index.html`, one self-contained
//! page with the validation tables and SVG plots of the experiments' time histories (drawn with
//! `plotters`' SVG backend), plus each plot as `DIR/<id>.svg`.

pub mod chart;
pub mod plots;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::validation::Row;
use plots::Figure;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Builds the page from titled row sections and figures.
pub fn html(sections: &[(String, Vec<Row>)], figures: &[Figure]) -> String {
    let total: usize = sections.iter().map(|s| s.1.len()).sum();
    let passed: usize = sections.iter().map(|s| s.1.iter().filter(|r| r.pass).count()).sum();
    let mut h = String::new();
    h.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>tribo validation report</title><style>\
         body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em;color:#222}\
         figure{margin:1.5em 0;border-top:1px solid #ccc;padding-top:.5em}\
         figcaption{font-size:.9em;max-width:760px}\
         table{border-collapse:collapse;font-size:.8em;margin-bottom:1.5em}\
         td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}\
         td.n{text-align:right;font-family:monospace}.fail{background:#fdd}\
         </style></head><body>\n<h1>tribo validation report</h1>\n",
    );
    let _ = writeln!(
        h,
        "<p>{total} validation rows, {passed} passed, {} failed. The plots re-run the experiments \
         of the rows they name; the tables below them list every row.</p>",
        total - passed
    );
    h.push_str("<h2>Plots</h2>\n<ul>");
    for f in figures {
        let _ = write!(h, "<li><a href=\"#{}\">{}</a></li>", f.id, esc(&f.title));
    }
    h.push_str("</ul>\n");
    for f in figures {
        let svg = f.svg.find("<svg").map_or(f.svg.as_str(), |i| &f.svg[i..]);
        let _ = writeln!(
            h,
            "<figure id=\"{}\"><h3>{}</h3>{}<figcaption>{}</figcaption></figure>",
            f.id,
            esc(&f.title),
            svg,
            esc(&f.caption)
        );
    }
    h.push_str("<h2>Validation rows</h2>\n");
    for (name, rows) in sections {
        let _ = writeln!(
            h,
            "<h3>{}</h3>\n<table><tr><th>case</th><th>quantity</th><th>expected</th><th>measured</th>\
             <th>tol</th><th>pass</th><th>source</th></tr>",
            esc(name)
        );
        for r in rows {
            let _ = writeln!(
                h,
                "<tr{}><td>{}</td><td>{}</td><td class=\"n\">{:.7}</td><td class=\"n\">{:.7}</td>\
                 <td>{}</td><td>{}</td><td>{}</td></tr>",
                if r.pass { "" } else { " class=\"fail\"" },
                esc(&r.case),
                esc(&r.quantity),
                r.expected,
                r.measured,
                esc(&r.tolerance.to_string()),
                if r.pass { "ok" } else { "FAIL" },
                esc(&r.source)
            );
        }
        h.push_str("</table>\n");
    }
    h.push_str("</body></html>\n");
    h
}

/// Draws every figure and writes `dir/index.html` and `dir/<id>.svg`; returns the page's path.
pub fn write(dir: &Path, sections: &[(String, Vec<Row>)]) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let figures = plots::all()?;
    std::fs::create_dir_all(dir)?;
    for f in &figures {
        std::fs::write(dir.join(format!("{}.svg", f.id)), &f.svg)?;
    }
    let path = dir.join("index.html");
    std::fs::write(&path, html(sections, &figures))?;
    Ok(path)
}

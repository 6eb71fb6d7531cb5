//! Finite-patch Contensou friction from the command line.
//!
//! ```text
//! cargo run --release -p tribo_lab --bin contensou -- --stdin < lines.txt
//! ```
//!
//! Each input line is `PRESSURE R MU P UX UY W [MODEL]` (PRESSURE: uniform|hertz; R patch
//! radius in m; MU friction coefficient; P normal force in N; UX UY slip velocity in m/s;
//! W spin in rad/s; MODEL: exact (default) | linear | harmonic1..harmonic6 | pade | pade:M:B |
//! smooth | smooth:EPS:ETA). Each output line is `{"qx":..,"qy":..,"tz":..}`, the force (N)
//! and torque (N·m) on the body; malformed lines give `{"error":"...","line":n}` and the run
//! goes on. Without `--stdin` a short demonstration is printed.

use std::io::{BufRead, Write};
use tribo_lab::contensou::cli::eval_line_numbered;

fn main() {
    let stdin_mode = std::env::args().skip(1).any(|a| a == "--stdin");
    let out = std::io::stdout();
    let mut out = out.lock();
    if stdin_mode {
        let stdin = std::io::stdin();
        for (i, line) in stdin.lock().lines().enumerate() {
            let line = match line {
                Ok(l) => l,
                Err(e) => {
                    let _ = writeln!(
                        out,
                        "{{\"error\":\"read error: {}\",\"line\":{}}}",
                        e.to_string().replace('"', "'"),
                        i + 1
                    );
                    break;
                }
            };
            if let Some(s) = eval_line_numbered(&line, i + 1) {
                if writeln!(out, "{s}").is_err() {
                    break;
                }
            }
        }
    } else {
        let demo = [
            "uniform 0.05 0.5 100 0.1 0 2",
            "hertz 0.001 0.3 10 0.0 0.01 10 exact",
            "uniform 0.05 0.5 100 0.1 0 2 harmonic2",
            "uniform 0.05 0.5 100 0.1 0 2 linear",
            "uniform 0.05 0.5 100 0 0 0 smooth:1e-3:1.3",
        ];
        for (i, l) in demo.iter().enumerate() {
            let _ = writeln!(out, "{l}\n  -> {}", eval_line_numbered(l, i + 1).unwrap_or_default());
        }
    }
}

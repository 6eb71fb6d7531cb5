//! Ball in a right-angle trough: realizability of two-point rolling (\[004\] §6).
//!
//! `cargo run --release -p tribo_lab --bin trough -- --stdin` reads lines `MU MX MY MZ` (friction
//! coefficient and dimensionless torques `m = √2 M/(m g r)`) and prints one JSON object per
//! line: `{"realizable":bool,"transitions":[...],"margin":x}` (margin in units of g), or
//! `{"error":"...","line":n}` for a malformed line. `-- MU MX MY MZ` evaluates one point.

use std::io::{BufRead, Write};
use tribo_lab::realizability::cli::eval_trough_line;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() == 1 && args[0] == "--stdin" {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        for (i, line) in stdin.lock().lines().enumerate() {
            let text = match line {
                Ok(t) => eval_trough_line(&t, i + 1),
                Err(e) => {
                    serde_json::json!({ "error": format!("unreadable line: {e}"), "line": i + 1 }).to_string()
                }
            };
            if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
                return;
            }
        }
    } else if args.len() == 4 {
        println!("{}", eval_trough_line(&args.join(" "), 1));
    } else {
        eprintln!("usage: trough --stdin   (lines `MU MX MY MZ`)\n       trough MU MX MY MZ");
        std::process::exit(2);
    }
}

//! The READMEs' robot section (the workspace README and this crate's) shows the code of
//! `examples/urdf_robot.rs`, which CI builds and runs: every paragraph of the section's Rust
//! block is in the example as written.
#![cfg(feature = "urdf")]

use std::path::Path;

/// The first ```rust block after the heading that starts with `heading` in the file at `path`.
fn robot_block(path: &Path, heading: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let section = text.find(heading).unwrap_or_else(|| panic!("{}: no heading {heading}", path.display()));
    let rest = &text[section..];
    let start = rest.find("```rust").expect("a rust block");
    let body = &rest[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").expect("the block's end")].to_string()
}

fn check(readme: &Path, heading: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/urdf_robot.rs")).unwrap();
    let block = robot_block(readme, heading);
    let paragraphs: Vec<&str> = block.split("\n\n").map(str::trim).filter(|p| !p.is_empty()).collect();
    assert!(paragraphs.len() >= 3, "{}: {block}", readme.display());
    for p in paragraphs {
        assert!(
            example.contains(p),
            "{}: this part is not in examples/urdf_robot.rs:\n{p}",
            readme.display()
        );
    }
}

#[test]
fn the_readme_robot_sections_are_the_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    check(&root.join("README.md"), "## Robots from URDF files");
    check(&root.join("../../README.md"), "### Robots from URDF files");
}

//! Rendered test of the `showcase` example: renders 6 simulated seconds in a window (Xvfb and a
//! software Vulkan driver on CI), saves the screenshot as PNG, and checks that the picture is
//! the scene and shows the physics:
//!
//! * the picture is not blank: many distinct colours, luminance spread;
//! * the tribo ball (magenta, unlit) is found in the picture where the analytic stop
//!   `v0²/(2a)` projects (within 2 % of the distance in pixels), and its simulated position
//!   matches the analytic stop within 3 %;
//! * the stock ball (yellow, unlit) is found further along its lane than the tribo ball;
//! * the simulated pool balls (struck at 1 m/s without spin and with topspin, 1/60 s steps)
//!   are where the closed form has them after 6 s, within 1 % of the stun shot's 2.10 m stop,
//!   and the stock pool balls roll on.
//!
//! `harness = false`: winit must own the main thread. Needs the `showcase` feature.
//! The screenshot path is printed (`SHOWCASE_PNG` overrides it).

#[allow(dead_code)]
#[path = "../examples/showcase.rs"]
mod showcase;

use std::path::PathBuf;

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, Image, ImageSampler, ImageType};

fn field(info: &str, key: &str) -> Vec<f32> {
    info.lines()
        .find_map(|l| l.strip_prefix(key).filter(|r| r.starts_with(' ')))
        .unwrap_or_else(|| panic!("{key} missing in the capture info:\n{info}"))
        .split_whitespace()
        .map(|v| v.parse().expect("number"))
        .collect()
}

/// Centroid and count of the pixels within `tol` (per channel) of `rgb`.
fn find(px: &[u8], w: usize, rgb: [u8; 3], tol: i32) -> Option<([f32; 2], usize)> {
    let (mut sx, mut sy, mut n) = (0.0f64, 0.0f64, 0usize);
    for (i, p) in px.chunks_exact(4).enumerate() {
        if (0..3).all(|c| (p[c] as i32 - rgb[c] as i32).abs() <= tol) {
            sx += (i % w) as f64;
            sy += (i / w) as f64;
            n += 1;
        }
    }
    (n > 0).then(|| ([(sx / n as f64) as f32, (sy / n as f64) as f32], n))
}

fn main() {
    let path = std::env::var_os("SHOWCASE_PNG")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("showcase.png"));
    let _ = std::fs::remove_file(&path);
    let capture = showcase::Capture { path: path.clone(), frames: (6.0 / showcase::DT).round() as u32 };
    let exit = showcase::app(Some(capture)).run();
    assert!(exit.is_success(), "showcase app exited with {exit:?}");
    println!("showcase screenshot: {}", path.display());

    let mut side = path.clone().into_os_string();
    side.push(".txt");
    let info = std::fs::read_to_string(&side).expect("capture info written");
    let bytes = std::fs::read(&path).expect("screenshot saved");
    let img = Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::default(),
    )
    .expect("a PNG")
    .convert(bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb)
    .expect("RGBA8");
    let (w, h) = (img.width() as usize, img.height() as usize);
    let px = img.data.as_ref().expect("pixels");
    assert_eq!(px.len(), w * h * 4);
    println!("picture {w} × {h}");

    // 1. The picture is a scene, not a blank or uniform frame.
    let mut colours = std::collections::HashSet::new();
    let lum: Vec<f64> = px
        .chunks_exact(4)
        .map(|p| {
            colours.insert([p[0] >> 3, p[1] >> 3, p[2] >> 3]);
            0.2126 * p[0] as f64 + 0.7152 * p[1] as f64 + 0.0722 * p[2] as f64
        })
        .collect();
    let mean = lum.iter().sum::<f64>() / lum.len() as f64;
    let sd = (lum.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / lum.len() as f64).sqrt();
    println!("distinct colours (5-bit) {}, luminance mean {mean:.1} sd {sd:.1}", colours.len());
    assert!(colours.len() > 200, "too few colours: {}", colours.len());
    assert!(sd > 15.0, "luminance too uniform: sd {sd}");

    // 2. Physics: the simulated tribo ball stopped at the analytic distance.
    let (x_tribo, x_stop, x_stock) = (
        field(&info, "tribo_ball_x")[0],
        field(&info, "expected_stop_x")[0],
        field(&info, "stock_ball_x")[0],
    );
    println!("simulated: tribo ball {x_tribo:.3} m (analytic stop {x_stop:.3} m), stock ball {x_stock:.3} m");
    assert!((x_tribo - x_stop).abs() < 0.03 * x_stop, "tribo stop {x_tribo} vs {x_stop}");
    assert!(x_stock > x_stop + 2.0, "stock ball should roll on: {x_stock}");
    // The pool balls at the 1/60 step, struck at 1 m/s: tribo's where the closed form has them
    // after 6 s (the stun shot stopped at 5.8 s, the topspin shot still rolling), within 1 % of
    // the stun shot's stop; stock's further on.
    for shot in ["stun", "topspin"] {
        let (x, x_exp, x_stock) = (
            field(&info, &format!("tribo_pool_{shot}_x"))[0],
            field(&info, &format!("tribo_pool_{shot}_expected_x"))[0],
            field(&info, &format!("stock_pool_{shot}_x"))[0],
        );
        println!(
            "simulated: tribo pool ball ({shot}) {x:.3} m (closed form {x_exp:.3} m), stock {x_stock:.3} m"
        );
        assert!((x - x_exp).abs() < 0.021, "tribo pool ball ({shot}) at {x} m vs {x_exp}");
        assert!(x_stock > x_exp + 1.0, "stock pool ball ({shot}) should roll on: {x_stock}");
    }

    // 3. Pixels: where the balls are drawn.
    let start = field(&info, "start_px");
    let stop = field(&info, "expected_stop_px");
    let (tribo, n_t) = find(px, w, [255, 0, 255], 40).expect("tribo ball (magenta) visible");
    let (stock, n_s) = find(px, w, [255, 217, 0], 40).expect("stock ball (yellow) visible");
    println!(
        "tribo ball at px ({:.1}, {:.1}) [{n_t} px], analytic stop projects to ({:.1}, {:.1}); stock ball at px ({:.1}, {:.1}) [{n_s} px]",
        tribo[0], tribo[1], stop[0], stop[1], stock[0], stock[1]
    );
    let lane_px = ((stop[0] - start[0]).powi(2) + (stop[1] - start[1]).powi(2)).sqrt();
    let err = ((tribo[0] - stop[0]).powi(2) + (tribo[1] - stop[1]).powi(2)).sqrt();
    assert!(n_t > 30 && n_s > 30, "balls too small: {n_t}, {n_s} px");
    assert!(
        err < 0.02 * lane_px + 3.0,
        "tribo ball drawn {err:.1} px from the analytic stop (lane {lane_px:.0} px)"
    );
    // Along the lane direction (screen projection of +x), the stock ball is further.
    let dir = [(stop[0] - start[0]) / lane_px, (stop[1] - start[1]) / lane_px];
    let along = |p: [f32; 2]| (p[0] - start[0]) * dir[0] + (p[1] - start[1]) * dir[1];
    assert!(
        along(stock) > along(tribo) + 0.5 * lane_px,
        "stock ball ({:.0} px along) should be well past the tribo ball ({:.0} px)",
        along(stock),
        along(tribo)
    );
    println!("showcase_render: 1 passed, 0 failed");
}

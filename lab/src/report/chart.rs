//! A small line/scatter chart description drawn to an SVG string with `plotters`' SVG backend
//! (no fonts or system libraries: the text is SVG text).

use plotters::prelude::*;

/// Result of drawing.
pub type DrawResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Palette: blue (tribo), orange (stock), black (analytic/expected), then others.
pub const TRIBO: RGBColor = RGBColor(31, 119, 180);
/// Stock rapier.
pub const STOCK: RGBColor = RGBColor(230, 120, 20);
/// Analytic / expected.
pub const EXPECTED: RGBColor = RGBColor(20, 20, 20);
/// Further series colours.
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(230, 120, 20),
    RGBColor(140, 86, 75),
];

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Solid line.
    Line,
    /// Dashed line (analytic and expected curves).
    Dashed,
    /// Dots.
    Dots,
}

/// One data series.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Colour.
    pub color: RGBColor,
    /// Drawing style.
    pub style: Style,
    /// Points (x, y).
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A series; long ones are thinned to at most 800 points (keeps the first and last).
    pub fn new(name: impl Into<String>, color: RGBColor, style: Style, points: Vec<(f64, f64)>) -> Self {
        let points = thin(points, 800);
        Series { name: name.into(), color, style, points }
    }
}

fn thin(p: Vec<(f64, f64)>, max: usize) -> Vec<(f64, f64)> {
    if p.len() <= max {
        return p;
    }
    let step = p.len().div_ceil(max);
    let last = *p.last().expect("non-empty");
    let mut out: Vec<_> = p.into_iter().step_by(step).collect();
    if out.last() != Some(&last) {
        out.push(last);
    }
    out
}

/// A line chart: series, vertical marks (phase switches, expected times), horizontal marks
/// (expected values) and shaded x-bands (phases).
#[derive(Clone, Debug, Default)]
pub struct Chart {
    /// Title drawn above the plot.
    pub title: String,
    /// x-axis label with unit.
    pub x_label: String,
    /// y-axis label with unit.
    pub y_label: String,
    /// Data.
    pub series: Vec<Series>,
    /// Vertical lines `(x, label, colour)`.
    pub vlines: Vec<(f64, String, RGBColor)>,
    /// Horizontal lines `(y, label, colour)`.
    pub hlines: Vec<(f64, String, RGBColor)>,
    /// Shaded x-bands `(x0, x1, label, colour)`.
    pub bands: Vec<(f64, f64, String, RGBColor)>,
    /// Fixed y range (else from the data and the marks).
    pub y_range: Option<(f64, f64)>,
    /// Fixed x range (else from the data).
    pub x_range: Option<(f64, f64)>,
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 * (1.0 + lo.abs()) {
        return (lo - 0.5 * (1.0 + lo.abs()), hi + 0.5 * (1.0 + hi.abs()));
    }
    let pad = 0.06 * (hi - lo);
    (lo - pad, hi + pad)
}

impl Chart {
    /// An empty chart.
    pub fn new(title: impl Into<String>, x_label: impl Into<String>, y_label: impl Into<String>) -> Self {
        Chart { title: title.into(), x_label: x_label.into(), y_label: y_label.into(), ..Default::default() }
    }

    /// Adds a series.
    pub fn series(mut self, s: Series) -> Self {
        self.series.push(s);
        self
    }

    /// Adds a vertical mark.
    pub fn vline(mut self, x: f64, label: impl Into<String>, c: RGBColor) -> Self {
        self.vlines.push((x, label.into(), c));
        self
    }

    /// Adds a horizontal mark.
    pub fn hline(mut self, y: f64, label: impl Into<String>, c: RGBColor) -> Self {
        self.hlines.push((y, label.into(), c));
        self
    }

    /// Adds a shaded band.
    pub fn band(mut self, x0: f64, x1: f64, label: impl Into<String>, c: RGBColor) -> Self {
        self.bands.push((x0, x1, label.into(), c));
        self
    }

    /// Draws the chart into an SVG string of `w × h` pixels.
    pub fn svg(&self, w: u32, h: u32) -> DrawResult<String> {
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, (w, h)).into_drawing_area();
            root.fill(&WHITE)?;
            let (x0, x1) = self.x_range.unwrap_or_else(|| {
                let (a, b) = range(self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
                let pad = (b - a) * 0.06 / 1.12;
                (a + pad, b - pad)
            });
            let (y0, y1) = self.y_range.unwrap_or_else(|| {
                range(
                    self.series
                        .iter()
                        .flat_map(|s| s.points.iter().filter(|p| p.0 >= x0 && p.0 <= x1).map(|p| p.1))
                        .chain(self.hlines.iter().map(|h| h.0)),
                )
            });
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.title, ("sans-serif", 16))
                .margin(12)
                .x_label_area_size(42)
                .y_label_area_size(70)
                .build_cartesian_2d(x0..x1, y0..y1)?;
            chart
                .configure_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .light_line_style(WHITE.mix(0.0))
                .draw()?;
            for (a, b, label, c) in &self.bands {
                let (a, b) = (a.max(x0), b.min(x1));
                if b > a {
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(a, y0), (b, y1)],
                        c.mix(0.12).filled(),
                    )))?;
                    chart.draw_series(std::iter::once(Text::new(
                        label.clone(),
                        (a, y1 - 0.04 * (y1 - y0)),
                        ("sans-serif", 11).into_font().color(c),
                    )))?;
                }
            }
            for (x, label, c) in &self.vlines {
                if *x >= x0 && *x <= x1 {
                    chart.draw_series(DashedLineSeries::new(
                        vec![(*x, y0), (*x, y1)],
                        4,
                        4,
                        c.stroke_width(1),
                    ))?;
                    chart.draw_series(std::iter::once(Text::new(
                        label.clone(),
                        (*x, y0 + 0.06 * (y1 - y0)),
                        ("sans-serif", 11).into_font().color(c),
                    )))?;
                }
            }
            for (y, label, c) in &self.hlines {
                chart.draw_series(DashedLineSeries::new(
                    vec![(x0, *y), (x1, *y)],
                    6,
                    4,
                    c.stroke_width(1),
                ))?;
                chart.draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (x0 + 0.55 * (x1 - x0), *y + 0.025 * (y1 - y0)),
                    ("sans-serif", 11).into_font().color(c),
                )))?;
            }
            for s in &self.series {
                let c = s.color;
                let pts = s.points.iter().copied().filter(|p| p.0 >= x0 && p.0 <= x1 && p.1.is_finite());
                let anno = match s.style {
                    Style::Line => chart.draw_series(LineSeries::new(pts, c.stroke_width(2)))?,
                    Style::Dashed => {
                        chart.draw_series(DashedLineSeries::new(pts, 8, 5, c.stroke_width(2)))?
                    }
                    Style::Dots => {
                        chart.draw_series(pts.map(|p| Circle::new(p, 3, c.filled())))?;
                        chart.draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
                    }
                };
                if !s.name.is_empty() {
                    anno.label(s.name.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(3)));
                }
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK.mix(0.4))
                .label_font(("sans-serif", 12))
                .draw()?;
            root.present()?;
        }
        Ok(buf)
    }
}

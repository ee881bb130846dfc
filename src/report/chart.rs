//! Charts as SVG text, drawn with plotters' SVG backend (its text is SVG `<text>`, so no font is
//! needed to draw and the page's font shows it).

use plotters::prelude::*;

/// One bar: its label and its stacked parts (values between 0 and 1, shares).
pub(super) struct Bar<'a> {
    pub label: &'a str,
    pub parts: Vec<f64>,
}

/// The colour of each stacked part, in order, and of its legend.
pub(super) const PALETTE: [RGBColor; 3] = [
    RGBColor(0xb2, 0x18, 0x2b),
    RGBColor(0xf4, 0xa5, 0x82),
    RGBColor(0x43, 0x93, 0xc3),
];

/// Horizontal bars of shares (0 to 1), one per row, each made of stacked parts; the axis shows
/// percent. `max` is the axis' end (at most 1).
pub(super) fn bars(bars: &[Bar<'_>], max: f64) -> String {
    let height = 40 + 22 * bars.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, height)).into_drawing_area();
        let _ = draw_bars(&root, bars, max.clamp(0.0001, 1.0));
        let _ = root.present();
    }
    svg
}

fn draw_bars(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    bars: &[Bar<'_>],
    max: f64,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    root.fill(&WHITE)?;
    let n = bars.len().max(1);
    let mut chart = ChartBuilder::on(root)
        .margin(8)
        .x_label_area_size(24)
        .y_label_area_size(200)
        .build_cartesian_2d(0f64..max, (0..n).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        // Not `max_light_lines(0)`: plotters 0.3.7 never ends computing the light lines of a
        // segmented axis then (compute_usize_key_points).
        .light_line_style(TRANSPARENT)
        .x_labels(6)
        .y_labels(n)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => bars
                .get(n - 1 - *i)
                .map_or(String::new(), |b| b.label.into()),
            _ => String::new(),
        })
        .x_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .label_style(("sans-serif", 13))
        .draw()?;
    // The first bar on top: plotters counts segments from the bottom.
    for (i, bar) in bars.iter().rev().enumerate() {
        let mut from = 0.0;
        for (k, &v) in bar.parts.iter().enumerate() {
            let to = (from + v).min(max);
            let colour = PALETTE[k % PALETTE.len()];
            let mut rect = Rectangle::new(
                [
                    (from, SegmentValue::Exact(i)),
                    (to, SegmentValue::Exact(i + 1)),
                ],
                colour.filled(),
            );
            rect.set_margin(3, 3, 0, 0);
            chart.draw_series(std::iter::once(rect))?;
            from = to;
        }
    }
    Ok(())
}

/// The CSS colour of stacked part `k`, for legends written in HTML.
pub(super) fn css_colour(k: usize) -> String {
    let RGBColor(r, g, b) = PALETTE[k % PALETTE.len()];
    format!("#{r:02x}{g:02x}{b:02x}")
}

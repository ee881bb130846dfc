//! Charts as SVG text, drawn with plotters' SVG backend (its text is SVG `<text>`, so no font is
//! needed to draw and the page's font shows it).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One bar: its label and its stacked parts (shares between 0 and 1, or counts).
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

/// What a bar chart's axis measures.
#[derive(Clone, Copy)]
enum Axis {
    /// Shares (0 to 1), shown as percent; the axis ends at 100% at most.
    Share,
    /// Counts, shown as whole numbers.
    Count,
}

/// Horizontal bars of shares (0 to 1), one per row, each made of stacked parts; the axis shows
/// percent and ends a little past the longest bar (at 100% at most).
pub(super) fn bars(bars: &[Bar<'_>]) -> String {
    draw(bars, Axis::Share)
}

/// Horizontal bars of counts, stacked as [`bars`].
pub(super) fn count_bars(bars: &[Bar<'_>]) -> String {
    draw(bars, Axis::Count)
}

fn draw(bars: &[Bar<'_>], axis: Axis) -> String {
    let longest = bars
        .iter()
        .map(|b| b.parts.iter().sum::<f64>())
        .fold(0.0, f64::max);
    let max = match axis {
        Axis::Share => (longest * 1.1).clamp(0.01, 1.0),
        Axis::Count => (longest * 1.1).max(1.0),
    };
    // Two rows at least: one bar is drawn in two segments (see `draw_bars`).
    let height = 40 + 22 * bars.len().max(2) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, height)).into_drawing_area();
        let _ = draw_bars(&root, bars, max, axis);
        let _ = root.present();
    }
    compact(&svg)
}

fn draw_bars(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    bars: &[Bar<'_>],
    max: f64,
    axis: Axis,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    root.fill(&WHITE)?;
    let n = bars.len();
    // A segmented range holds its end: 0..s-1 is s segments. One segment (0..0) draws nothing
    // in plotters 0.3.7, so a single bar gets two, the bar in the top one.
    let segments = n.max(2);
    let empty_below = segments - n;
    // Enough decimals that the axis labels differ.
    let decimals = match max {
        m if m >= 0.1 => 0,
        m if m >= 0.01 => 1,
        _ => 2,
    };
    let mut chart = ChartBuilder::on(root)
        .margin(8)
        // Room for the last axis label ("100%") to the right of the plot.
        .margin_right(20)
        .x_label_area_size(24)
        .y_label_area_size(200)
        .build_cartesian_2d(0f64..max, (0..segments - 1).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        // Not `max_light_lines(0)`: plotters 0.3.7 never ends computing the light lines of a
        // segmented axis then (compute_usize_key_points).
        .light_line_style(TRANSPARENT)
        .x_labels(6)
        .y_labels(segments)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => (i.checked_sub(empty_below))
                .and_then(|i| bars.get(n - 1 - i))
                .map_or(String::new(), |b| super::html::visible(b.label)),
            _ => String::new(),
        })
        .x_label_formatter(&|v| match axis {
            Axis::Share => format!("{:.*}%", decimals, v * 100.0),
            Axis::Count if v.fract() == 0.0 => format!("{v:.0}"),
            Axis::Count => String::new(),
        })
        .label_style(("sans-serif", 13))
        .draw()?;
    // The first bar on top: plotters counts segments from the bottom.
    for (i, bar) in bars.iter().rev().enumerate() {
        let mut from = 0.0;
        for (k, &v) in bar.parts.iter().enumerate() {
            // A part of nothing keeps its colour's place but draws no sliver.
            if v <= 0.0 {
                continue;
            }
            let to = (from + v).min(max);
            let colour = PALETTE[k % PALETTE.len()];
            let mut rect = Rectangle::new(
                [
                    (from, SegmentValue::Exact(empty_below + i)),
                    (to, SegmentValue::Exact(empty_below + i + 1)),
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

/// The legend of stacked bars: each part's name with its colour.
pub(super) fn legend<'a>(names: &[&'a str]) -> Vec<(&'a str, String)> {
    names
        .iter()
        .enumerate()
        .map(|(k, n)| (*n, css_colour(k)))
        .collect()
}

/// A line of a line chart: its value at each x (a share, or none) and its colour ([`line_colour`]);
/// its legend is the page's.
pub(super) struct Line {
    pub points: Vec<Option<f64>>,
    pub colour: usize,
}

/// The colour of line `k`.
fn line_rgb(k: usize) -> RGBColor {
    const LINES: [RGBColor; 8] = [
        RGBColor(0xb2, 0x18, 0x2b),
        RGBColor(0x21, 0x66, 0xac),
        RGBColor(0x1b, 0x9e, 0x77),
        RGBColor(0xd9, 0x5f, 0x02),
        RGBColor(0x75, 0x70, 0xb3),
        RGBColor(0xe7, 0x29, 0x8a),
        RGBColor(0x66, 0xa6, 0x1e),
        RGBColor(0x66, 0x66, 0x66),
    ];
    LINES[k % LINES.len()]
}

/// The CSS colour of line `k`, for legends written in HTML.
pub(super) fn line_colour(k: usize) -> String {
    let RGBColor(r, g, b) = line_rgb(k);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Plotters' SVG without what it repeats on every element to no effect: attributes at their
/// defaults (`opacity="1"`, `stroke-width="1"`, `fill="#000000"`), the font family (the page's
/// CSS sets it on the chart) and font sizes to 16 digits. About a third of the text.
fn compact(svg: &str) -> String {
    const DEFAULTS: [&str; 4] = [
        r#" opacity="1""#,
        r#" stroke-width="1""#,
        r##" fill="#000000""##,
        r#" font-family="sans-serif""#,
    ];
    let mut out = svg.to_string();
    for d in DEFAULTS {
        out = out.replace(d, "");
    }
    const SIZE: &str = r#"font-size=""#;
    let mut rounded = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find(SIZE) {
        let (head, tail) = rest.split_at(at + SIZE.len());
        rounded.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        match tail[..end].parse::<f64>() {
            Ok(v) => rounded.push_str(&format!("{}", (v * 10.0).round() / 10.0)),
            Err(_) => rounded.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    rounded.push_str(rest);
    rounded
}

/// A day marked on a timeline: a grey vertical line with its label at the top.
pub(super) struct Mark<'a> {
    /// Days since 1970.
    pub day: f64,
    pub label: &'a str,
}

/// Lines of shares over time: crawl `i` at `xs[i]` (days since 1970, ascending), its value in
/// each line marked by a dot; a line joins only consecutive crawls of one collection
/// (`collections[i]`, none: a crawl compared with no other), never crawls of different kinds.
/// The x axis is labelled at the crawls (`labels`), leaving out a label too close to the one
/// before it; `marks` are drawn where they fall between the first and the last crawl.
pub(super) fn timeline(
    xs: &[f64],
    labels: &[String],
    collections: &[Option<usize>],
    lines: &[Line],
    marks: &[Mark<'_>],
) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 320)).into_drawing_area();
        let _ = draw_timeline(&root, xs, labels, collections, lines, marks);
        let _ = root.present();
    }
    compact(&svg)
}

fn draw_timeline(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    xs: &[f64],
    labels: &[String],
    collections: &[Option<usize>],
    lines: &[Line],
    marks: &[Mark<'_>],
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    root.fill(&WHITE)?;
    let max = (lines.iter())
        .flat_map(|l| l.points.iter().flatten())
        .fold(0.0f64, |a, &b| a.max(b));
    let top = (max * 1.15).clamp(0.01, 1.0);
    let first = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let last = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (first, last) = if xs.is_empty() {
        (0.0, 0.0)
    } else {
        (first, last)
    };
    // A margin on both sides, at least 30 days: dots are not drawn on the axis.
    let pad = ((last - first) * 0.06).max(30.0);
    // Labels from left to right, each at least an eighth of the axis from the one before.
    let mut sorted: Vec<f64> = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut kept: Vec<f64> = Vec::new();
    for x in sorted {
        if kept
            .last()
            .is_none_or(|&k| x - k > (last - first + 2.0 * pad) * 0.12)
        {
            kept.push(x);
        }
    }
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(28)
        .y_label_area_size(48)
        .build_cartesian_2d(first - pad..last + pad, 0f64..top)?;
    // The x axis is labelled at the crawls, not at round numbers: no mesh labels (plotters'
    // key points cannot be bound on an f64 axis and still be formatted), the labels drawn below
    // the axis where each crawl is.
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(0)
        .y_labels(6)
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .label_style(("sans-serif", 13))
        .draw()?;
    let style =
        TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    for (x, label) in xs.iter().zip(labels) {
        if !kept.contains(x) {
            continue;
        }
        let (px, py) = chart.backend_coord(&(*x, 0.0));
        let label = super::html::visible(label);
        root.draw(&Text::new(label, (px, py + 6), style.clone()))?;
        root.draw(&PathElement::new(vec![(px, py), (px, py + 4)], BLACK))?;
    }
    let grey = RGBColor(0x88, 0x88, 0x88);
    let mark_style =
        TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
    for mark in marks.iter().filter(|m| first < m.day && m.day < last) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(mark.day, 0.0), (mark.day, top)],
            grey.stroke_width(1),
        )))?;
        let (px, py) = chart.backend_coord(&(mark.day, top));
        let label = super::html::visible(mark.label);
        root.draw(&Text::new(
            label,
            (px + 4, py + 2),
            mark_style.clone().color(&grey),
        ))?;
    }
    for line in lines {
        let colour = line_rgb(line.colour);
        let dots = (xs.iter().zip(&line.points)).filter_map(|(&x, p)| p.map(|y| (x, y)));
        let mut by_collection: std::collections::BTreeMap<usize, Vec<(f64, f64)>> =
            Default::default();
        for (i, p) in line.points.iter().enumerate() {
            if let (Some(c), Some(y)) = (collections[i], p) {
                by_collection.entry(c).or_default().push((xs[i], *y));
            }
        }
        for run in by_collection.into_values().filter(|r| r.len() >= 2) {
            chart.draw_series(LineSeries::new(run, colour.stroke_width(2)))?;
        }
        // Each line's dots a little apart from the others', so that equal shares (every
        // agent blocked only through `*`) show every colour, not the last one drawn.
        let dodge = (line.colour as i32 % 8 - 3) * 3;
        chart.draw_series(
            dots.map(|p| EmptyElement::at(p) + Circle::new((dodge, 0), 4, colour.filled())),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(svg: &str, colour: &str) -> usize {
        svg.matches(&format!("fill=\"{colour}\"")).count()
    }

    #[test]
    fn one_bar_is_drawn_with_its_label() {
        let svg = bars(&[Bar {
            label: "revisit",
            parts: vec![1.0],
        }]);
        assert_eq!(drawn(&svg, "#B2182B"), 1, "{svg}");
        assert!(svg.contains("revisit"), "{svg}");
    }

    #[test]
    fn control_and_bidi_characters_of_a_label_never_reach_the_svg() {
        let svg = bars(&[Bar {
            label: "evil\u{202E}gnp.exe\u{0007}\u{2066}bot",
            parts: vec![0.5],
        }]);
        assert!(
            !svg.contains('\u{202E}') && !svg.contains('\u{0007}'),
            "{svg}"
        );
        assert!(!svg.contains('\u{2066}'));
        assert!(
            svg.contains("evil\u{FFFD}gnp.exe\u{FFFD}\u{FFFD}bot"),
            "{svg}"
        );
    }

    /// The text of every `<text>` element.
    fn texts(svg: &str) -> Vec<&str> {
        (svg.split("<text").skip(1))
            .map(|t| t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()].trim())
            .collect()
    }

    #[test]
    fn small_shares_get_axis_labels_that_differ() {
        let svg = bars(&[Bar {
            label: "a",
            parts: vec![0.003],
        }]);
        let ticks: Vec<&str> = texts(&svg)
            .into_iter()
            .filter(|t| t.ends_with('%'))
            .collect();
        assert!(ticks.len() >= 3, "{ticks:?}");
        let distinct: std::collections::BTreeSet<&&str> = ticks.iter().collect();
        assert_eq!(distinct.len(), ticks.len(), "{ticks:?}");
    }
}

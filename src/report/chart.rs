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
    let height = 40 + 22 * bars.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, height)).into_drawing_area();
        let _ = draw_bars(&root, bars, max, axis);
        let _ = root.present();
    }
    compact(&svg)
}

/// Rows on a plain numeric y axis (row `i` from the top fills `n - i - 1 .. n - i`), labelled
/// by hand: plotters' segmented axis cannot hold one row (0..0 draws nothing in 0.3.7, so one
/// bar came with an empty second row).
fn draw_bars(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    bars: &[Bar<'_>],
    max: f64,
    axis: Axis,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    root.fill(&WHITE)?;
    let n = bars.len().max(1) as f64;
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
        .build_cartesian_2d(0f64..max, 0f64..n)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(6)
        .y_labels(0)
        .x_label_formatter(&|v| match axis {
            Axis::Share => format!("{:.*}%", decimals, v * 100.0),
            Axis::Count if v.fract() == 0.0 => format!("{v:.0}"),
            Axis::Count => String::new(),
        })
        .label_style(("sans-serif", 13))
        .draw()?;
    let label_style =
        TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    for (i, bar) in bars.iter().enumerate() {
        let bottom = n - i as f64 - 1.0;
        let (px, py) = chart.backend_coord(&(0.0, bottom + 0.5));
        let label = super::html::visible(bar.label);
        root.draw(&Text::new(label, (px - 8, py), label_style.clone()))?;
        root.draw(&PathElement::new(vec![(px - 4, py), (px, py)], BLACK))?;
        let mut from = 0.0;
        for (k, &v) in bar.parts.iter().enumerate() {
            // A part of nothing keeps its colour's place but draws no sliver.
            if v <= 0.0 {
                continue;
            }
            let to = (from + v).min(max);
            let colour = PALETTE[k % PALETTE.len()];
            let mut rect = Rectangle::new([(from, bottom), (to, bottom + 1.0)], colour.filled());
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

/// A crawl on a timeline: its name and the day it is placed at (days since 1970).
pub(super) struct Slot<'a> {
    pub crawl: &'a str,
    pub day: f64,
}

/// The width a timeline slot takes, in pixels: room for a crawl's name and its date.
const SLOT: u32 = 124;

/// Lines of shares crawl by crawl: crawl `i` (`slots`, in date order) in the `i`-th of equal
/// slots, labelled with its name and day, its value in each line marked by a dot; a line joins
/// only consecutive crawls of one collection (`collections[i]`, none: a crawl compared with no
/// other), never crawls of different kinds. Equal slots, not a time axis: crawls a few months
/// apart in a span of years would draw their dots and labels over each other. The chart widens
/// with the crawls so that every one is labelled; `marks` are drawn between the two crawls they
/// fall between, at their place in time.
pub(super) fn timeline(
    slots: &[Slot<'_>],
    collections: &[Option<usize>],
    lines: &[Line],
    marks: &[Mark<'_>],
) -> String {
    let width = (SLOT * slots.len() as u32 + 84).max(720);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 340)).into_drawing_area();
        let _ = draw_timeline(&root, slots, collections, lines, marks);
        let _ = root.present();
    }
    // Kept at its width on screen (the page scrolls it), so that a long run of crawls keeps
    // its labels legible; printed to the page's width.
    compact(&svg).replacen("<svg ", r#"<svg class="timeline" "#, 1)
}

/// Where `day` falls on the slots: between the two crawls around it, at its place in time
/// between them; none outside the first and the last crawl.
fn slot_of_day(slots: &[Slot<'_>], day: f64) -> Option<f64> {
    let i = slots
        .windows(2)
        .position(|w| w[0].day < day && day < w[1].day)?;
    let (a, b) = (slots[i].day, slots[i + 1].day);
    Some(i as f64 + (day - a) / (b - a))
}

/// A crawl's name cut to what its slot holds.
fn slot_name(crawl: &str) -> String {
    const HOLDS: usize = 18;
    let crawl = super::html::visible(crawl);
    if crawl.chars().count() <= HOLDS {
        return crawl;
    }
    let mut cut: String = crawl.chars().take(HOLDS - 1).collect();
    cut.push('…');
    cut
}

fn draw_timeline(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    slots: &[Slot<'_>],
    collections: &[Option<usize>],
    lines: &[Line],
    marks: &[Mark<'_>],
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    root.fill(&WHITE)?;
    let max = (lines.iter())
        .flat_map(|l| l.points.iter().flatten())
        .fold(0.0f64, |a, &b| a.max(b));
    let top = (max * 1.15).clamp(0.01, 1.0);
    let n = slots.len().max(1) as f64;
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(44)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5..n - 0.5, 0f64..top)?;
    // The x axis is labelled at the crawls by hand: plotters' key points cannot be bound on an
    // f64 axis and still be formatted.
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
    for (i, slot) in slots.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64, 0.0));
        root.draw(&PathElement::new(vec![(px, py), (px, py + 4)], BLACK))?;
        root.draw(&Text::new(
            slot_name(slot.crawl),
            (px, py + 6),
            style.clone(),
        ))?;
        let day = super::crawls::day((slot.day * 86_400e6) as i64);
        root.draw(&Text::new(day, (px, py + 21), style.clone()))?;
    }
    let grey = RGBColor(0x88, 0x88, 0x88);
    let mark_style =
        TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
    for (x, mark) in marks
        .iter()
        .filter_map(|m| slot_of_day(slots, m.day).map(|x| (x, m)))
    {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x, 0.0), (x, top)],
            grey.stroke_width(1),
        )))?;
        let (px, py) = chart.backend_coord(&(x, top));
        let label = super::html::visible(mark.label);
        root.draw(&Text::new(
            label,
            (px + 4, py + 2),
            mark_style.clone().color(&grey),
        ))?;
    }
    let slot_pixels =
        f64::from(chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1.0);
    for line in lines {
        let colour = line_rgb(line.colour);
        // Each line's dots a little apart from the others', so that equal shares (every
        // agent blocked only through `*`) show every colour, not the last one drawn; its line
        // joins its own dots.
        let dodge = ((line.colour % 8) as f64 - 3.0) * 3.0 / slot_pixels;
        let dots: Vec<(usize, (f64, f64))> = (line.points.iter().enumerate())
            .filter_map(|(i, p)| p.map(|y| (i, (i as f64 + dodge, y))))
            .collect();
        let mut by_collection: std::collections::BTreeMap<usize, Vec<(f64, f64)>> =
            Default::default();
        for &(i, dot) in &dots {
            if let Some(c) = collections[i] {
                by_collection.entry(c).or_default().push(dot);
            }
        }
        for run in by_collection.into_values().filter(|r| r.len() >= 2) {
            chart.draw_series(LineSeries::new(run, colour.stroke_width(2)))?;
        }
        chart.draw_series((dots.into_iter()).map(|(_, p)| Circle::new(p, 4, colour.filled())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(svg: &str, colour: &str) -> usize {
        svg.matches(&format!("fill=\"{colour}\"")).count()
    }

    /// The `y` and `height` of every filled rectangle of colour `colour`.
    fn rects(svg: &str, colour: &str) -> Vec<(f64, f64)> {
        let attr = |r: &str, name: &str| -> f64 {
            let at = r.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            r[at..at + r[at..].find('"').unwrap()].parse().unwrap()
        };
        (svg.split("<rect").skip(1))
            .filter(|r| r[..r.find("/>").unwrap()].contains(&format!("fill=\"{colour}\"")))
            .map(|r| (attr(r, "y"), attr(r, "height")))
            .collect()
    }

    #[test]
    fn one_bar_fills_its_chart_without_an_empty_row() {
        let svg = bars(&[Bar {
            label: "every crawler",
            parts: vec![0.0, 0.85],
        }]);
        let drawn = rects(&svg, "#F4A582");
        assert_eq!(drawn.len(), 1, "{svg}");
        // The plot is the picture less its margins (8 above and below) and the x labels (24);
        // its one row is the bar and 3 pixels above and below it.
        let at = svg.find(" height=\"").unwrap() + 9;
        let height: f64 = svg[at..at + svg[at..].find('"').unwrap()].parse().unwrap();
        let plot_height = height - 8.0 - 8.0 - 24.0;
        assert!(drawn[0].1 >= plot_height - 7.0, "{drawn:?} in {svg}");
    }

    #[test]
    fn bars_are_drawn_top_down_in_their_order() {
        let svg = bars(&[
            Bar {
                label: "first",
                parts: vec![0.5],
            },
            Bar {
                label: "second",
                parts: vec![0.25],
            },
        ]);
        let drawn = rects(&svg, "#B2182B");
        assert_eq!(drawn.len(), 2, "{svg}");
        assert!(drawn[0].0 < drawn[1].0, "{drawn:?}");
        let labels = texts(&svg);
        let first = labels.iter().position(|t| *t == "first").unwrap();
        let second = labels.iter().position(|t| *t == "second").unwrap();
        assert!(first < second, "{labels:?}");
    }

    /// Five crawls, two of them a month apart after years of nothing, as the samples' change
    /// chart had them (its dots overlapped and 3 of 5 dates were labelled).
    fn five_crawls() -> (Vec<Slot<'static>>, Vec<Line>) {
        let days = [13_999.0, 15_224.0, 16_154.0, 20_301.0, 20_331.0];
        let names = [
            "archive.org-shallow",
            "unknown",
            "daily-0900",
            "CC-MAIN-2025-33",
            "CC-MAIN-2025-38",
        ];
        let slots = (names.iter().zip(days))
            .map(|(crawl, day)| Slot { crawl, day })
            .collect();
        let line = Line {
            points: vec![Some(0.85), Some(0.6), Some(0.0), Some(0.07), Some(0.07)],
            colour: 0,
        };
        (slots, vec![line])
    }

    /// The `cx` of every circle.
    fn dots(svg: &str) -> Vec<f64> {
        (svg.split("<circle").skip(1))
            .map(|c| {
                let at = c.find(" cx=\"").unwrap() + 5;
                c[at..at + c[at..].find('"').unwrap()].parse().unwrap()
            })
            .collect()
    }

    #[test]
    fn every_crawl_of_a_timeline_is_labelled_with_its_name_and_day() {
        let (slots, lines) = five_crawls();
        let svg = timeline(&slots, &[None, None, None, Some(0), Some(0)], &lines, &[]);
        let labels = texts(&svg);
        for name in [
            "archive.org-shall…",
            "unknown",
            "daily-0900",
            "CC-MAIN-2025-33",
            "CC-MAIN-2025-38",
        ] {
            assert!(labels.contains(&name), "{name} in {labels:?}");
        }
        for day in [
            "2008-04-30",
            "2011-09-07",
            "2014-03-25",
            "2025-08-01",
            "2025-08-31",
        ] {
            assert!(labels.contains(&day), "{day} in {labels:?}");
        }
    }

    #[test]
    fn crawls_a_month_apart_get_dots_a_slot_apart() {
        let (slots, lines) = five_crawls();
        let svg = timeline(&slots, &[None; 5], &lines, &[]);
        let xs = dots(&svg);
        assert_eq!(xs.len(), 5, "{svg}");
        for pair in xs.windows(2) {
            assert!(pair[1] - pair[0] >= f64::from(SLOT) - 1.0, "{xs:?}");
        }
    }

    #[test]
    fn a_collections_line_runs_through_its_own_dots() {
        let (slots, _) = five_crawls();
        let line = |colour| Line {
            points: vec![None, None, None, Some(0.07), Some(0.05)],
            colour,
        };
        let svg = timeline(
            &slots,
            &[None, None, None, Some(0), Some(0)],
            &[line(0), line(5)],
            &[],
        );
        let centres: Vec<String> = (svg.split("<circle").skip(1))
            .map(|c| {
                let at = |name: &str| {
                    let from = c.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                    c[from..from + c[from..].find('"').unwrap()].to_string()
                };
                format!("{},{}", at("cx"), at("cy"))
            })
            .collect();
        assert_eq!(centres.len(), 4, "{svg}");
        let polylines: Vec<&str> = (svg.split("<polyline").skip(1))
            .filter(|p| p.contains("stroke-width=\"2\""))
            .map(|p| {
                let from = p.find(" points=\"").unwrap() + 9;
                &p[from..from + p[from..].find('"').unwrap()]
            })
            .collect();
        assert_eq!(polylines.len(), 2, "{svg}");
        for (k, points) in polylines.iter().enumerate() {
            assert_eq!(
                points.trim(),
                format!("{} {}", centres[2 * k], centres[2 * k + 1])
            );
        }
    }

    #[test]
    fn a_mark_falls_between_the_crawls_around_its_day() {
        let (slots, lines) = five_crawls();
        assert_eq!(slot_of_day(&slots, 20_316.0), Some(3.5));
        assert_eq!(slot_of_day(&slots, 20_400.0), None);
        let mark = Mark {
            day: 20_316.0,
            label: "event",
        };
        let svg = timeline(&slots, &[None; 5], &lines, &[mark]);
        assert!(texts(&svg).contains(&"event"), "{svg}");
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

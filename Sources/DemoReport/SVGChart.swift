import Foundation

/// The report's two charts as standalone SVG elements (well-formed XML, tooltips in `<title>`).
public enum SVGChart {
    static let width = 1200.0
    static let labelWidth = 190.0
    static let laneHeight = 24.0

    /// The timeline: one lane per component instance and gesture kind, seconds along the bottom.
    static func timeline(_ timeline: Timeline) -> String {
        let plotWidth = Self.width - Self.labelWidth - 20
        let top = 10.0
        let height = top + Double(timeline.lanes.count) * Self.laneHeight + 34
        let duration = max(Double(timeline.durationNs), 1)
        func x(_ ns: UInt64) -> Double { Self.labelWidth + Double(ns) / duration * plotWidth }
        var svg = Self.open(width: Self.width, height: height, label: "Timeline of gestures and component states")
        for (index, lane) in timeline.lanes.enumerated() {
            let y = top + Double(index) * Self.laneHeight
            if index % 2 == 0 {
                svg += Self.rect(0, y, Self.width, Self.laneHeight, fill: "#f6f7f9")
            }
            let laneClass = lane.kind == .gesture ? "lane gesture" : "lane"
            svg += ##"<text x="8" y="\##(f(y + 16))" class="\##(laneClass)">\##(HTML.escape(lane.name))</text>"##
            for span in lane.spans {
                let left = x(span.startNs)
                let spanWidth = max(x(span.endNs) - left, 2)
                let fill = lane.kind == .gesture ? "#9ab8d8" : HTML.color(for: span.label)
                svg += ##"<g><title>\##(HTML.escape(span.detail))</title>"##
                svg += Self.rect(left, y + 4, spanWidth, Self.laneHeight - 8, fill: fill, radius: 3)
                if spanWidth > Double(span.label.count) * 7 + 8 {
                    svg += ##"<text x="\##(f(left + 4))" y="\##(f(y + 16))" class="span">"##
                    svg += "\(HTML.escape(span.label))</text>"
                }
                svg += "</g>"
            }
            for mark in lane.marks {
                let style = mark.recognized ? ##"r="5" fill="#e15759" stroke="#fff""## : ##"r="3" fill="#b8bec8""##
                svg += ##"<circle cx="\##(f(x(mark.atNs)))" cy="\##(f(y + Self.laneHeight / 2))" \##(style)>"##
                svg += ##"<title>\##(HTML.escape(mark.detail))</title></circle>"##
            }
        }
        let axisY = top + Double(timeline.lanes.count) * Self.laneHeight + 4
        svg += ##"<line x1="\##(f(Self.labelWidth))" y1="\##(f(axisY))" x2="\##(f(Self.labelWidth + plotWidth))" "##
        svg += ##"y2="\##(f(axisY))" stroke="#888"/>"##
        let step = Self.niceStep(Double(timeline.durationNs) / 1e9, ticks: 10)
        var tick = 0.0
        while tick * 1e9 <= Double(timeline.durationNs) + 1 {
            let tickX = x(UInt64(tick * 1e9))
            svg +=
                ##"<line x1="\##(f(tickX))" y1="\##(f(top))" x2="\##(f(tickX))" y2="\##(f(axisY + 4))" class="grid"/>"##
            svg +=
                ##"<text x="\##(f(tickX))" y="\##(f(axisY + 18))" class="tick">\##(Self.seconds(tick, step))</text>"##
            tick += step
        }
        return svg + "</svg>"
    }

    /// The latency histogram: log-scale buckets, p50/p99/p99.9 as labelled lines.
    static func histogram(_ histogram: LatencyHistogram) -> String {
        let left = 60.0
        let plotWidth = Self.width - left - 30
        let top = 28.0
        let plotHeight = 220.0
        let lowest = log10(histogram.buckets.first?.lowerUs ?? 1)
        let highest = log10(histogram.buckets.last?.upperUs ?? 10)
        func x(_ us: Double) -> Double {
            left + (log10(max(us, 1)) - lowest) / max(highest - lowest, 1e-9) * plotWidth
        }
        let tallest = Double(histogram.buckets.map(\.count).max() ?? 1)
        var svg = Self.open(
            width: Self.width, height: top + plotHeight + 40, label: "Histogram of one-way bus latency")
        for bucket in histogram.buckets {
            let barHeight = Double(bucket.count) / tallest * plotHeight
            let tip = "\(Format.latency(bucket.lowerUs)) – \(Format.latency(bucket.upperUs)): \(bucket.count) messages"
            svg += "<g><title>\(HTML.escape(tip))</title>"
            svg += Self.rect(
                x(bucket.lowerUs) + 1, top + plotHeight - barHeight, max(x(bucket.upperUs) - x(bucket.lowerUs) - 2, 1),
                barHeight, fill: "#4e79a7")
            svg += "</g>"
        }
        let bottom = top + plotHeight
        svg += ##"<line x1="\##(f(left))" y1="\##(f(bottom))" x2="\##(f(left + plotWidth))" y2="\##(f(bottom))" "##
        svg += ##"stroke="#888"/>"##
        // Every bucket edge when there are few buckets, else the decades.
        let labelStep = histogram.buckets.count <= 12 ? 1 / Double(LatencyHistogram.bucketsPerDecade) : 1
        var decade = (lowest / labelStep).rounded(.up) * labelStep
        while decade <= highest + 1e-9 {
            let us = pow(10, decade)
            svg +=
                ##"<line x1="\##(f(x(us)))" y1="\##(f(bottom))" x2="\##(f(x(us)))" y2="\##(f(bottom + 5))" stroke="#888"/>"##
            svg += ##"<text x="\##(f(x(us)))" y="\##(f(bottom + 20))" class="tick">\##(Format.latency(us))</text>"##
            decade += labelStep
        }
        svg += ##"<text x="\##(f(left - 8))" y="\##(f(top + 4))" class="axis">\##(Int(tallest))</text>"##
        svg += ##"<text x="\##(f(left - 8))" y="\##(f(bottom))" class="axis">0</text>"##
        let marks = [("p50", histogram.p50Us, "#59a14f"), ("p99", histogram.p99Us, "#f28e2b")]
        for (index, (name, value, color)) in (marks + [("p99.9", histogram.p999Us, "#e15759")]).enumerated() {
            let markX = x(value)
            let text = "\(name) \(Format.latency(value))"
            svg += ##"<g><title>\##(HTML.escape(text))</title>"##
            svg += ##"<line x1="\##(f(markX))" y1="\##(f(top - 4))" x2="\##(f(markX))" y2="\##(f(bottom))" "##
            svg += ##"stroke="\##(color)" stroke-width="2" stroke-dasharray="5 3"/>"##
            // Labels near the right edge go to the left of their line.
            let side =
                markX > left + plotWidth - 140
                ? ##"x="\##(f(markX - 4))" text-anchor="end""## : ##"x="\##(f(markX + 4))""##
            svg += ##"<text \##(side) y="\##(f(top + 8 + Double(index) * 14))" class="mark" "##
            svg += ##"fill="\##(color)">\##(HTML.escape(text))</text></g>"##
        }
        return svg + "</svg>"
    }

    /// The latency histogram as an SVG file of its own (`bus-flood --out`): an XML declaration,
    /// a `title`, and the styles the report's page otherwise gives the chart.
    public static func histogramDocument(_ histogram: LatencyHistogram, title: String) -> String {
        let chart = Self.histogram(histogram)
        let open = chart.prefix { $0 != ">" } + ">"
        let style =
            "<style>text{font:12px sans-serif}text.tick{text-anchor:middle;fill:#666}"
            + "text.axis{text-anchor:end;fill:#666}text.mark{font-weight:700}</style>"
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + open + "<title>\(HTML.escape(title))</title>" + style
            + chart.dropFirst(open.count) + "\n"
    }

    private static func open(width: Double, height: Double, label: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(f(width)) \##(f(height))" "##
            + ##"width="100%" role="img" aria-label="\##(HTML.escape(label))">"##
    }

    private static func rect(
        _ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String, radius: Double = 0
    ) -> String {
        ##"<rect x="\##(f(x))" y="\##(f(y))" width="\##(f(width))" height="\##(f(height))" rx="\##(f(radius))" "##
            + ##"fill="\##(fill)"/>"##
    }

    /// A round step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `range`.
    static func niceStep(_ range: Double, ticks: Int) -> Double {
        guard range > 0 else { return 1 }
        let raw = range / Double(ticks)
        let power = pow(10, log10(raw).rounded(.down))
        for factor in [1.0, 2, 5] where raw <= factor * power { return factor * power }
        return 10 * power
    }

    private static func seconds(_ value: Double, _ step: Double) -> String {
        Format.fixed(value, step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3) + " s"
    }

    private static func f(_ value: Double) -> String { Format.fixed(value, 1) }
}

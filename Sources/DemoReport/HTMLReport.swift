/// Renders a ``ReportModel`` as one self-contained HTML page: inline CSS and SVG, no scripts.
///
/// Frames come in as `data:` URIs, so the one file keeps working when opened from disk,
/// copied elsewhere or mailed, and after the next demo run has cleaned `var/demo/`.
public enum HTMLReport {
    /// The page.
    ///
    /// - Parameters:
    ///   - images: `src` for each key frame's and gallery snapshot's file name (a `data:` URI, or
    ///     a path relative to the report); frames without one are listed without a picture.
    ///   - crops: where each component kind's view lies in the snapshots, for the gallery.
    public static func render(_ model: ReportModel, images: [String: String], crops: [String: Crop] = [:]) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>UIBus demo report</title>
            <style>\(Self.style)\(Self.galleryCSS)
            \(Self.galleryStyle(model.gallery, images: images))</style></head><body>

            """
        html += Self.header(model)
        html += Self.frames(model, images: images)
        html += Self.section(
            "gallery", "Gallery: each idiom's key moments", Self.gallery(model.gallery, images: images, crops: crops))
        html += Self.section("timeline", "Timeline", Self.timeline(model))
        html += Self.section("health", "Health", Self.health(model))
        html += Self.section("latency", "Bus latency", Self.latency(model))
        html += Self.section("memos", "Memos", Self.memos(model))
        html += "<footer>Made by uibus-report from \(HTML.escape(model.recordingPath)).</footer>\n</body></html>\n"
        return html
    }

    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\"><h2>\(title)</h2>\n\(body)</section>\n"
    }

    private static func empty(_ text: String) -> String {
        "<p class=\"empty\">\(HTML.escape(text))</p>\n"
    }

    private static func header(_ model: ReportModel) -> String {
        var html = "<header id=\"summary\"><h1>UIBus demo report</h1>\n<p class=\"lede\">"
        html += "\(model.messageCount) bus messages over \(Format.fixed(model.durationSeconds, 1)) s from "
        html += model.publishers.isEmpty ? "no publisher" : model.publishers.map(HTML.escape).joined(separator: ", ")
        html += ".</p>\n<div class=\"cards\">\n"
        let lost = model.messagesLost
        let cards: [(String, Int, [ReportModel.Count], Bool)] = [
            ("gestures recognized", model.gestures.reduce(0) { $0 + $1.count }, model.gestures, false),
            ("component transitions", model.transitions.reduce(0) { $0 + $1.count }, model.transitions, false),
            (
                "memos stored", model.memosStored,
                model.memoChanges + model.memoAcks.map { .init(name: "ack " + $0.name, count: $0.count) }, false
            ),
            ("frames rendered", model.framesRendered, [], false),
            ("messages lost", lost, [], lost > 0),
        ]
        for (title, total, parts, bad) in cards {
            html += "<div class=\"card\(bad ? " bad" : "")\"><div class=\"big\">\(total)</div>"
            html += "<div class=\"what\">\(title)</div>"
            if !parts.isEmpty {
                html += "<ul>"
                for part in parts { html += "<li>\(HTML.escape(part.name)) <b>\(part.count)</b></li>" }
                html += "</ul>"
            }
            html += "</div>\n"
        }
        return html + "</div></header>\n"
    }

    private static func frames(_ model: ReportModel, images: [String: String]) -> String {
        let shown = model.keyFrames.filter { $0.fileName.flatMap { images[$0] } != nil }
        guard !shown.isEmpty else {
            let text =
                model.framesRendered == 0
                ? "No frames were rendered in this session."
                : "\(model.framesRendered) frames were rendered, but no snapshot PNG was found."
            return Self.section("frames", "Frames", Self.empty(text))
        }
        var html = "<div class=\"strip\">\n"
        for frame in shown {
            let source = images[frame.fileName!]!
            var caption = "frame \(frame.frameID)"
            if let time = frame.timeNs {
                let since = time >= model.startNs ? time - model.startNs : 0
                caption = Format.fixed(Double(since) / 1e9, 2) + " s · " + caption
            }
            // Clicking a thumbnail makes its figure the :target, shown full size by CSS (no script).
            let id = "frame-\(frame.frameID)"
            html += "<figure id=\"\(id)\"><a href=\"#\(id)\"><img src=\"\(HTML.escape(source))\" "
            html += "alt=\"\(HTML.escape(caption))\"></a><figcaption>\(HTML.escape(caption))</figcaption>"
            html += "<a class=\"close\" href=\"#frames\" title=\"close\">×</a></figure>\n"
        }
        return Self.section("frames", "Frames at key moments", html + "</div>\n")
    }

    private static func timeline(_ model: ReportModel) -> String {
        guard !model.timeline.lanes.isEmpty else {
            return Self.empty("No gestures and no component states were recorded.")
        }
        return "<p class=\"note\">One lane per component instance, its phases as colored bars, then "
            + "<span class=\"gesture\">one lane per gesture kind</span>: bars from began to end, red dots for "
            + "recognized taps and swipes, grey dots for failures. Hover for details.</p>\n"
            + "<div class=\"chart\">" + SVGChart.timeline(model.timeline) + "</div>\n"
    }

    private static func health(_ model: ReportModel) -> String {
        var html = ""
        if model.health.isEmpty {
            html += Self.empty("No health messages were recorded.")
        } else {
            let supervised = model.supervisor != nil
            html += "<table><thead><tr><th>service</th><th>state</th><th>sent</th><th>received</th><th>gaps</th>"
            html += "<th>duplicates</th><th>rejected</th><th>dead-lettered</th>"
            html += supervised ? "<th>restarts</th><th>last exit</th>" : ""
            html += "</tr></thead><tbody>\n"
            for row in model.health {
                html += "<tr><td>\(HTML.escape(row.service))</td><td>\(HTML.escape(row.state))</td>"
                for (value, watch) in [
                    (row.sent, false), (row.received, false), (row.gaps, true), (row.duplicates, true),
                    (row.rejected, true), (row.deadLettered, true),
                ] {
                    html += "<td class=\"num\(watch && value > 0 ? " bad" : "")\">\(value)</td>"
                }
                if supervised {
                    html += "<td class=\"num\">\(row.restarts.map(String.init) ?? "–")</td>"
                    html += "<td>\(HTML.escape(row.lastExit ?? "–"))</td>"
                }
                html += "</tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if let problem = model.supervisorProblem {
            html += "<h3>Supervisor</h3>\n" + Self.empty("No supervisor status: \(problem).")
        }
        if let status = model.supervisor {
            html += "<h3>Supervisor (\(HTML.escape(status.state)))</h3>\n"
            if status.services.isEmpty {
                html += Self.empty("The supervisor status lists no services.")
            } else {
                html += "<table><thead><tr><th>service</th><th>state</th><th>restarts</th><th>last exit</th>"
                html += "</tr></thead><tbody>\n"
                for service in status.services {
                    html += "<tr><td>\(HTML.escape(service.name))</td><td>\(HTML.escape(service.state))</td>"
                    html += "<td class=\"num\">\(service.restarts)</td><td>\(HTML.escape(service.lastExit ?? "–"))</td>"
                    html += "</tr>\n"
                }
                html += "</tbody></table>\n"
            }
        }
        return html
    }

    private static func latency(_ model: ReportModel) -> String {
        let histogram = model.latency
        guard histogram.count > 0 else { return Self.empty("No messages, so no latencies.") }
        var html = "<p class=\"note\">One-way latency of all \(histogram.count) recorded messages: the recorder's "
        html += "receive time (MCAP log_time) minus the publisher's wall-clock stamp (publish_time). "
        html += "p50 <b>\(Format.latency(histogram.p50Us))</b>, p99 <b>\(Format.latency(histogram.p99Us))</b>, "
        html += "p99.9 <b>\(Format.latency(histogram.p999Us))</b>, max \(Format.latency(histogram.maxUs))."
        if histogram.negativeCount > 0 {
            html += " \(histogram.negativeCount) arrived “before” they were sent (clock skew) and count as 0."
        }
        return html + "</p>\n<div class=\"chart\">" + SVGChart.histogram(histogram) + "</div>\n"
    }

    private static func memos(_ model: ReportModel) -> String {
        guard !model.memos.isEmpty else { return Self.empty("No memos were stored in this session.") }
        var html = "<table><thead><tr><th>memo</th><th>text</th><th>state</th></tr></thead><tbody>\n"
        for memo in model.memos {
            let state = memo.deleted ? "deleted" : memo.trashed ? "in trash" : "stored"
            html += "<tr><td>\(HTML.escape(memo.id))</td><td class=\"text\">\(HTML.escape(memo.text))</td>"
            html += "<td>\(state)</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static let style = """
        body{font:15px/1.45 system-ui,"Noto Sans CJK JP",sans-serif;margin:0 auto;max-width:1240px;padding:24px;
        color:#1d2330;background:#fff}
        h1{margin:0 0 4px;font-size:28px}h2{margin:36px 0 12px;font-size:20px;border-bottom:2px solid #e4e7ec;
        padding-bottom:6px}h3{font-size:16px;margin:20px 0 8px}
        .lede{color:#555;margin:0 0 18px}.note{color:#555;margin:0 0 10px}.empty{color:#888;font-style:italic}
        .cards{display:grid;grid-template-columns:repeat(5,1fr);gap:12px}
        .card{background:#f6f7f9;border-radius:10px;padding:14px 16px;border-top:4px solid #4e79a7}
        .card.bad{border-top-color:#e15759;background:#fdf0f0}
        .big{font-size:32px;font-weight:700}.what{color:#555;margin-bottom:6px}
        .card ul{list-style:none;padding:0;margin:0;font-size:13px;color:#444}.card li b{float:right}
        .strip{display:flex;gap:12px;overflow-x:auto;padding-bottom:8px}
        figure{margin:0;flex:0 0 auto}figure img{height:150px;border:1px solid #ccd;border-radius:6px;display:block}
        figcaption{font-size:12px;color:#555;text-align:center;margin-top:4px}
        figure:target{position:fixed;inset:0;z-index:10;background:rgba(20,24,32,.92);display:flex;
        flex-direction:column;align-items:center;justify-content:center}
        figure:target img{height:auto;max-height:88vh;max-width:94vw}figure:target figcaption{color:#fff;font-size:15px}
        .close{display:none}figure:target .close{display:block;position:absolute;top:10px;right:24px;color:#fff;
        font-size:36px;text-decoration:none}
        .chart{border:1px solid #e4e7ec;border-radius:8px;padding:6px}
        svg text{font:12px system-ui,"Noto Sans CJK JP",sans-serif;fill:#333}
        svg text.span{fill:#fff;font-size:11px;pointer-events:none}svg text.tick{text-anchor:middle;fill:#666}
        svg text.axis{text-anchor:end;fill:#666}
        svg text.gesture{fill:#2c6aa0;font-style:italic}.gesture{color:#2c6aa0;font-style:italic}svg text.mark{font-weight:700}svg .grid{stroke:#e4e7ec}
        table{border-collapse:collapse;width:100%;font-size:14px}
        th,td{padding:6px 10px;border-bottom:1px solid #e4e7ec;text-align:left}th{background:#f6f7f9}
        td.num{text-align:right;font-variant-numeric:tabular-nums}td.bad{color:#c0392b;font-weight:700}
        td.text{white-space:pre-wrap}footer{margin-top:40px;color:#999;font-size:12px}
        """
}

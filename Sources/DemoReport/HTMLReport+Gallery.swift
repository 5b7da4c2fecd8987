/// The gallery section of the report: per idiom a row of its key moments, each cropped to the
/// idiom's view from a snapshot of the whole screen.
///
/// Each snapshot is embedded once, as a CSS class's background image; a moment is a box the
/// size of the view showing that part of it (no script, no copy of the picture per moment).
extension HTMLReport {
    /// Where an idiom's view lies in the snapshots, in snapshot pixels.
    public struct Crop: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        /// The whole snapshot's size in pixels.
        public var imageWidth: Double
        public var imageHeight: Double

        public init(x: Double, y: Double, width: Double, height: Double, imageWidth: Double, imageHeight: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
            (self.imageWidth, self.imageHeight) = (imageWidth, imageHeight)
        }
    }

    /// The tallest a moment is shown, in CSS pixels.
    static let momentHeight = 220.0

    /// The CSS class showing snapshot `fileName`.
    static func galleryClass(_ fileName: String) -> String {
        "g-" + String(fileName.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    /// One CSS rule per snapshot the gallery shows, its image as background.
    static func galleryStyle(_ gallery: Gallery, images: [String: String]) -> String {
        let files = Set(gallery.idioms.flatMap { $0.moments.compactMap(\.fileName) }).sorted()
        return files.compactMap { name in
            images[name].map { ".\(galleryClass(name)){background-image:url(\"\(HTML.escape($0))\")}\n" }
        }.joined()
    }

    /// The section. `crops` says where each component kind's view lies; without one a moment
    /// shows the whole snapshot.
    static func gallery(_ gallery: Gallery, images: [String: String], crops: [String: Crop]) -> String {
        var html = "<p class=\"note\">Each idiom's key moments from the demo's own snapshots: the last "
        html += "snapshot the render worker started the first time the component's state was in that moment, "
        html += "cut to the component's view. A moment the demo passed between two snapshots says so.</p>\n"
        for idiom in gallery.idioms {
            html += "<div class=\"idiom\"><h3>\(HTML.escape(idiom.name))</h3><div class=\"moments\">\n"
            for moment in idiom.moments {
                html += "<figure class=\"moment\">"
                if let name = moment.fileName, images[name] != nil, let crop = crops[idiom.kind] {
                    let k = min(1, Self.momentHeight / max(crop.height, 1))
                    let style =
                        "width:\(px(crop.width * k));height:\(px(crop.height * k));"
                        + "background-size:\(px(crop.imageWidth * k)) \(px(crop.imageHeight * k));"
                        + "background-position:\(px(-crop.x * k)) \(px(-crop.y * k))"
                    html += "<div class=\"shot \(galleryClass(name))\" data-frame=\"\(HTML.escape(name))\" "
                    html += "style=\"\(style)\"></div>"
                } else {
                    html += "<div class=\"shot missing\">not captured</div>"
                }
                let frame = moment.frameID.map { " · frame \($0)" } ?? ""
                html += "<figcaption>\(HTML.escape(moment.name + frame))</figcaption></figure>\n"
            }
            html += "</div></div>\n"
        }
        return html
    }

    private static func px(_ value: Double) -> String { Format.fixed(value, 1) + "px" }

    static let galleryCSS = """
        .idiom h3{margin:16px 0 6px}.moments{display:flex;gap:12px;flex-wrap:wrap}
        .moment .shot{border:1px solid #ccd;border-radius:6px;background-repeat:no-repeat}
        .moment .missing{width:160px;height:100px;display:flex;align-items:center;justify-content:center;
        color:#888;font-style:italic;background:#f6f7f9}
        """
}

import BusSchema

/// Builds the layer tree for a scene document (schema `scene`) and the latest component
/// states (schemas `state.<kind>`): views become layers; memo boards draw their memos as
/// rotated, scaled sticky notes with text and shadows; number pads draw their digit keys; the
/// other kinds are drawn in `SceneLayers+Components.swift`.
public enum SceneLayers {
    /// The scene's size in points and its layer tree.
    /// - Parameter states: component states keyed by their `instance`.
    /// - Throws: ``RenderError`` (`invalidParameter`) when the scene lacks a size or a view a frame.
    public static func build(scene: Value, states: [String: Value]) throws -> (size: Size, root: Layer) {
        guard let width = scene["width"]?.doubleValue, let height = scene["height"]?.doubleValue, width > 0,
            height > 0, width.isFinite, height.isFinite
        else { throw RenderError(.invalidParameter, "scene needs a positive width and height") }
        var root = Layer(
            name: scene["name"]?.stringValue ?? "scene", frame: Rect(x: 0, y: 0, width: width, height: height))
        root.backgroundColor = scene["background"]?.stringValue.flatMap(color(hex:)) ?? .white
        let views = (scene["views"]?.arrayValue ?? []).enumerated().sorted {
            ($0.element["z"]?.intValue ?? 0, $0.offset) < ($1.element["z"]?.intValue ?? 0, $1.offset)
        }
        for (_, view) in views {
            guard let frame = view["frame"], let x = frame["x"]?.doubleValue, let y = frame["y"]?.doubleValue,
                let w = frame["width"]?.doubleValue, let h = frame["height"]?.doubleValue
            else { throw RenderError(.invalidParameter, "view \(view["id"]?.stringValue ?? "?") needs a frame") }
            var layer = Layer(name: view["id"]?.stringValue ?? "", frame: Rect(x: x, y: y, width: w, height: h))
            let component = view["component"]
            let state = component?["id"]?.stringValue.flatMap { states[$0] }
            let config = component?["config"]
            let size = layer.frame.size
            if let background = view["background"]?.stringValue.flatMap(color(hex:)) {
                layer.backgroundColor = background
            }
            switch component?["kind"]?.stringValue {
            case "memoBoard":
                layer.backgroundColor = Color(hex: 0xC8A165)
                layer.masksToBounds = true
                let image = state?["background"] ?? config?["background"]
                if let image, image != .null { layer.sublayers = [boardBackground(size: size)] }
                if let state { layer.sublayers += memos(state) }
            case "numberPad":
                layer.backgroundColor = Color(hex: 0xD1D5DB)
                layer.sublayers = keys(state, config: config, size: size)
            case "scrollView":
                layer.masksToBounds = true
                layer.sublayers = scrollContent(state, size: size)
            case "drawer":
                // The view is the area the menu slides over; the panel carries the colour.
                layer.backgroundColor = nil
                layer.masksToBounds = true
                layer.sublayers = drawer(state, config: config, view: view, size: size)
            case "slideTable":
                layer.masksToBounds = true
                let pulled = pullOffset(below: view["id"]?.stringValue, views: views.map(\.element), states: states)
                layer.sublayers = slideTable(state, config: config, size: size, pulled: pulled)
            case "pullToRefresh":
                // The header lives in its scroll view's content, above the first row: it is drawn
                // over the scroll view's whole frame, not clipped to its own band.
                if let frame = config?["scroll_view"]?.stringValue.flatMap({ id in
                    frameOfView(id, in: views.map(\.element))
                }) {
                    layer.frame = frame
                }
                layer.masksToBounds = true
                layer.sublayers = pullToRefresh(state, size: layer.frame.size)
            case "pager":
                layer.masksToBounds = true
                layer.sublayers = pager(state, config: config, size: size)
            case "canvas":
                layer.masksToBounds = true
                layer.sublayers = canvas(state, config: config)
                if let shadow = view["shadow"] {
                    layer.shadow = Shadow(
                        opacity: shadow["opacity"]?.doubleValue ?? 0.25,
                        offset: Size(
                            shadow["offset"]?["x"]?.doubleValue ?? 0, shadow["offset"]?["y"]?.doubleValue ?? 0),
                        radius: shadow["radius"]?.doubleValue ?? 3, path: Path(rect: layer.bounds))
                }
            case "zoomView":
                layer.masksToBounds = true
                let overlay = overlayFrame(config: config, views: scene["views"]?.arrayValue ?? [], in: layer.frame)
                layer.sublayers = zoomView(state, overlay: overlay, size: size)
            case nil:
                break
            default:
                layer.backgroundColor = layer.backgroundColor ?? Color(hex: 0xF2F2F7)
            }
            root.sublayers.append(layer)
        }
        return (Size(width, height), root)
    }

    /// The frame of the view `id`, if it has one.
    private static func frameOfView(_ id: String, in views: [Value]) -> Rect? {
        guard let frame = views.first(where: { $0["id"]?.stringValue == id })?["frame"],
            let x = frame["x"]?.doubleValue, let y = frame["y"]?.doubleValue, let w = frame["width"]?.doubleValue,
            let h = frame["height"]?.doubleValue
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// How far a pull-to-refresh header attached to scroll view `id` pushes its rows down (its
    /// state's offset: the pull, or the header height while refreshing), 0 without one.
    private static func pullOffset(below id: String?, views: [Value], states: [String: Value]) -> Double {
        guard let id else { return 0 }
        let header = views.first {
            $0["component"]?["kind"]?.stringValue == "pullToRefresh"
                && $0["component"]?["config"]?["scroll_view"]?.stringValue == id
        }
        let offset = header?["component"]?["id"]?.stringValue.flatMap { states[$0] }?["offset"]?.doubleValue ?? 0
        return offset.isFinite ? max(0, offset) : 0
    }

    /// The first overlay view of a zoom view's config, relative to the zoom view.
    private static func overlayFrame(config: Value?, views: [Value], in frame: Rect) -> Rect? {
        guard let id = config?["overlays"]?.arrayValue?.first?.stringValue,
            let overlay = views.first(where: { $0["id"]?.stringValue == id })?["frame"],
            let x = overlay["x"]?.doubleValue, let y = overlay["y"]?.doubleValue,
            let w = overlay["width"]?.doubleValue, let h = overlay["height"]?.doubleValue
        else { return nil }
        return Rect(x: x - frame.minX, y: y - frame.minY, width: w, height: h)
    }

    /// Memo palette colours by name.
    static let palette: [String: UInt32] = [
        "yellow": 0xFFF3A0, "orange": 0xFFD8A8, "pink": 0xFFD1DC, "purple": 0xE5D4FF, "blue": 0xCDE7FF,
        "green": 0xD3F5D0, "gray": 0xE2E2E2, "white": 0xFFFFFF,
    ]

    /// The height of a minimized memo: a strip showing the start of its text, as FloatyMemo+ folds one.
    public static let minimizedMemoHeight = 28.0

    /// While a search runs, FloatyMemo+ highlights the memos that match and only they stay active:
    /// the others are drawn faded.
    static let searchFadedOpacity = 0.3
    static let searchMatchColor = Color(hex: 0xFF9500)

    private static func memos(_ state: Value) -> [Layer] {
        let selected = state["selected"]?.stringValue
        let list = state["memos"]?.arrayValue ?? []
        let matched: Set<String>? = state["search"]?["matches"]?.arrayValue.map {
            Set($0.compactMap { $0["memo_id"]?.stringValue })
        }
        return list.sorted { ($0["z"]?.intValue ?? 0) < ($1["z"]?.intValue ?? 0) }.compactMap { memo in
            guard let x = memo["x"]?.doubleValue, let y = memo["y"]?.doubleValue, let w = memo["width"]?.doubleValue,
                let h = memo["height"]?.doubleValue
            else { return nil }
            let isMinimized = memo["minimized"]?.boolValue == true
            var layer = Layer(
                name: memo["id"]?.stringValue ?? "memo",
                frame: Rect(x: x, y: y, width: w, height: isMinimized ? min(h, minimizedMemoHeight) : h))
            layer.backgroundColor = Color(hex: palette[memo["color"]?.stringValue ?? "yellow"] ?? 0xFFF3A0)
            if !isMinimized {
                let scale = memo["scale"]?.doubleValue ?? 1
                layer.transform = AffineTransform.scale(scale, scale).concatenating(
                    .rotation(memo["rotation"]?.doubleValue ?? 0))
            }
            layer.masksToBounds = isMinimized
            layer.shadow = Shadow(opacity: 0.35, offset: Size(0, isMinimized ? 1 : 3), radius: isMinimized ? 2 : 4)
            layer.cornerRadius = 2
            let isSelected = selected != nil && memo["id"]?.stringValue == selected
            layer.borderWidth = isSelected ? 2 : 0.5
            layer.borderColor = isSelected ? Color(hex: 0x1A73E8) : Color(hex: 0x000000, alpha: 0.15)
            if let matched {
                if matched.contains(memo["id"]?.stringValue ?? "") {
                    layer.borderWidth = 3
                    layer.borderColor = searchMatchColor
                } else {
                    layer.opacity = searchFadedOpacity
                }
            }
            layer.text = TextContent(
                memo["text"]?.stringValue ?? "", fontSize: isMinimized ? 12 : 15, color: Color(hex: 0x333333),
                inset: isMinimized ? 6 : 8, singleLine: isMinimized)
            return layer
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    static func color(hex text: String) -> Color? {
        guard text.hasPrefix("#"), let value = UInt32(text.dropFirst(), radix: 16) else { return nil }
        switch text.count {
        case 7: return Color(hex: value)
        case 9: return Color(hex: value >> 8, alpha: Double(value & 0xFF) / 255)
        default: return nil
        }
    }
}

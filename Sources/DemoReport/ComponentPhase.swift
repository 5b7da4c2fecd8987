import BusSchema

/// The short, discrete name of a component's state ("open", "page 2", "refreshing"): a
/// component *transition* is a state message whose phase differs from the one before. The
/// report's timeline and the live view's inspector (ViewService) name phases with it.
public enum ComponentPhase {
    /// The phase of a `state.<kind>` payload; unknown kinds have the single phase "state".
    public static func of(kind: String, _ state: Value) -> String {
        switch kind {
        case "drawer":
            if state["open"]?.boolValue == true { return "open" }
            return (state["progress"]?.doubleValue ?? 0) > 0 ? "moving" : "closed"
        case "pullToRefresh":
            return state["phase"]?.stringValue ?? "?"
        case "pager":
            if state["loading"]?.boolValue == true { return "loading" }
            return "page \(state["page"]?.intValue ?? 0)"
        case "slideTable":
            guard let row = state["open_row"]?.intValue else { return "closed" }
            return "row \(row) open"
        case "numberPad":
            let typed = state["sequential_string"]?.stringValue ?? ""
            return typed.isEmpty ? "empty" : "“\(typed)”"
        case "canvas":
            if case .int = state["active"] ?? .null { return "drawing" }
            return "\(state["strokes"]?.arrayValue?.count ?? 0) strokes"
        case "zoomView":
            if state["zooming"]?.boolValue == true { return "zooming" }
            let scale = state["scale"]?.doubleValue ?? 1
            return scale <= (state["min_scale"]?.doubleValue ?? 1) + 1e-6 ? "fit" : "zoomed"
        case "memoBoard":
            if state["editing"]?.stringValue != nil { return "editing" }
            if state["search"]?.mapValue != nil { return "searching" }
            return "\(state["memos"]?.arrayValue?.count ?? 0) memos"
        case "scrollView":
            for flag in ["dragging", "decelerating", "zooming"] where state[flag]?.boolValue == true { return flag }
            return "resting"
        default:
            return "state"
        }
    }
}

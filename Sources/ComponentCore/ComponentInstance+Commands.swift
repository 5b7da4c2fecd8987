import BusSchema

extension ComponentInstance {
    /// Carries out a `component.command`; nil if this kind has no such command or its
    /// arguments are wrong.
    ///
    /// Commands: `refresh_done {updated_at_ms}` (pullToRefresh, pager; the update time, wall-clock
    /// ms since the epoch, defaults to `wallMs`, when the command was sent), `set_page {page}` (pager), `open`/`close`
    /// (drawer), `set_enabled {digits}` (numberPad), `clear` (canvas), `reset_zoom` (zoomView,
    /// scrollView); the memo board takes `create {text, x, y, color}`, `edit {memo_id, text}`,
    /// `close_editor`, `trash`/`restore {memo_id}`, `empty_trash`, `arrange {order}`,
    /// `search {query}` and `background {image}`.
    public mutating func command(_ command: ComponentCommand, at instant: SourceInstant, wallMs: Double? = nil)
        -> [ComponentEffect]?
    {
        let args = Value.map(command.args ?? [:])
        if case .memoBoard = self {
            guard let event = Self.memoEvent(command.command, args, at: instant) else { return nil }
            return self.memoEvent(event)
        }
        let event: Event? =
            switch (self, command.command) {
            case (.pullToRefresh, "refresh_done"): Self.refreshDone(args, at: instant, wallMs: wallMs)
            case (.pager, "refresh_done"): .pager(.refreshDone(at: instant))
            case (.pager, "set_page"): args["page"]?.intValue.map { .pager(.pageRequested(Int($0), at: instant)) }
            case (.drawer, "open"): .drawer(.openRequested(at: instant))
            case (.drawer, "close"): .drawer(.closeRequested(at: instant))
            case (.numberPad, "set_enabled"):
                Self.enabledDigits(args).map { .numberPad(.enabledSetChanged($0, at: instant)) }
            case (.canvas, "clear"): .canvas(.clearRequested(at: instant))
            case (.zoomView, "reset_zoom"): .zoomView(.resetRequested(at: instant))
            case (.scrollView, "reset_zoom"): .scrollView(.zoomResetRequested(at: instant))
            default: nil
            }
        guard let event else { return nil }
        return self.apply(event)
    }

    /// `refresh_done` for a pull-to-refresh header; nil if `updated_at_ms` is no date.
    private static func refreshDone(_ args: Value, at instant: SourceInstant, wallMs: Double?) -> Event? {
        // A time outside 0 … 10¹⁵ ms (year 33658) is no date: the command is refused.
        let updated = args["updated_at_ms"].map { $0.doubleValue ?? .nan } ?? wallMs
        if let updated, !(0...1e15).contains(updated) { return nil }
        return .pullToRefresh(.refreshDone(at: instant, updatedAtMs: updated))
    }

    /// The digits of `set_enabled`; nil unless every one is an integer 0 … 9.
    private static func enabledDigits(_ args: Value) -> Set<Int>? {
        guard let values = args["digits"]?.arrayValue else { return nil }
        let digits = values.compactMap { $0.intValue.map(Int.init) }.filter { (0...9).contains($0) }
        return digits.count == values.count ? Set(digits) : nil
    }

    private static func memoEvent(_ name: String, _ args: Value, at instant: SourceInstant) -> MemoBoardMachine.Event? {
        let memoID = args["memo_id"]?.stringValue
        switch name {
        case "create":
            guard let x = args["x"]?.doubleValue, let y = args["y"]?.doubleValue else { return nil }
            let color = args["color"]?.stringValue.flatMap(MemoBoardState.Color.init(rawValue:))
            return .createRequested(text: args["text"]?.stringValue ?? "", x: x, y: y, color: color, at: instant)
        case "edit":
            guard let memoID, let text = args["text"]?.stringValue else { return nil }
            return .editRequested(memoID: memoID, text: text, at: instant)
        case "close_editor": return .editorClosed(at: instant)
        case "trash": return memoID.map { .trashRequested(memoID: $0, at: instant) }
        case "restore": return memoID.map { .restoreRequested(memoID: $0, at: instant) }
        case "empty_trash": return .emptyTrashRequested(at: instant)
        case "arrange":
            let order = args["order"]?.stringValue.flatMap(MemoArrangeOrder.init(rawValue:))
            return .arrangeRequested(order, at: instant)
        case "search": return .searchRequested(query: args["query"]?.stringValue ?? "", at: instant)
        case "background": return .backgroundRequested(image: args["image"]?.stringValue, at: instant)
        default: return nil
        }
    }
}

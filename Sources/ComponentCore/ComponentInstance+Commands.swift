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
        switch (self, command.command) {
        case (.pullToRefresh(var machine), "refresh_done"):
            // A time outside 0 … 10¹⁵ ms (year 33658) is no date: the command is refused.
            let updated = args["updated_at_ms"].map { $0.doubleValue ?? .nan } ?? wallMs
            if let updated, !(0...1e15).contains(updated) { return nil }
            return self.update(
                &machine, .refreshDone(at: instant, updatedAtMs: updated), ComponentInstance.pullToRefresh)
        case (.pager(var machine), "refresh_done"):
            return self.update(&machine, .refreshDone(at: instant), ComponentInstance.pager)
        case (.pager(var machine), "set_page"):
            guard let page = args["page"]?.intValue else { return nil }
            return self.update(&machine, .pageRequested(Int(page), at: instant), ComponentInstance.pager)
        case (.drawer(var machine), "open"):
            return self.update(&machine, .openRequested(at: instant), ComponentInstance.drawer)
        case (.drawer(var machine), "close"):
            return self.update(&machine, .closeRequested(at: instant), ComponentInstance.drawer)
        case (.numberPad(var machine), "set_enabled"):
            guard let values = args["digits"]?.arrayValue else { return nil }
            let digits = values.compactMap { $0.intValue.map(Int.init) }.filter { (0...9).contains($0) }
            guard digits.count == values.count else { return nil }
            return self.update(&machine, .enabledSetChanged(Set(digits), at: instant), ComponentInstance.numberPad)
        case (.canvas(var machine), "clear"):
            return self.update(&machine, .clearRequested(at: instant), ComponentInstance.canvas)
        case (.zoomView(var machine), "reset_zoom"):
            return self.update(&machine, .resetRequested(at: instant), ComponentInstance.zoomView)
        case (.scrollView(var machine), "reset_zoom"):
            return self.update(&machine, .zoomResetRequested(at: instant), ComponentInstance.scrollView)
        case (.memoBoard(var machine), let name):
            guard let event = Self.memoEvent(name, args, at: instant) else { return nil }
            return self.update(&machine, event, ComponentInstance.memoBoard)
        default:
            return nil
        }
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

import BusSchema

extension MemoBoardState.Memo {
    /// A memo the store describes (a `memo.changed` or `memo.snapshot` record), as a board
    /// draws it before the component host's first state: nil without an id and a place and
    /// size (it cannot be drawn); an unknown colour is yellow, the palette's first.
    init?(storeRecord memo: Value) {
        guard let id = memo["id"]?.stringValue, let x = memo["x"]?.doubleValue, let y = memo["y"]?.doubleValue,
            let width = memo["width"]?.doubleValue, let height = memo["height"]?.doubleValue
        else { return nil }
        self.init(
            id: id, x: x, y: y, width: width, height: height, scale: memo["scale"]?.doubleValue ?? 1,
            rotation: memo["rotation"]?.doubleValue ?? 0, z: Int(clamping: memo["z"]?.intValue ?? 0),
            color: memo["color"]?.stringValue.flatMap(MemoBoardState.Color.init(rawValue:)) ?? .yellow,
            minimized: memo["minimized"]?.boolValue == true, text: memo["text"]?.stringValue ?? "")
    }
}

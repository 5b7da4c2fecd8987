import BusSchema

/// A large memo board for benchmarks and tests: `memo.changed` upserts of memos scattered,
/// turned and scaled over an area many times the demo board's size, most of them off screen.
public enum BoardFixture {
    /// The side of the square the memos are scattered over, in board points.
    public static let spread = 3000.0

    /// `count` upserts, the same for the same count (a fixed pseudo-random sequence).
    public static func changes(count: Int) -> [Value] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let colors = ["yellow", "pink", "blue", "green"]
        return (0..<count).map { index in
            let memo: [(String, Value)] = [
                ("id", .string("bench-\(index)")), ("text", .string("メモ \(index): 牛乳と卵を買う, call Aki at 6")),
                ("x", .double(next() * spread - 100)), ("y", .double(next() * spread - 100)),
                ("width", .double(110)), ("height", .double(90)), ("scale", .double(0.8 + 0.4 * next())),
                ("rotation", .double(next() * 0.5 - 0.25)), ("z", .int(Int64(index))),
                ("color", .string(colors[index % colors.count])), ("minimized", .bool(false)), ("trashed_at", .null),
            ]
            return .map(
                ValueMap([
                    ("seq", .int(Int64(index + 1))), ("change", .string("upsert")), ("memo", .map(ValueMap(memo))),
                ]))
        }
    }
}

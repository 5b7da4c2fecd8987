import BusSchema
import Testing

/// `render.tiles` carries pixels from a publisher the viewer does not control: every tile is
/// checked at decode against the frame, and a key frame must be the whole frame.
@Suite struct RenderTilesDecodingTests {
    static let valid = RenderTiles(
        surface: "main", width: 1600, height: 1000, scale: 2, frame: 8, base: 7,
        tiles: [
            .init(x: 10, y: 20, width: 30, height: 40, encoding: .png, data: [0x89, 0x50]),
            .init(x: 800, y: 500, width: 800, height: 500, encoding: .jpeg, data: [0xFF, 0xD8]),
        ],
        input: TouchInput {
            $0.device = "web-1"
            $0.seq = 42
            $0.sourceTimeNs = 1_000_000
        }, encodeMs: 1.5)

    static func tile(_ x: Int64, _ y: Int64, _ width: Int64, _ height: Int64, encoding: String = "png") -> Value {
        .map([
            "x": .int(x), "y": .int(y), "width": .int(width), "height": .int(height), "encoding": .string(encoding),
            "data": .binary([1]),
        ])
    }

    /// The valid message as a map, with `key` replaced (or removed, for nil).
    static func payload(_ key: String, _ value: Value?) -> [UInt8] {
        var map = Self.valid.value.mapValue!
        map[key] = value
        return Value.map(map).messagePack
    }

    static func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try RenderTiles(messagePack: bytes)
            return nil
        } catch let error as CodecError {
            return error.context
        } catch {
            return "\(error)"
        }
    }

    @Test func tilesDecodeToThemselvesWithTheTilesLast() throws {
        #expect(try RenderTiles(messagePack: Self.valid.messagePack) == Self.valid)
        #expect(Self.valid.value.mapValue?.keys.last == "tiles")
        #expect(try RenderTiles.topic(surface: "main").rawValue == "render/tiles/main/")
    }

    @Test func aTileOutsideTheFrameOrAKeyFrameThatIsNotTheWholeFrameIsRefusedByName() throws {
        let outside = Self.failure(Self.payload("tiles", .array([Self.tile(0, 0, 1, 1), Self.tile(1590, 0, 20, 1)])))
        #expect(outside?.hasPrefix("tiles[1]: 20×1 at (1590, 0) outside") == true, "\(outside ?? "accepted")")
        var key = Self.valid.value.mapValue!
        key["base"] = nil
        #expect(Self.failure(Value.map(key).messagePack)?.hasPrefix("tiles: a key frame") == true, "two tiles, no base")
        key["tiles"] = .array([Self.tile(0, 0, 1600, 1000)])
        #expect(try RenderTiles(messagePack: Value.map(key).messagePack).isKeyFrame)
    }

    @Test func aFrameWithNoTilesNamesItsInputAndNeedsABase() throws {
        let unchanged = try RenderTiles(messagePack: Self.payload("tiles", .array([])))
        #expect(unchanged.tiles.isEmpty && unchanged.base == 7 && unchanged.input?.seq == 42)
        var key = Self.valid.value.mapValue!
        key["base"] = nil
        key["tiles"] = .array([])
        let refused = Self.failure(Value.map(key).messagePack)
        #expect(refused?.hasPrefix("tiles: a key frame") == true, "a key frame of no tile")
    }

    @Test(arguments: [
        ("tiles", Value.array(Array(repeating: Self.tile(0, 0, 1, 1), count: 65)), "tiles: 65 tiles"),
        ("tiles", .array([Self.tile(0, 0, 0, 1)]), "tiles[0].width"),
        ("tiles", .array([Self.tile(-1, 0, 1, 1)]), "tiles[0].x"),
        ("tiles", .array([Self.tile(0, 0, 1, 1, encoding: "webp")]), "tiles[0].encoding"),
        ("base", .int(0), "base"), ("frame", .int(0), "frame"), ("width", .int(8193), "width"),
        ("scale", .double(.nan), "scale"), ("surface", .string("a/b"), "surface"),
    ])
    func aHostileFieldIsRefusedNamingIt(_ key: String, _ value: Value, _ named: String) {
        let context = Self.failure(Self.payload(key, value))
        #expect(context?.contains(named) == true, "\(key) = \(value): \(context ?? "accepted")")
    }
}

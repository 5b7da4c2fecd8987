import BusSchema
import Testing

/// `render.image` carries megabytes from a publisher the viewer does not control: every field is
/// checked at decode, before anything is allocated for it.
@Suite struct RenderImageDecodingTests {
    static let valid = RenderImage(
        surface: "main", width: 1600, height: 1000, scale: 2, encoding: .jpeg, data: [0xFF, 0xD8, 0xFF, 0xD9],
        damage: [RenderImage.Rect(x: 0, y: 0, width: 1600, height: 1000)], frame: 7,
        input: TouchInput {
            $0.device = "web-1"
            $0.seq = 42
            $0.sourceTimeNs = 1_000_000
        }, encodeMs: 3.5)

    /// The valid image as a map, with `key` replaced (or removed, for nil).
    static func payload(_ key: String, _ value: Value?) -> [UInt8] {
        var map = Self.valid.value.mapValue!
        map[key] = value
        return Value.map(map).messagePack
    }

    static func failure(_ bytes: [UInt8]) -> CodecError? {
        do {
            _ = try RenderImage(messagePack: bytes)
            return nil
        } catch let error as CodecError {
            return error
        } catch {
            return nil
        }
    }

    @Test func anImageDecodesToItselfWithItsDataAsABinAndTheDataLast() throws {
        #expect(try RenderImage(messagePack: Self.valid.messagePack) == Self.valid)
        #expect(Self.valid.value["data"] == .binary([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(Self.valid.value.mapValue?.keys.last == "data")
        #expect(try RenderImage.topic(surface: "main").rawValue == "render/image/main/")
    }

    @Test func theJSONFormOfDataAnArrayOfBytesDecodesToo() throws {
        let bytes = Self.payload("data", .array([.int(255), .int(216)]))
        #expect(try RenderImage(messagePack: bytes).data == [255, 216])
        #expect(Self.failure(Self.payload("data", .array([.int(256)])))?.context == "data[0]: not a byte")
        #expect(Self.failure(Self.payload("data", .array([.int(-1)])))?.context == "data[0]: not a byte")
    }

    /// A damage list of one rectangle.
    static func damage(_ x: Int64, _ y: Int64, _ width: Int64, _ height: Int64) -> Value {
        .array([.map(["x": .int(x), "y": .int(y), "width": .int(width), "height": .int(height)])])
    }

    static func input(_ device: String, _ seq: Int64, _ time: Int64) -> Value {
        .map(["device": .string(device), "seq": .int(seq), "source_time_ns": .int(time)])
    }

    static let hostile: [(String, Value, String)] = [
        ("width", .int(0), "width"), ("width", .int(8193), "width"), ("height", .int(-1), "height"),
        ("height", .uint(UInt64.max), "integer above Int64.max"), ("scale", .double(.nan), "scale"),
        ("scale", .double(.infinity), "scale"), ("scale", .double(0), "scale"), ("scale", .double(-2), "scale"),
        ("scale", .double(17), "scale"), ("frame", .int(0), "frame"), ("frame", .int(1 << 53), "frame"),
        ("encoding", .string("webp"), "encoding"), ("surface", .string(""), "surface"),
        ("surface", .string("a/b"), "surface"), ("surface", .string("a b"), "surface"),
        ("surface", .string(String(repeating: "s", count: 65)), "surface"), ("data", .binary([]), "data"),
        ("encode_ms", .double(.nan), "encode_ms"), ("encode_ms", .double(-1), "encode_ms"),
        ("damage", Self.damage(0, 0, 1601, 1), "damage[0]"), ("damage", Self.damage(1599, 999, 2, 1), "damage[0]"),
        ("damage", Self.damage(-1, 0, 1, 1), "damage[0].x"), ("damage", Self.damage(0, 0, 0, 1), "damage[0].width"),
        ("damage", .array([.map(["x": .int(0), "y": .int(0), "width": .int(1)])]), "damage[0].height"),
        ("damage", .array(Array(repeating: .map([:]), count: 65)), "damage"),
        ("input", Self.input("d", 0, 1), "input.seq"), ("input", Self.input("d", 1, -1), "input.source_time_ns"),
        ("input", Self.input("a/b", 1, 1), "input.device"), ("input", Self.input("\u{7}", 1, 1), "input.device"),
        ("input", .map(["seq": .int(1), "source_time_ns": .int(1)]), "input.device"),
    ]

    @Test(arguments: 0..<Self.hostile.count)
    func aValueOutsideTheSchemaIsRejectedNamingItsField(_ index: Int) {
        let (key, value, field) = Self.hostile[index]
        let error = Self.failure(Self.payload(key, value))
        #expect(error?.code == .invalidValue || error?.code == .missingField, "\(key) = \(value)")
        #expect(error?.context.hasPrefix(field) == true, "\(key) = \(value): \(String(describing: error))")
    }

    @Test func everyRequiredFieldIsRequired() {
        for field in RenderImage.fields where field.required {
            let error = Self.failure(Self.payload(field.name, nil))
            #expect(error?.code == .missingField && error?.context == field.name, "\(field.name)")
        }
    }

    @Test func anOversizedBinIsRejectedBeforeItIsCopied() {
        // A bin32 header claiming 33 MiB + 1 with the bytes present: refused by size, not by truncation.
        let size = RenderImage.maximumDataBytes + 1
        var bytes = Self.payload("data", nil)
        bytes[0] += 1  // one more key in the fixmap
        bytes += Value.string("data").messagePack
        bytes += [0xC6, UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        bytes += [UInt8](repeating: 0, count: size)
        #expect(Self.failure(bytes)?.context.hasPrefix("data: \(size) bytes") == true)
    }

    @Test func aLyingArrayCountIsTruncationNotAnAllocation() {
        var bytes = Self.payload("data", nil)
        bytes[0] += 1
        bytes += Value.string("data").messagePack + [0xDD, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(Self.failure(bytes)?.code == .truncated)
    }
}

import BusSchema
import ComponentCore
import GestureCore
import MemoStore
import RenderCore

extension FuzzTarget {
    static let jsonTokens = [
        "{", "}", "[", "]", "\"", ":", ",", "\\u", "\\ud800", "\\", "null", "true", "false", "1e999", "-", ".", "\n",
    ]

    /// `JSONReader.parse`: every JSON document of the repository.
    static let json = FuzzTarget("json", dictionary: jsonTokens, seeds: Self.jsonDocuments) { input in
        codeOf { _ = try input.withUnsafeBytes { try JSONReader.parse($0) } }
    }

    /// `SchemaValidator`: a document checked against every schema, and used as a schema itself
    /// (checking itself and a memo command), so odd schemas are covered as well as odd instances.
    static let schema = FuzzTarget("schema", dictionary: jsonTokens) { data in
        let validators = try data.schemaIDs().map { SchemaValidator(schema: try data.json("schemas/\($0)/v1.json")) }
        let instance = try data.json("schemas/memo.command/examples/create.json")
        let decode: @Sendable ([UInt8]) -> String? = { input in
            guard let document = try? input.withUnsafeBytes({ try JSONReader.parse($0) }) else { return "invalid_json" }
            let asSchema = SchemaValidator(schema: document)
            var violations = validators.flatMap { $0.violations(of: document) }
            violations += asSchema.violations(of: document) + asSchema.violations(of: instance)
            // Violations are the validator's normal answer; what is checked is that it gives one.
            return violations.allSatisfy { !$0.message.isEmpty } ? nil : "empty_violation"
        }
        return (try Self.jsonDocuments(data), decode)
    }

    /// Scene files: loaded by the gesture recognizer and the component host; a scene that loads
    /// gets a host and a tap replayed through its recognizers and components.
    static let scene = FuzzTarget(
        "scene", dictionary: jsonTokens + ["\"views\"", "\"recognizers\"", "\"frame\"", "\"component\"", "\"kind\""],
        seeds: { data in
            let paths =
                try data.files(in: "Tests/data/scenes", suffix: ".json")
                + data.files(in: "deploy/scenes", suffix: ".json")
            return try paths.map { try data.bytes($0) } + data.examples("scene").map { Array($0.json.utf8) }
        }
    ) { input in
        let scene: ComponentScene
        do throws(SceneError) {
            scene = ComponentScene(try Scene(json: String(decoding: input, as: UTF8.self), file: "fuzz.json"))
        } catch {
            return error.rule.rawValue
        }
        var host = ComponentHost(scene: scene)
        let (x, y) = (scene.gesture.width / 2, scene.gesture.height / 2)
        let frames = [TouchContact.Phase.began, .ended].enumerated().map { index, phase in
            TouchFrame {
                $0.device = "d0"
                $0.frame = UInt64(index)
                $0.tNs = Int64(index) * 50_000_000
                $0.contacts = [
                    TouchContact {
                        $0.id = 0
                        $0.phase = phase
                        $0.x = x
                        $0.y = y
                    }
                ]
            }
        }
        _ = host.start(at: SourceInstant(nanoseconds: 0), session: "fuzz")
        for event in GestureEngine.replay(frames, scene: scene.gesture) {
            _ = host.handle(event)
        }
        return nil
    }

    /// PNG input (`render-worker blur IN.png`): libpng's simplified reader. Chunk CRCs are
    /// recomputed after mutation, or libpng would reject nearly every input at the first CRC.
    static let png = FuzzTarget(
        "png", dictionary: ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "iCCP", "sBIT", "\u{89}PNG\r\n\u{1a}\n"],
        seeds: { _ in
            let images = try [(1, 1), (7, 5), (16, 12), (33, 2)].map { try TestPattern.frame(width: $0, height: $1) }
            let mask = try Image(width: 9, height: 4, channels: 1, fill: RGBA8(0, 0, 0, 128))
            return try (images + [mask]).map { try PNGCodec.encode($0) }
        },
        repair: PNGChunks.withCRCsRecomputed
    ) { input in
        codeOf { _ = try PNGCodec.decode(input) }
    }

    /// Memo commands off the bus: `MemoCommand(messagePack:)`, and for a command that does not
    /// decode, the rejection the memo store sends back (`MemoAck.rejecting`).
    static let memoCommand = FuzzTarget(
        "memo.command", dictionary: messagePackTokens + ["cmd_id", "client", "op", "memo_id", "base_version"],
        seeds: { data in try data.examples(MemoCommand.schema.id).map(\.messagePack) }
    ) { input in
        do {
            _ = try MemoCommand(messagePack: input)
            return nil
        } catch let error as CodecError {
            return MemoAck.rejecting(payload: input, error: error, seq: 1) == nil ? "unanswerable" : "rejected"
        } catch {
            return code(error)
        }
    }

    /// Memo commands as JSON lines (`memo-store apply`).
    static let memoJSONLines = FuzzTarget(
        "memo.jsonl", dictionary: jsonTokens + ["\"cmd_id\"", "\"client\"", "\"op\""],
        seeds: { data in try data.examples(MemoCommand.schema.id).map { Array($0.json.utf8) } }
    ) { input in
        switch MemoJSONLines.decode(String(decoding: input, as: UTF8.self), seq: 1) {
        case .command: return nil
        case .rejected: return "rejected"
        case .unusable: return "unusable"
        }
    }

    private static func jsonDocuments(_ data: RepositoryData) throws -> [[UInt8]] {
        let ids = try data.schemaIDs()
        let schemas = try ids.map { try data.bytes("schemas/\($0)/v1.json") }
        return try schemas + ids.flatMap { try data.examples($0).map { Array($0.json.utf8) } }
    }
}

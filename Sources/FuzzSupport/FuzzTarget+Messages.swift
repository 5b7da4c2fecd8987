import BusSchema

extension FuzzTarget {
    /// MessagePack markers and the envelope's keys, for the binary decoders.
    static let messagePackTokens = [
        "\u{c0}", "\u{cc}", "\u{cd}", "\u{ce}", "\u{cf}", "\u{d0}", "\u{d3}", "\u{d9}", "\u{dc}", "\u{dd}", "\u{de}",
        "\u{df}", "\u{ca}", "\u{cb}", "\u{c4}", "\u{c7}", "\u{d4}", "seq", "mono", "wall", "schema", "epoch",
    ]

    /// `Envelope(messagePack:)`: a header frame, general path.
    static let envelope = FuzzTarget(
        "envelope", dictionary: messagePackTokens, maximumLength: 1024, seeds: Self.headerSeeds
    ) { input in
        codeOf { try input.withUnsafeBytes { _ = try Envelope(messagePack: $0) } }
    }

    /// `EnvelopeDecoder`, primed with a publisher's header so mutated headers take the fast path,
    /// and checked against the general path: both must give the same envelope or both throw.
    static let envelopeDecoder = FuzzTarget(
        "envelope.decoder", dictionary: messagePackTokens, maximumLength: 1024, seeds: Self.headerSeeds
    ) { input in
        var decoder = EnvelopeDecoder()
        _ = Self.primer.withUnsafeBytes { try? decoder.decode($0) }
        let fast = Result { try input.withUnsafeBytes { try decoder.decode($0) } }
        let general = Result { try input.withUnsafeBytes { try Envelope(messagePack: $0) } }
        switch (fast, general) {
        case (.success(let a), .success(let b)) where a == b: return nil
        case (.failure(let error), .failure): return code(error)
        default: preconditionFailure("EnvelopeDecoder gave \(fast), Envelope(messagePack:) gave \(general)")
        }
    }

    /// `MessagePackReader.readValue()`: any MessagePack value.
    static let value = FuzzTarget(
        "value", dictionary: messagePackTokens, seeds: { data in try Self.allExamples(data).map(\.messagePack) }
    ) { input in
        codeOf { _ = try Value(messagePack: input) }
    }

    /// One typed payload decoder; a payload it accepts must also decode again after encoding.
    static func payload(_ type: any BusMessage.Type) -> FuzzTarget {
        FuzzTarget(
            "payload.\(type.schema.id)", dictionary: messagePackTokens,
            seeds: { data in try data.examples(type.schema.id).map(\.messagePack) }
        ) { input in
            codeOf {
                let message = try type.init(messagePack: input)
                let again = Result { try type.init(messagePack: message.messagePack) }
                if case .failure(let error) = again {
                    preconditionFailure("\(type.schema.id): its own encoding does not decode: \(error)")
                }
            }
        }
    }

    /// A codec with a hand-tuned path (touch frame, gesture event), checked against its generated
    /// reference on the same input: both give the same message or both throw, and what they
    /// decoded reads back the same from either encoder through either decoder.
    static func fastPath<M: BusMessage & Equatable>(
        _ type: M.Type, reference: @escaping @Sendable (inout MessagePackReader) throws -> M,
        encodeReference: @escaping @Sendable (M, inout MessagePackWriter) -> Void
    ) -> FuzzTarget {
        let decodeReference = { @Sendable (bytes: [UInt8]) throws -> M in
            try bytes.withUnsafeBytes { raw in
                var reader = MessagePackReader(raw)
                let message = try reference(&reader)
                try reader.expectEnd()
                return message
            }
        }
        return FuzzTarget(
            "fastpath.\(type.schema.id)", dictionary: messagePackTokens,
            seeds: { data in try data.examples(type.schema.id).map(\.messagePack) }
        ) { input in
            let fast = Result { try M(messagePack: input) }
            let general = Result { try decodeReference(input) }
            switch (fast, general) {
            case (.success(let message), .success(let same)) where message == same:
                var writer = MessagePackWriter()
                encodeReference(message, &writer)
                let readBack = [
                    try? M(messagePack: writer.bytes), try? decodeReference(writer.bytes),
                    try? M(messagePack: message.messagePack), try? decodeReference(message.messagePack),
                ]
                precondition(
                    readBack.allSatisfy { $0 == message }, "\(type.schema.id): \(message) reads back as \(readBack)")
                return nil
            case (.failure(let error), .failure): return code(error)
            default: preconditionFailure("\(type.schema.id): the fast path gave \(fast), the reference \(general)")
            }
        }
    }

    /// A realistic header: a publisher's prefix and the fixed tail.
    private static let primer: [UInt8] = {
        var writer = MessagePackWriter()
        Envelope(
            schema: TouchFrame.schema, publisher: "input-source", epoch: 6_839_485_739_123_457, seq: 1,
            mono: 183_456_789_012_345, wall: 1_767_225_600_123_456_789
        ).encode(to: &writer)
        return writer.bytes
    }()

    private static func headerSeeds(_ data: RepositoryData) throws -> [[UInt8]] {
        try [Self.primer] + data.examples("envelope").map(\.messagePack)
    }

    /// Every schema example, parsed.
    static func allExamples(_ data: RepositoryData) throws -> [Value] {
        try data.schemaIDs().flatMap { try data.examples($0) }
    }
}

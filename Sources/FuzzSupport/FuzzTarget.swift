/// One decoder under fuzzing: where its seeds come from and how one input is fed to it.
public struct FuzzTarget: Sendable {
    /// A target ready to run: its seeds read and whatever its decoder needs loaded.
    public struct Harness: Sendable {
        /// The valid inputs mutations start from.
        public let seeds: [[UInt8]]
        fileprivate let repair: (@Sendable ([UInt8]) -> [UInt8])?
        fileprivate let decode: @Sendable ([UInt8]) -> String?
        fileprivate let target: FuzzTarget

        /// The mutator for a run of this target.
        public func mutator(seed: UInt64) -> Mutator {
            Mutator(
                seed: seed, corpus: self.seeds, dictionary: self.target.dictionary,
                maximumLength: self.target.maximumLength)
        }

        /// Prepares a mutated input for the decoder (the same for the loop, libFuzzer and replays).
        public func prepare(_ input: [UInt8]) -> [UInt8] {
            self.repair?(input) ?? input
        }

        /// Feeds one prepared input to the decoder; nil when it was accepted, else the error code.
        public func run(_ input: [UInt8]) -> String? {
            self.decode(input)
        }
    }

    /// The name scripts and tests use (`envelope`, `payload.touch.frame`, `png`, …).
    public let name: String
    /// Tokens of the input format for the ``Mutator``.
    public let dictionary: [[UInt8]]
    /// The longest input worth making for this decoder.
    public let maximumLength: Int
    private let repair: (@Sendable ([UInt8]) -> [UInt8])?
    private let make: @Sendable (RepositoryData) throws -> (seeds: [[UInt8]], decode: @Sendable ([UInt8]) -> String?)

    /// - Parameters:
    ///   - repair: undoes what makes nearly every mutation fail one cheap check (a PNG's CRCs), so
    ///     mutated inputs reach the code behind it.
    ///   - load: reads the seeds (valid inputs) and makes the decode function, which feeds one
    ///     input and returns nil when the decoder accepted it, else the error code it reported.
    ///     It must not crash or hang, whatever the input.
    init(
        _ name: String, dictionary: [String] = [], maximumLength: Int = 1 << 14,
        repair: (@Sendable ([UInt8]) -> [UInt8])? = nil,
        load: @escaping @Sendable (RepositoryData) throws -> (seeds: [[UInt8]], decode: @Sendable ([UInt8]) -> String?)
    ) {
        self.name = name
        self.dictionary = dictionary.map { Array($0.utf8) }
        self.maximumLength = maximumLength
        self.repair = repair
        self.make = load
    }

    /// A target whose decoder needs nothing from the repository but its seeds.
    init(
        _ name: String, dictionary: [String] = [], maximumLength: Int = 1 << 14,
        seeds: @escaping @Sendable (RepositoryData) throws -> [[UInt8]],
        repair: (@Sendable ([UInt8]) -> [UInt8])? = nil,
        decode: @escaping @Sendable ([UInt8]) -> String?
    ) {
        self.init(name, dictionary: dictionary, maximumLength: maximumLength, repair: repair) { data in
            (try seeds(data), decode)
        }
    }

    /// Reads the seeds and loads what the decoder needs.
    ///
    /// - Throws: ``FuzzError`` when a seed file is missing or does not parse.
    public func load(_ data: RepositoryData) throws -> Harness {
        let (seeds, decode) = try self.make(data)
        return Harness(seeds: seeds, repair: self.repair, decode: decode, target: self)
    }
}

/// A fuzz run could not start: a seed file is missing or does not parse.
public struct FuzzError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

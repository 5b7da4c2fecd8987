import BusSchema
import InputCore
import ServiceSupport

/// The touch frames of a touch script (`.jsonl`) or an evemu recording (`.events`), read a line at
/// a time as the service takes them: memory stays bounded whatever the file's size (one line at
/// most ``LineReader/defaultMaxLineBytes``), as in the offline tools.
///
/// Problems in the file (a bad line, a line over the limit) go to stderr with the file's path and
/// the line's number and are skipped. What cannot be played past (the file becomes unreadable, or
/// a script renamed with `--name` turns out to have a second device) ends the frames and is kept
/// in ``failure`` for the service to fail with once it has sent them.
public final class FileFrames {
    /// Which kind of file, and how it is turned into frames.
    public enum Kind: Sendable {
        /// A touch script; points outside `bounds` (the scene's size) are refused.
        case script(bounds: (width: Double, height: Double)?)
        /// An evemu recording published as device `device`, its points mapped onto the scene's size;
        /// `desc` gives the axes when the recording has none.
        case evemu(device: String, desc: DeviceDescription?, sceneWidth: Double?, sceneHeight: Double?)
    }

    public let path: String
    private let kind: Kind
    /// The one device a script's frames are renamed to (`--name`), if any.
    private let rename: String?
    /// Why the frames ended early, if they did.
    public private(set) var failure: ConfigurationError?

    /// Checks that `path` can be read; nothing is read yet.
    ///
    /// - Throws: ``ConfigurationError`` naming the file if it cannot be opened.
    public init(path: String, kind: Kind, rename: String? = nil) throws {
        _ = try LineReader(path: path)
        self.path = path
        self.kind = kind
        self.rename = rename
    }

    /// The frames, read as they are taken: once through the file, or (`loop`) again and again.
    public func frames(loop: Bool) -> AnySequence<TouchFrame> {
        loop ? FramePacer.looping { self.pass() } : AnySequence { self.pass() }
    }

    /// One read through the file.
    private func pass() -> AnyIterator<TouchFrame> {
        let lines: Lines
        do {
            lines = try Lines(path: self.path)
        } catch {
            self.failure = error
            return AnyIterator { nil }
        }
        let convert = self.converter()
        var pending: [TouchFrame] = []
        var taken = 0
        var ended = false
        return AnyIterator { [self] in
            while taken == pending.count {
                pending.removeAll(keepingCapacity: true)
                taken = 0
                guard !ended, self.failure == nil else { return nil }
                switch lines.next() {
                case .text(let text, let number)?: pending = convert(text, number)
                case .tooLong(let number)?:
                    Log.error(
                        "input-source",
                        "\(self.path): line \(number): longer than \(LineReader.defaultMaxLineBytes) bytes; skipped")
                case nil:
                    ended = true
                    if let failure = lines.failure { self.failure = failure }
                    pending = convert(nil, 0)
                }
                do throws(ConfigurationError) {
                    pending = try self.renamed(pending)
                } catch {
                    self.failure = error
                    return nil
                }
            }
            taken += 1
            return pending[taken - 1]
        }
    }

    /// A function from one line (nil: the end of the file) to the frames it completes.
    private func converter() -> (String?, Int) -> [TouchFrame] {
        switch self.kind {
        case .script(let bounds):
            var parser = TouchScript.Parser(bounds: bounds)
            var framer = TouchScriptFramer()
            return { [path] text, number in
                guard let text else { return framer.finish() }
                do throws(InputProblem) {
                    guard let line = try parser.parse(text, lineNumber: number) else { return [] }
                    let added = framer.add(line, lineNumber: number)
                    if let problem = added.problem { Log.error("input-source", "\(path): \(problem)") }
                    return added.frames
                } catch {
                    Log.error("input-source", "\(path): \(error)")
                    return []
                }
            }
        case .evemu(let device, let desc, let sceneWidth, let sceneHeight):
            var parser = EvemuRecording.Parser(description: desc)
            var decoder: MultitouchDecoder?
            return { [path] text, number in
                guard let text else { return [] }
                switch parser.add(Substring(text), number: number) {
                case .event(let event)?:
                    // The header comes before the events: the axes are known by the first one.
                    if decoder == nil {
                        let recording = parser.recording
                        let description =
                            recording.hasDescription ? recording.description : desc ?? recording.description
                        decoder = MultitouchDecoder(
                            device: device, description: description,
                            mapper: CoordinateMapper(
                                description: description, sceneWidth: sceneWidth, sceneHeight: sceneHeight))
                    }
                    return decoder?.handle(.eventRead(event)).map { [$0] } ?? []
                case .problem(let problem)?:
                    Log.error("input-source", "\(path): \(problem)")
                    return []
                case nil:
                    return []
                }
            }
        }
    }

    /// `frames` under the one name of `--name`; a second device in the script is a failure.
    private func renamed(_ frames: [TouchFrame]) throws(ConfigurationError) -> [TouchFrame] {
        guard let name = self.rename else { return frames }
        return try frames.map { frame throws(ConfigurationError) in
            if self.scriptDevice == nil { self.scriptDevice = frame.device }
            guard frame.device == self.scriptDevice else {
                throw ConfigurationError(
                    "--name renames a script's one device; \(self.path) has \(self.scriptDevice ?? "") and "
                        + frame.device)
            }
            var frame = frame
            frame.device = name
            return frame
        }
    }

    /// The device of a renamed script, once its first frame is read.
    private var scriptDevice: String?

    /// A ``LineReader`` in a box, so that an iterator can hold it; a read error ends the lines.
    private final class Lines {
        private var reader: LineReader
        private(set) var failure: ConfigurationError?

        init(path: String) throws(ConfigurationError) {
            do {
                self.reader = try LineReader(path: path)
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError("\(path): \(error)")
            }
        }

        func next() -> LineReader.Line? {
            do {
                return try self.reader.next()
            } catch let error as ConfigurationError {
                self.failure = error
            } catch {
                self.failure = ConfigurationError("\(error)")
            }
            return nil
        }
    }
}

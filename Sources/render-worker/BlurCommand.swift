import Foundation
import RenderCore
import ServiceSupport

/// `render-worker blur IN.png OUT.png (--sigma S | --level weak|default|strong)`.
enum BlurCommand {
    static func run(_ options: inout Options) throws {
        guard options.positionals.count == 3 else {
            throw UsageError("blur needs IN.png and OUT.png")
        }
        let mode: BlurMode
        switch (try options.double("sigma", in: 0...2000), options.string("level")) {
        case (let sigma?, nil):
            mode = .gaussian(sigma: sigma)
        case (nil, let level?):
            guard let preset = BlurMode(level: level) else {
                throw UsageError("--level must be weak, default or strong, got '\(level)'")
            }
            mode = preset
        default:
            throw UsageError("give exactly one of --sigma and --level")
        }
        let kernel = BlurKernel(
            threads: try options.int("threads", in: 1...64, default: 2),
            gaussianPasses: try options.int("passes", in: 3...6, default: 3))
        var image = try PNGCodec.decode(try Files.read(options.positionals[1]))
        try kernel.apply(mode, to: &image)
        try Files.writeAtomically(try PNGCodec.encode(image), to: options.positionals[2])
    }
}

/// Whole-file reads and all-or-nothing writes (a temporary file renamed into place).
enum Files {
    struct FileError: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(description: "cannot read \(path)")
        }
        return [UInt8](data)
    }

    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FileError(description: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}

import Foundation
import UIBusCodegen

/// `swift run uibus-codegen [--check] [REPOSITORY]`: regenerates Sources/BusSchema/Generated/ from
/// schemas/ (REPOSITORY defaults to the current directory). With `--check` it writes nothing and
/// exits 1 if the committed files differ from what the schemas generate.
var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
arguments.removeAll { $0 == "--check" }
guard arguments.count <= 1, !arguments.contains(where: { $0.hasPrefix("-") }) else {
    FileHandle.standardError.write(Data("usage: uibus-codegen [--check] [REPOSITORY]\n".utf8))
    exit(64)
}
let repository = arguments.first ?? FileManager.default.currentDirectoryPath
do {
    if check {
        let files = try Codegen.generate(schemasDirectory: "\(repository)/schemas")
        let directory = "\(repository)/\(Codegen.outputDirectory)"
        let onDisk = Set(
            (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0.hasSuffix(".swift") } ?? [])
        let stale = Set(files.keys).union(onDisk).filter { name in
            FileManager.default.contents(atPath: "\(directory)/\(name)").map { String(decoding: $0, as: UTF8.self) }
                != files[name]
        }
        for name in stale.sorted() { print("stale: \(Codegen.outputDirectory)/\(name)") }
        exit(stale.isEmpty ? 0 : 1)
    }
    for name in try Codegen.write(repository: repository) { print("wrote \(Codegen.outputDirectory)/\(name)") }
} catch {
    FileHandle.standardError.write(Data("uibus-codegen: \(error)\n".utf8))
    exit(65)
}

import Foundation
import FuzzSupport

/// The target libFuzzer drives: `UIBUS_FUZZ_TARGET` names it, `UIBUS_ROOT` is the repository
/// (for the decoders that load schemas). Loaded at the first input.
let harness: FuzzTarget.Harness = {
    let environment = ProcessInfo.processInfo.environment
    guard let name = environment["UIBUS_FUZZ_TARGET"], let target = FuzzTarget.named(name) else {
        fatalError("set UIBUS_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: " "))")
    }
    do {
        return try target.load(RepositoryData(root: environment["UIBUS_ROOT"] ?? "."))
    } catch {
        fatalError("\(name): \(error)")
    }
}()

/// libFuzzer's entry point: one input, fed to the decoder as the mutation loop feeds it.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    _ = harness.run(harness.prepare(input))
    return 0
}

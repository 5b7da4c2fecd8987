#if canImport(Glibc)
    import Glibc
#endif

/// Release builds compile RenderCore for x86-64-v3 (AVX2 + FMA; see Package.swift), so any call
/// into it would die of SIGILL on an older CPU. This check runs first, in code built for the
/// baseline, and turns that into a clear error.
enum CPUCheck {
    /// The `/proc/cpuinfo` flags the release RenderCore needs (none in debug builds).
    static var required: [String] {
        #if RENDERCORE_X86_64_V3
            ["avx2", "fma"]
        #else
            []
        #endif
    }

    /// The required flags this CPU lacks; empty when all are present or the flags cannot be read
    /// (then the kernel is trusted to be right, as before this check existed).
    static func missing(cpuinfo path: String = "/proc/cpuinfo") -> [String] {
        guard !required.isEmpty, let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix("flags") else { continue }
            let flags = Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
            return required.filter { !flags.contains($0) }
        }
        return []
    }
}

// swift-tools-version: 6.0
import PackageDescription

/// The libFuzzer build of the decoders' fuzz targets (`Tests/fuzz/run --libfuzzer`). A package of
/// its own: libFuzzer brings `main`, so the entry point is built with `-parse-as-library`, which
/// the root package's executables cannot take.
let package = Package(
    name: "UIBusLibFuzzer",
    dependencies: [.package(name: "UIBus", path: "../../..")],
    targets: [
        .executableTarget(
            name: "uibus-libfuzzer", dependencies: [.product(name: "FuzzSupport", package: "UIBus")])
    ]
)

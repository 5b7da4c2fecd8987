// swift-tools-version: 6.0
import PackageDescription

/// Pure cores, the bus and the services; see ../shared/DESIGN.md for the layout.
let package = Package(
    name: "UIBus",
    products: [
        .library(name: "BusSchema", targets: ["BusSchema"]),
        .library(name: "Bus", targets: ["Bus"]),
        .library(name: "MemoStore", targets: ["MemoStore"]),
        .executable(name: "bus-proxy", targets: ["bus-proxy"]),
        .executable(name: "bus-tap", targets: ["bus-tap"]),
        .executable(name: "memo-store", targets: ["memo-store"]),
    ],
    targets: [
        // System libraries: a module map and a shim each, headers from Debian's -dev packages.
        .systemLibrary(name: "CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),

        // Pure libraries: no ZeroMQ, no SQLite, no clock reads.
        .target(name: "BusSchema"),

        // The bus and service plumbing.
        .target(name: "Bus", dependencies: ["CZeroMQ", "BusSchema"]),
        .target(name: "ServiceSupport", dependencies: ["Bus", "BusSchema"]),
        .target(name: "BusTools", dependencies: ["Bus", "BusSchema"]),

        // Memo persistence on SQLite (no ZeroMQ).
        .target(name: "MemoStore", dependencies: ["CSQLite", "BusSchema"]),

        // Thin executables.
        .executableTarget(name: "bus-proxy", dependencies: ["Bus", "BusSchema", "ServiceSupport"]),
        .executableTarget(name: "bus-tap", dependencies: ["Bus", "BusSchema", "BusTools", "ServiceSupport"]),
        .executableTarget(name: "memo-store", dependencies: ["MemoStore", "BusSchema"]),
        .executableTarget(
            name: "memo-bench", dependencies: ["MemoStore", "BusSchema"], path: "benchmarks/memo",
            exclude: ["crash_test.py", "README.md"]),

        .testTarget(name: "BusSchemaTests", dependencies: ["BusSchema"]),
        .testTarget(name: "BusTests", dependencies: ["Bus", "BusSchema", "BusTools", "ServiceSupport"]),
        .testTarget(name: "MemoStoreTests", dependencies: ["MemoStore", "BusSchema", "memo-store"]),
    ]
)

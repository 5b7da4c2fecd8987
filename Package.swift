// swift-tools-version: 6.0
import PackageDescription

/// Pure cores, the bus and the services; see ../shared/DESIGN.md for the layout.
let package = Package(
    name: "UIBus",
    products: [
        .library(name: "BusSchema", targets: ["BusSchema"]),
        .library(name: "Bus", targets: ["Bus"]),
        .library(name: "InputCore", targets: ["InputCore"]),
        .library(name: "GestureCore", targets: ["GestureCore"]),
        .library(name: "ComponentCore", targets: ["ComponentCore"]),
        .executable(name: "bus-proxy", targets: ["bus-proxy"]),
        .executable(name: "bus-tap", targets: ["bus-tap"]),
        .executable(name: "uibus-supervisor", targets: ["uibus-supervisor"]),
        .executable(name: "input-source", targets: ["input-source"]),
        .executable(name: "gesture-recognizer", targets: ["gesture-recognizer"]),
        .library(name: "RenderCore", targets: ["RenderCore"]),
        .executable(name: "render-worker", targets: ["render-worker"]),
        .executable(name: "component-host", targets: ["component-host"]),
        .library(name: "MemoStore", targets: ["MemoStore"]),
        .executable(name: "memo-store", targets: ["memo-store"]),
        .executable(name: "uibus-report", targets: ["uibus-report"]),
        .executable(name: "bus-flood", targets: ["bus-flood"]),
        .executable(name: "uibus-faults", targets: ["uibus-faults"]),
        .library(name: "FuzzSupport", targets: ["FuzzSupport"]),
        .executable(name: "uibus-fuzz", targets: ["uibus-fuzz"]),
        .executable(name: "uibus-view", targets: ["uibus-view"]),
        .executable(name: "uibus-codegen", targets: ["uibus-codegen"]),
    ],
    targets: [
        // System libraries: a module map and a shim each, headers from Debian's -dev packages.
        .systemLibrary(name: "CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CWebSockets", providers: [.apt(["libwebsockets-dev"])]),

        // Pure libraries: no ZeroMQ, no SQLite, no clock reads.
        .target(name: "BusSchema"),
        .target(name: "InputCore", dependencies: ["BusSchema"]),
        .target(name: "GestureCore", dependencies: ["BusSchema"]),
        .target(name: "SupervisorCore", dependencies: ["BusSchema"]),
        .target(
            name: "RenderCore", dependencies: ["BusSchema", "CPNG", "CFreeType", "CTurboJPEG"],
            // The blur kernel's SIMD16 loops need AVX2 + FMA (present on the 2-core build machine);
            // render-worker checks the CPU before calling in (CPUCheck.swift), so an older one gets
            // a clear error instead of SIGILL. Keep the two settings together.
            swiftSettings: [.unsafeFlags(["-target-cpu", "haswell"], .when(configuration: .release))]),
        .target(name: "ComponentCore", dependencies: ["BusSchema", "GestureCore"]),

        // The bus and service plumbing.
        .target(name: "Bus", dependencies: ["CZeroMQ", "BusSchema", "CLinux"]),
        .target(name: "ServiceSupport", dependencies: ["Bus", "BusSchema", "CLinux"]),
        .target(name: "BusTools", dependencies: ["Bus", "BusSchema", "CZeroMQ", "CZstd", "ServiceSupport"]),

        // Service logic the thin executables run, imported by tests.
        .target(name: "InputService", dependencies: ["InputCore", "Bus", "BusSchema", "ServiceSupport", "CLinux"]),
        .target(name: "GestureService", dependencies: ["GestureCore", "Bus", "BusSchema", "ServiceSupport"]),
        .target(name: "RenderService", dependencies: ["RenderCore", "Bus", "BusSchema", "ServiceSupport"]),

        .target(name: "Supervisor", dependencies: ["SupervisorCore", "Bus", "BusSchema", "ServiceSupport"]),
        // The fault drill: the stack under the supervisor, a flood, a memo driver, signals.
        .target(name: "FaultInjection", dependencies: ["Bus", "BusSchema", "MemoStore", "ServiceSupport"]),

        // Child processes, a real proxy and deadline waits for cross-process tests.
        .target(name: "BusTestSupport", dependencies: ["Bus", "BusSchema", "ServiceSupport"]),
        // Messages with the fields tests vary as parameters; BusSchema only, so pure-core tests can use them.
        .target(name: "MessageFixtures", dependencies: ["BusSchema"], path: "Tests/MessageFixtures"),
        .target(name: "ComponentService", dependencies: ["ComponentCore", "Bus", "BusSchema", "ServiceSupport"]),

        // Memo persistence on SQLite (no ZeroMQ).
        .target(name: "MemoStore", dependencies: ["CSQLite", "BusSchema"]),
        .target(name: "MemoService", dependencies: ["MemoStore", "Bus", "BusSchema", "ServiceSupport"]),

        // The live view: a page and a WebSocket (libwebsockets) in front of the bus.
        .target(
            name: "ViewService", dependencies: ["CWebSockets", "Bus", "BusSchema", "DemoReport", "ServiceSupport"]),

        // The demo report: recording -> model -> one HTML page (no ZeroMQ calls; MCAPReader from BusTools).
        .target(name: "DemoReport", dependencies: ["BusSchema", "BusTools", "ServiceSupport"]),

        // Floods of touch frames or memo commands into a running pipeline, measured at the far end.
        .target(
            name: "Flood",
            dependencies: ["Bus", "BusSchema", "InputCore", "DemoReport", "ServiceSupport"]),

        // Every decoder fed mutated input: the seeded loop (`uibus-fuzz`, tests) and libFuzzer (Tests/fuzz).
        .target(
            name: "FuzzSupport",
            dependencies: ["BusSchema", "InputCore", "GestureCore", "ComponentCore", "RenderCore", "MemoStore"]),

        // Thin executables.
        // The message type generator: schemas/ → Sources/BusSchema/Generated/.
        .target(name: "UIBusCodegen", dependencies: ["BusSchema"]),
        .executableTarget(name: "uibus-codegen", dependencies: ["UIBusCodegen"]),
        .executableTarget(name: "bus-flood", dependencies: ["Flood", "ServiceSupport"]),
        .executableTarget(name: "uibus-fuzz", dependencies: ["FuzzSupport", "ServiceSupport"]),
        .executableTarget(name: "uibus-report", dependencies: ["DemoReport", "ServiceSupport"]),
        .executableTarget(name: "bus-proxy", dependencies: ["Bus", "ServiceSupport"]),
        .executableTarget(name: "bus-tap", dependencies: ["BusTools", "ServiceSupport"]),
        .executableTarget(name: "uibus-supervisor", dependencies: ["Supervisor", "ServiceSupport"]),
        .executableTarget(name: "uibus-view", dependencies: ["ViewService", "BusSchema", "ServiceSupport"]),
        .executableTarget(name: "uibus-faults", dependencies: ["FaultInjection", "ServiceSupport"]),
        .executableTarget(
            name: "memo-store", dependencies: ["MemoStore", "MemoService", "BusSchema", "ServiceSupport"]),
        .executableTarget(
            name: "input-source", dependencies: ["InputCore", "InputService", "BusSchema", "ServiceSupport"]),
        .executableTarget(
            name: "gesture-recognizer",
            dependencies: ["GestureCore", "GestureService", "InputCore", "BusSchema", "ServiceSupport"]),
        .executableTarget(
            name: "component-host", dependencies: ["ComponentService", "ComponentCore", "BusSchema", "ServiceSupport"]),

        // Benchmarks (release builds only; never timed in tests).
        .executableTarget(
            name: "gesture-bench", dependencies: ["GestureCore", "InputCore", "BusSchema", "ServiceSupport"],
            path: "benchmarks/gestures", exclude: ["README.md"]),
        .executableTarget(
            name: "bus-bench", dependencies: ["Bus", "BusSchema", "CZeroMQ", "ServiceSupport"], path: "benchmarks/bus",
            exclude: ["raw_hop.c"]),

        .executableTarget(
            name: "render-worker", dependencies: ["BusSchema", "RenderCore", "RenderService", "ServiceSupport"],
            // Tells the CPU check (CPUCheck.swift) that the release RenderCore needs AVX2 + FMA.
            swiftSettings: [.define("RENDERCORE_X86_64_V3", .when(configuration: .release))]),

        .executableTarget(
            name: "memo-bench", dependencies: ["MemoStore", "BusSchema", "ServiceSupport"], path: "benchmarks/memo",
            exclude: ["crash_test.py", "disk_full_test.py", "README.md"]),
        .executableTarget(
            name: "component-bench", dependencies: ["ComponentCore", "BusSchema", "ServiceSupport"],
            path: "benchmarks/components", exclude: ["README.md"]),

        .testTarget(name: "BusSchemaTests", dependencies: ["BusSchema", "MessageFixtures", "UIBusCodegen"]),
        .testTarget(name: "ViewServiceTests", dependencies: ["ViewService", "BusSchema", "MessageFixtures"]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzSupport", "BusSchema", "InputCore", "RenderCore"]),
        .testTarget(
            name: "BusTests",
            dependencies: ["Bus", "BusSchema", "BusTools", "ServiceSupport", "BusTestSupport", "MessageFixtures"]),
        .testTarget(name: "InputCoreTests", dependencies: ["InputCore", "BusSchema", "MessageFixtures"]),
        .testTarget(
            name: "GestureCoreTests", dependencies: ["GestureCore", "InputCore", "BusSchema", "MessageFixtures"]),
        .testTarget(name: "SupervisorCoreTests", dependencies: ["SupervisorCore"]),
        .testTarget(name: "SupervisorTests", dependencies: ["Bus", "BusSchema", "BusTestSupport", "FaultInjection"]),
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "InputService", "GestureService", "InputCore", "GestureCore", "Bus", "BusSchema", "BusTestSupport",
                "MessageFixtures", "ServiceSupport",
            ]),
        .testTarget(name: "RenderCoreTests", dependencies: ["BusSchema", "RenderCore"], exclude: ["Golden"]),
        .testTarget(
            name: "ComponentCoreTests", dependencies: ["ComponentCore", "GestureCore", "BusSchema", "MessageFixtures"]),
        .testTarget(
            name: "ComponentServiceTests",
            dependencies: ["ComponentService", "Bus", "BusSchema", "BusTestSupport", "MessageFixtures"]),
        .testTarget(
            name: "RenderServiceTests",
            dependencies: [
                "RenderService", "RenderCore", "ComponentCore", "Bus", "BusSchema", "BusTestSupport", "MessageFixtures",
                "ServiceSupport",
            ]),
        .testTarget(
            name: "FloodTests",
            dependencies: [
                "Flood", "Bus", "BusSchema", "BusTestSupport", "bus-flood", "bus-proxy", "gesture-recognizer",
                "component-host", "memo-store",
            ]),
        .testTarget(name: "DemoReportTests", dependencies: ["DemoReport", "BusSchema", "BusTools"]),
        .testTarget(
            name: "MemoStoreTests",
            dependencies: ["MemoStore", "BusSchema", "BusTestSupport", "MessageFixtures", "memo-store"]),
        .testTarget(
            name: "MemoServiceTests",
            dependencies: [
                "MemoStore", "Bus", "BusSchema", "BusTestSupport", "memo-store", "bus-proxy", "component-host",
            ]),
    ]
)

import Bus
import BusSchema
import BusTestSupport
import Foundation
import Glibc
import Testing

@Suite struct ProxyProcessTests {
    @Test func aRefusedSecondProxyLeavesTheRunningOneWorkingAndAThirdIsRefusedToo() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let lock = proxy.directory + "/run/bus-proxy.lock"
        for _ in 0..<2 {
            let (status, _, stderr) = try ChildProcess.run("bus-proxy", [], bus: proxy.busFile)
            #expect(status == 1)
            #expect(stderr.contains("held by pid \(proxy.process.pid)"))
            #expect(FileManager.default.fileExists(atPath: lock))
            #expect(proxy.config.ipcPaths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        }
        let context = try ZMQContext()
        let subscriber = try Subscriber(context: context, endpoint: proxy.config.subscribe, prefixes: ["t/"])
        let publisher = try Publisher(context: context, endpoint: proxy.config.publish, name: "after-refusal")
        let topic = try Topic("t/x/")
        #expect(try publisher.waitForSubscriber(matching: topic, timeoutMs: 10_000))
        try publisher.publish(.map(["n": .int(1)]), schema: SchemaID("test.t", major: 1, minor: 0), on: topic)
        var delivery: Delivery?
        try waitUntil("a message through the first proxy") {
            delivery = try subscriber.receive(timeoutMs: 100)
            return delivery != nil
        }
        #expect(delivery?.topic == "t/x/")
    }

    @Test func aRunDirectoryThatIsASymlinkIsRefusedAndItsTargetLeftAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-link-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/elsewhere"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        chmod(target, 0o755)
        try "someone's file".write(toFile: target + "/in", atomically: true, encoding: .utf8)
        #expect(symlink(target, directory + "/run") == 0)
        let config = BusConfig(publish: "ipc://\(directory)/run/in", subscribe: "ipc://\(directory)/run/out")
        let proxy = try BusProxy(context: try ZMQContext(), config: config)
        #expect { try proxy.bind() } throws: { "\($0)".contains("\(directory)/run is a symbolic link") }
        proxy.close()
        #expect(PrivateDirectory.permissions(of: target) == 0o755)
        #expect(FileManager.default.fileExists(atPath: target + "/in"))
        #expect(!FileManager.default.fileExists(atPath: target + "/bus-proxy.lock"))
    }

    /// A test that fails before it stops its proxy leaks nothing: the helper stops it on its way out.
    @Test func aProxyItsTestLetsGoOfIsStoppedAndItsDirectoryRemoved() throws {
        var pid: Int32 = 0
        var directory = ""
        do {
            let proxy = try ProxyProcess()
            pid = proxy.process.pid
            directory = proxy.directory
        }
        #expect(kill(pid, 0) != 0, "the proxy is gone")
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func sigtermStopsTheProxyCleanlyAndRemovesItsSocketFiles() throws {
        let proxy = try ProxyProcess()
        let paths = proxy.config.ipcPaths
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        proxy.process.signal(SIGTERM)
        #expect(try proxy.process.wait() == 0)
        #expect(paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        try? FileManager.default.removeItem(atPath: proxy.directory)
    }

    @Test func socketFilesLeftByAKilledProxyAreCleanedUp() throws {
        let first = try ProxyProcess()
        first.process.signal(SIGKILL)
        try first.process.wait()
        #expect(first.config.ipcPaths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let second = try ChildProcess("bus-proxy", [], bus: first.busFile)
        try second.waitForLine("ready")
        let echo = try ChildProcess("bus-tap", ["echo", "sys/health/", "--count", "1"], bus: first.busFile)
        #expect(try echo.wait() == 0)
        #expect(echo.stdout.contains("sys/health/bus-proxy/"))
        second.signal(SIGTERM)
        #expect(try second.wait() == 0)
        try? FileManager.default.removeItem(atPath: first.directory)
    }

    @Test func theRunDirectoryIsOnlyTheUsersAndSoAreTheSocketFiles() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        #expect(PrivateDirectory.permissions(of: proxy.directory + "/run") == 0o700)
        for path in proxy.config.ipcPaths {
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_uid == geteuid())
            #expect(PrivateDirectory.permissions(of: path) == 0o600)
        }
    }

    @Test func anOpenRunDirectoryIsTightenedAndAnotherUsersIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-perm-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
        chmod(directory + "/run", 0o777)
        let context = try ZMQContext()
        let config = BusConfig(publish: "ipc://\(directory)/run/in", subscribe: "ipc://\(directory)/run/out")
        let proxy = try BusProxy(context: context, config: config)
        try proxy.bind()
        #expect(PrivateDirectory.permissions(of: directory + "/run") == 0o700)
        proxy.close()
        // Only root can hand a directory to another user; elsewhere that half cannot be set up.
        guard geteuid() == 0 else { return }
        #expect(chown(directory + "/run", 65534, 65534) == 0)
        let second = try BusProxy(context: context, config: config)
        #expect { try second.bind() } throws: { "\($0)".contains("belongs to uid 65534") }
    }
}

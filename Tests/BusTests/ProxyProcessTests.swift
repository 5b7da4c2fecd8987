import Bus
import BusTestSupport
import Foundation
import Testing

@Suite struct ProxyProcessTests {
    @Test func aSecondProxyOnTheSameRunDirectoryIsRefused() throws {
        let proxy = try ProxyProcess()
        defer { try? proxy.stop() }
        let (status, _, stderr) = try ChildProcess.run("bus-proxy", [], bus: proxy.busFile)
        #expect(status == 1)
        #expect(stderr.contains("held by pid \(proxy.process.pid)"))
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
}

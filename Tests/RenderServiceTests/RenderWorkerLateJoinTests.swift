import BusSchema
import BusTestSupport
import Foundation
import Glibc
import Testing

/// A render worker that starts after the UI's state was published draws that state at once:
/// the proxy's last-value cache hands it the newest `ui/` messages when it subscribes.
@Suite struct RenderWorkerLateJoinTests {
    @Test func aRestartedRenderWorkerRedrawsTheCurrentStateWithoutNewInput() throws {
        let bus = try RenderBus()
        defer { _ = try? bus.stop() }
        let before = try bus.echo("render/frame/")
        try bus.padState(highlighted: 3)
        let drawn = try #require(try RenderBus.frames(before, untilStateSeq: 1).last)
        let checksum = try #require(drawn["checksum"]?.stringValue)

        bus.worker.signal(SIGKILL)
        try bus.worker.wait()
        let after = try bus.echo("render/frame/")
        let restarted = try ChildProcess(
            "render-worker", ["--scene", RenderBus.scene, "--snapshot-dir", bus.snapshotDirectory + "-2"],
            bus: bus.proxy.busFile)
        defer {
            restarted.signal(SIGTERM)
            _ = try? restarted.wait()
        }
        try restarted.waitForLine("ready", seconds: 30)
        // Nothing is published after the restart: the state can only come from the cache.
        let redrawn = try RenderBus.frames(after, untilStateSeq: 1)
        #expect(redrawn.contains { $0["checksum"]?.stringValue == checksum })
    }
}

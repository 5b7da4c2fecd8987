import Foundation
import RenderService
import Testing

@Suite struct SnapshotWriterTests {
    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("uibus-snap-\(UUID().uuidString.prefix(8))").path
    }

    @Test func aSnapshotIsRenamedIntoPlaceWithNoTemporaryFileLeft() throws {
        let root = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = root + "/nested/dir"
        let writer = try SnapshotWriter(directory: directory)
        let path = try writer.write([1, 2, 3], frameID: 42)
        #expect(path == directory + "/frame-000042.png")
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["frame-000042.png"])
    }

    @Test func temporaryFilesAKilledWorkerLeftAreRemovedAndOtherFilesKept() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try SnapshotWriter(directory: directory)
        _ = try first.write([1], frameID: 1)
        // A writer that is gone (no process has pid 2^22 + 1 beyond pid_max's default), one from
        // before pids were in the name, and a live one: this process, still finishing a frame.
        let live = ".frame-000004.png.\(getpid()).tmp"
        for name in [".frame-000002.png.4194305.tmp", ".frame-000003.png.tmp", live, "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data([7])))
        }
        _ = try SnapshotWriter(directory: directory)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == [live, "frame-000001.png", "notes.txt"])
    }

    @Test func aDirectoryThatCannotBeMadeIsAnError() throws {
        #expect(throws: SnapshotWriter.WriteError.self) { try SnapshotWriter(directory: "/proc/uibus-no/such") }
    }

    @Test func aFailedWriteLeavesNoFile() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try SnapshotWriter(directory: directory)
        // A directory where the snapshot should go makes the rename fail.
        try FileManager.default.createDirectory(
            atPath: writer.path(frameID: 1) + "/x", withIntermediateDirectories: true)
        #expect(throws: SnapshotWriter.WriteError.self) { try writer.write([9], frameID: 1) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["frame-000001.png"])
    }
}

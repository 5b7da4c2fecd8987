import BusSchema
import BusTestSupport
import CLinux
import Foundation
import Glibc
import InputCore
import InputService
import Testing

/// `EvdevDevice` on real descriptors that are not evdev devices (this machine has no
/// `/dev/input` and no `/dev/uinput`): the `EVIOCGABS` path must say clearly why there are no
/// axes, and a stream that ends or a read that fails must end the device, as `ENODEV` does
/// when a real device is unplugged.
@Suite struct EvdevDeviceTests {
    @Test(arguments: ["/dev/null", "regular file"])
    func aDescriptorThatIsNotAnInputDeviceHasNoAxesAndSaysWhy(path: String) throws {
        var file = path
        if path == "regular file" {
            file = FileManager.default.temporaryDirectory.appendingPathComponent("uibus-not-a-device-\(UUID())").path
            try Data(repeating: 0, count: 48).write(to: URL(fileURLWithPath: file))
        }
        defer { if file != path { try? FileManager.default.removeItem(atPath: file) } }
        let device = try EvdevDevice(path: file)
        let problem = try #require(device.axesProblem)
        #expect(problem.contains("ioctl(EVIOCGABS)"))
        #expect(problem.contains("[errno \(ENOTTY)]"))
        #expect(device.description.axes.isEmpty)
    }

    @Test func aPseudoTerminalWhoseOtherSideClosesEndsTheDeviceAfterTheRecordsBeforeIt() throws {
        // A pseudo-terminal in raw mode carries the records unchanged; closing its master hangs
        // up the other side, whose reads then end.
        var master: Int32 = -1
        var side: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        var settings = termios()
        cfmakeraw(&settings)
        #expect(openpty(&master, &side, &name, &settings, nil) == 0)
        defer { close(side) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)

        let device = try EvdevDevice(path: path)
        #expect(device.axesProblem != nil)
        let t = SourceInstant(nanoseconds: 1_000)
        let records = [
            InputEvent(time: t, type: EventCode.keyType, code: EventCode.buttonTouch, value: 1),
            InputEvent(time: t, type: EventCode.synType, code: EventCode.synReport, value: 0),
        ]
        let bytes = records.flatMap(\.binary)
        #expect(bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) } == bytes.count)
        var events: [InputEvent] = []
        try waitUntil("the records arrive") {
            let batch = device.read()
            events += batch.events
            return events.count == records.count
        }
        #expect(events == records)
        close(master)
        var end: DeviceError?
        try waitUntil("the read fails") {
            end = device.read().end
            return end != nil
        }
        #expect(end == DeviceError(errno: 0, call: "read", path: path))
        #expect(end?.isRemoval == true)
    }

    @Test func aReadThatFailsEndsTheDeviceNamingTheErrorAndThePath() throws {
        // A directory opens read-only like a device node, and every read fails with EISDIR.
        let directory = FileManager.default.temporaryDirectory.path
        let device = try EvdevDevice(path: directory)
        let batch = device.read()
        #expect(batch.events.isEmpty)
        let end = try #require(batch.end)
        #expect(end.errno == EISDIR)
        #expect("\(end)" == "read \(directory): Is a directory [errno \(EISDIR)]")
        #expect(!end.isRemoval)
    }
}

import BusSchema
import MemoStore
import Testing

/// The rules every op's fields share, each rejecting the command with a reason naming the field.
@Suite struct CommandValidationTests {
    enum Violation: CaseIterable, Sendable, CustomTestStringConvertible {
        case emptyCommandID, emptyClient, longMemoID, longColor, longQuery, infiniteWidth, hugeY, unknownColor
        case zeroScale, negativeHeight

        var testDescription: String { "\(self)" }

        func apply(to command: inout MemoCommand) {
            let long = String(repeating: "a", count: 257)
            switch self {
            case .emptyCommandID: command.cmdId = ""
            case .emptyClient: command.client = ""
            case .longMemoID: command.memoId = long
            case .longColor: command.color = long
            case .longQuery: command.query = long
            case .infiniteWidth: command.width = .infinity
            case .hugeY: command.y = 2e6
            case .unknownColor: command.color = "chartreuse"
            case .zeroScale: command.scale = 0
            case .negativeHeight: command.height = -5
            }
        }

        var reason: String {
            switch self {
            case .emptyCommandID: "cmd_id is empty"
            case .emptyClient: "bad_client: client is empty"
            case .longMemoID: "memo_id is longer than 256 bytes"
            case .longColor: "color is longer than 256 bytes"
            case .longQuery: "query is longer than 256 bytes"
            case .infiniteWidth: "width is not a finite number"
            case .hugeY: "y is out of range (±1000000.0)"
            case .unknownColor: "color 'chartreuse' is not one of \(MemoRecord.palette.joined(separator: ", "))"
            case .zeroScale: "scale must be positive"
            case .negativeHeight: "height must be positive"
            }
        }
    }

    @Test(arguments: [" ", String(repeating: "c", count: 65), "c\u{0}1", "a/b", "_invalid", "über"])
    func aClientThatCannotFormATopicSegmentIsRejectedAndNothingCommitted(client: String) throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var command = fixture.command(.create) { $0.text = "a" }
        command.client = client
        let ack = store.run(command).ack
        #expect(ack.status == .rejected)
        #expect(ack.reason?.hasPrefix("bad_client: ") == true)
        #expect(try store.allMemos().isEmpty)
        #expect(
            MemoJSONLines.lines(store.apply(batch: [command], now: 1)).allSatisfy { $0.contains("memo/ack/_invalid/") })
    }

    @Test(arguments: Violation.allCases)
    func eachFieldRuleRejectsTheCommandNamingTheField(violation: Violation) throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var command = fixture.command(.create) { $0.text = "a" }
        violation.apply(to: &command)
        let ack = store.run(command).ack
        #expect(ack.status == .rejected)
        #expect(ack.reason == violation.reason)
        #expect(try store.allMemos().isEmpty)
    }
}

import BusSchema
import MessageFixtures
import Testing

@testable import ViewService

struct PageMessageTests {
    private func parse(_ text: String) throws -> PageMessage {
        var text = text
        return try text.withUTF8 { try PageMessage.parse(UnsafeRawBufferPointer($0)) }
    }

    private func code(_ text: String) -> PageMessageError.Code? {
        do {
            _ = try self.parse(text)
            return nil
        } catch let error as PageMessageError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func aPointerMessageBecomesContactsInScenePoints() throws {
        let message = try self.parse(
            #"{"type":"pointer","t":12.5,"contacts":[{"id":3,"phase":"began","x":400.5,"y":20}]}"#)
        #expect(
            message
                == .pointer(
                    tMs: 12.5,
                    contacts: [
                        .contact(3, .began, x: 400.5, y: 20) { $0.tool = .finger }
                    ]))
    }

    @Test func visibilityAndCommandsAreRead() throws {
        #expect(try self.parse(#"{"type":"visibility","visible":false}"#) == .visibility(visible: false))
        let command = try self.parse(
            #"{"type":"command","instance":"board1","command":"edit","args":{"memo_id":"m1","text":"日本語"}}"#)
        #expect(
            command
                == .command(
                    ComponentCommand {
                        $0.instance = "board1"
                        $0.command = "edit"
                        $0.args = ["memo_id": .string("m1"), "text": .string("日本語")]
                    }))
    }

    @Test func unknownMalformedAndOversizedMessagesAreRefusedByKind() {
        #expect(self.code(#"{"type":"shell","cmd":"rm"}"#) == .unknown)
        #expect(self.code("not json") == .malformed)
        #expect(
            self.code(#"{"type":"pointer","t":1,"contacts":[{"id":1,"phase":"began","x":1e309,"y":0}]}"#) == .malformed)
        #expect(
            self.code(#"{"type":"pointer","t":1,"contacts":[{"id":-1,"phase":"began","x":1,"y":0}]}"#) == .malformed)
        #expect(
            self.code(#"{"type":"pointer","t":1,"contacts":[{"id":1,"phase":"stationary","x":1,"y":0}]}"#) == .malformed
        )
        #expect(self.code(#"{"type":"pointer","t":1,"contacts":[]}"#) == .malformed)
        #expect(self.code(#"{"type":"command","instance":"../x","command":"edit"}"#) == .malformed)
        #expect(self.code(#"{"type":"command","instance":"b","command":"edit","args":{"deep":{"a":1}}}"#) == .malformed)
        let long =
            #"{"type":"visibility","visible":true,"pad":""# + String(repeating: "x", count: PageMessage.maximumBytes)
            + #""}"#
        #expect(self.code(long) == .oversized)
    }
}

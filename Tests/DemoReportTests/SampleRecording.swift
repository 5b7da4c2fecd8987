import BusTools
import Foundation

/// A small MCAP recording written with `MCAPWriter`, shaped like a demo session.
enum SampleRecording {
    /// A fresh temporary directory.
    static func directory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "uibus-report-\(UUID().uuidString.prefix(8))"
        ).path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let start: UInt64 = 1_767_225_600_000_000_000

    /// One message: topic, schema, ms after the start, one-way latency in µs, JSON payload.
    typealias Line = (topic: String, schema: String, atMs: UInt64, latencyUs: UInt64, json: String)

    /// The memo text with characters that must be escaped.
    static let trickyText = "買い物 <milk> & \"卵\""

    static let lines: [Line] = [
        (
            "ui/drawer/drawer1/", "state.drawer", 0, 150,
            #"{"instance":"drawer1","t_ms":0,"open":false,"progress":0,"listening_direction":"right"}"#
        ),
        ("gesture/demo/table1/pan/", "gesture.event", 100, 200, gesture("pan", "began", 10)),
        ("gesture/demo/table1/pan/", "gesture.event", 300, 250, gesture("pan", "ended", 60)),
        (
            "ui/drawer/drawer1/", "state.drawer", 320, 300,
            #"{"instance":"drawer1","t_ms":320,"open":false,"progress":0.4,"listening_direction":"right"}"#
        ),
        (
            "ui/drawer/drawer1/", "state.drawer", 340, 300,
            #"{"instance":"drawer1","t_ms":340,"open":false,"progress":0.8,"listening_direction":"right"}"#
        ),
        (
            "ui/drawer/drawer1/", "state.drawer", 400, 350,
            #"{"instance":"drawer1","t_ms":400,"open":true,"progress":1,"listening_direction":"left"}"#
        ),
        ("gesture/demo/pad1/tap/", "gesture.event", 500, 120, gesture("tap", "recognized", 5)),
        ("gesture/demo/pad1/tap/", "gesture.event", 600, 130, gesture("tap", "recognized", 5)),
        ("gesture/demo/pad1/swipe/", "gesture.event", 650, 140, gesture("swipe", "failed", 5)),
        (
            "ui/slideTable/table1/", "state.slideTable", 700, 400,
            #"{"instance":"table1","t_ms":700,"rows":4,"open_row":null,"offsets":[0,0,0,0]}"#
        ),
        (
            "ui/slideTable/table1/", "state.slideTable", 800, 420,
            #"{"instance":"table1","t_ms":800,"rows":4,"open_row":2,"offsets":[0,0,-80,0]}"#
        ),
        ("memo/changed/", "memo.changed", 900, 900, memo(seq: 1, id: "m1", text: trickyText, trashed: false)),
        ("memo/changed/", "memo.changed", 950, 900, memo(seq: 2, id: "m2", text: "会議メモ", trashed: false)),
        ("memo/changed/", "memo.changed", 980, 900, memo(seq: 3, id: "m2", text: "会議メモ", trashed: true)),
        ("memo/ack/board1/", "memo.ack", 990, 800, #"{"cmd_id":"board1:1","status":"ok","seq":1}"#),
        ("memo/ack/board1/", "memo.ack", 995, 800, #"{"cmd_id":"board1:1","status":"duplicate","seq":1}"#),
        ("render/frame/", "render.frame", 1000, 2000, frame(1)),
        ("render/frame/", "render.frame", 1500, 2500, frame(2)),
        ("render/frame/", "render.frame", 1900, 40_000, frame(3)),
        ("sys/health/gesture-recognizer/", "health", 1950, 100, health("gesture-recognizer", gaps: 0)),
        ("sys/health/component-host/", "health", 1960, 100, health("component-host", gaps: 2)),
        ("sys/health/component-host/", "health", 2000, 100, health("component-host", gaps: 3)),
    ]

    static func gesture(_ kind: String, _ state: String, _ x: Int) -> String {
        #"{"t_ms":0,"device":"demo","view":"v","recognizer":"\#(kind)","state":"\#(state)","x":\#(x),"y":20,"touches":1}"#
    }

    static func memo(seq: Int, id: String, text: String, trashed: Bool) -> String {
        let escaped = text.replacingOccurrences(of: "\"", with: "\\\"")
        let trash = trashed ? ",\"trashed_at\":1" : ""
        return #"{"seq":\#(seq),"change":"upsert","memo":{"id":"\#(id)","text":"\#(escaped)"\#(trash)}}"#
    }

    static func frame(_ id: Int) -> String {
        #"{"frame_id":\#(id),"width":8,"height":8,"checksum":"00","state_seq":1,"timings":{},"png":"var/demo/frame-00000\#(id).png"}"#
    }

    static func health(_ service: String, gaps: Int) -> String {
        #"{"service":"\#(service)","state":"ready","seq":1,"uptime_ms":1,"pid":42,"reasons":{},"#
            + #""counters":{"sent":10,"received":20,"gaps":\#(gaps),"duplicates":0,"reorders":0,"rejected":1,"#
            + #""dead_lettered":0,"queue_depth":0}}"#
    }

    /// Writes `lines` to `path` the way `bus-tap record` does (one channel per topic and schema).
    static func write(to path: String, lines: [Line] = lines) throws {
        let writer = try MCAPWriter(path: path)
        var schemas: [String: UInt16] = [:]
        var channels: [String: UInt16] = [:]
        for (index, line) in lines.enumerated() {
            if schemas[line.schema] == nil {
                schemas[line.schema] = UInt16(schemas.count + 1)
                try writer.addSchema(id: schemas[line.schema]!, name: line.schema, data: "{}")
            }
            let key = line.topic + "|" + line.schema
            if channels[key] == nil {
                channels[key] = UInt16(channels.count + 1)
                try writer.addChannel(
                    id: channels[key]!, schemaID: schemas[line.schema]!, topic: line.topic,
                    metadata: [
                        ("schema", line.schema), ("major", "1"), ("minor", "0"), ("pub", "test"), ("epoch", "7"),
                    ])
            }
            let received = start + line.atMs * 1_000_000
            try writer.addMessage(
                channelID: channels[key]!, sequence: UInt32(index + 1), logTime: received,
                publishTime: received - line.latencyUs * 1000, data: line.json)
        }
        try writer.finish()
    }
}

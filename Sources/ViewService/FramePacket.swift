import BusSchema

/// A frame as a page receives it: one binary WebSocket message.
///
/// Layout: a 4-byte big-endian header length, a UTF-8 JSON header, then the encoded image as the
/// render worker made it (the page hands those bytes to `createImageBitmap`). The header:
/// `{"surface", "frame", "width", "height", "scale", "encoding", "damage": [[x, y, w, h], …],
/// "input": {"device", "seq", "t_ns"}}` (`input` only when the frame reflects a touch frame).
public enum FramePacket {
    /// The packet for `image`.
    public static func make(_ image: RenderImage) -> [UInt8] {
        var header: ValueMap = [
            "surface": .string(image.surface), "frame": .int(Int64(image.frame)), "width": .int(Int64(image.width)),
            "height": .int(Int64(image.height)), "scale": .double(image.scale),
            "encoding": .string(image.encoding.rawValue),
            "damage": .array(
                image.damage.map { .array([$0.x, $0.y, $0.width, $0.height].map { .int(Int64($0)) }) }),
        ]
        if let input = image.input {
            header["input"] = .map([
                "device": .string(input.device), "seq": Value(input.seq), "t_ns": .int(input.sourceTimeNs),
            ])
        }
        var json: [UInt8] = []
        JSONWriter.write(.map(header), into: &json)
        let length = UInt32(json.count)
        var packet: [UInt8] = []
        packet.reserveCapacity(4 + json.count + image.data.count)
        packet += [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
        packet += json
        packet += image.data
        return packet
    }
}

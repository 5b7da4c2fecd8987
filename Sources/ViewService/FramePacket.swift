import BusSchema

/// Tiles of a frame as a page receives them: one binary WebSocket message.
///
/// Layout: a 4-byte big-endian header length, a UTF-8 JSON header, then each tile's encoded
/// pixels as the render worker made them, one after another (the page hands each to
/// `createImageBitmap` and draws it at its place, in order). The header: `{"surface", "frame",
/// "width", "height", "scale", "key", "skipped", "tiles": [[x, y, w, h, encoding, bytes], …],
/// "input": {"device", "seq", "t_ns"}}`; `key` when the first tile is the whole frame (the page
/// may resize its canvas), `skipped` the frames the page gets no packet of (what they changed
/// comes with this one), `input` only when the frame reflects a touch frame.
public enum FramePacket {
    /// The packet for `tiles` of the frame `header` describes, after `skipped` frames the page missed.
    public static func make(_ header: RenderTiles, tiles: [RenderTiles.Tile], key: Bool, skipped: Int) -> [UInt8] {
        var fields: ValueMap = [
            "surface": .string(header.surface), "frame": .int(Int64(header.frame)),
            "width": .int(Int64(header.width)), "height": .int(Int64(header.height)), "scale": .double(header.scale),
            "key": .bool(key), "skipped": .int(Int64(skipped)),
            "tiles": .array(
                tiles.map { tile in
                    .array(
                        [tile.x, tile.y, tile.width, tile.height].map { .int(Int64($0)) } + [
                            .string(tile.encoding.rawValue), .int(Int64(tile.data.count)),
                        ])
                }),
        ]
        if let input = header.input {
            fields["input"] = .map([
                "device": .string(input.device), "seq": Value(input.seq), "t_ns": .int(input.sourceTimeNs),
            ])
        }
        var json: [UInt8] = []
        JSONWriter.write(.map(fields), into: &json)
        let length = UInt32(json.count)
        var packet: [UInt8] = []
        packet.reserveCapacity(4 + json.count + tiles.reduce(0) { $0 + $1.data.count })
        packet += [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
        packet += json
        for tile in tiles { packet += tile.data }
        return packet
    }
}

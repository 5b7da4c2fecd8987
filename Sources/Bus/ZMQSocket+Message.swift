import BusSchema

extension ZMQSocket {
    /// Sends one bus message: the topic, header and payload frames, without copying them.
    public func sendMessage(topic: Topic, header: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) throws {
        var topicText = topic.rawValue
        _ = try topicText.withUTF8 { try self.send(UnsafeRawBufferPointer($0), more: true) }
        _ = try self.send(header, more: true)
        _ = try self.send(payload, more: false)
    }

    /// Sends one bus message whose header and payload are in writers.
    public func sendMessage(topic: Topic, header: borrowing MessagePackWriter, payload: borrowing MessagePackWriter)
        throws
    {
        try header.withUnsafeBytes { header in
            try payload.withUnsafeBytes { try self.sendMessage(topic: topic, header: header, payload: $0) }
        }
    }
}

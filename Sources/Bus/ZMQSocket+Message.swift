import BusSchema

extension ZMQSocket {
    /// Sends one bus message: the topic, header and payload frames.
    public func sendMessage(topic: Topic, header: [UInt8], payload: [UInt8]) throws {
        var topicText = topic.rawValue
        _ = try topicText.withUTF8 { try self.send(UnsafeRawBufferPointer($0), more: true) }
        _ = try header.withUnsafeBytes { try self.send($0, more: true) }
        _ = try payload.withUnsafeBytes { try self.send($0, more: false) }
    }
}

/// Why a report could not be made: a code for the kind of problem and the file or detail it concerns.
public struct ReportError: Error, CustomStringConvertible, Equatable {
    public enum Code: String, Sendable {
        /// The recording is missing or unreadable.
        case missingRecording = "missing recording"
        /// The recording is not a readable MCAP file.
        case corruptRecording = "corrupt recording"
        /// A recorded message is not valid JSON.
        case badMessage = "bad message"
        /// The supervisor status file is unreadable or not JSON.
        case badStatus = "bad supervisor status"
        /// The scene file is unreadable or not JSON.
        case badScene = "bad scene"
        /// The report or summary could not be written.
        case cannotWrite = "cannot write"
    }

    public var code: Code
    public var context: String

    public init(_ code: Code, _ context: String) {
        self.code = code
        self.context = context
    }

    public var description: String { "\(self.code.rawValue): \(self.context)" }
}

import BusSchema
import RenderCore

/// Runs `body`; nil when it returned, else the code of the error it threw.
func codeOf(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return code(error)
    }
}

/// A short, countable name for an error: its code where it has one.
func code(_ error: any Error) -> String {
    if let error = error as? CodecError { return error.code.rawValue }
    if let error = error as? RenderError { return error.code.rawValue }
    return String(describing: type(of: error))
}

import Bus
import BusSchema
import Glibc

/// Runs a tool's body and turns what it throws into a message and an exit status.
public enum Tool {
    /// What `--version` prints after the tool's name: the one place the release is named.
    public static let version = "0.10.0"
    /// Exit status for a bad command line (sysexits' EX_USAGE).
    public static let usageStatus: Int32 = 64
    /// Exit status for a permanent failure (bad config, unknown schema major): supervisors
    /// do not restart a service that exits with it (sysexits' EX_CONFIG).
    public static let permanentFailureStatus: Int32 = 78
    /// Exit status for invalid input data, such as a scene that breaks its schema (sysexits'
    /// EX_DATAERR); permanent too: the same file fails the same way on a restart.
    public static let dataErrorStatus: Int32 = 65

    /// Runs `body`; exits 0 if it returns (or printed its usage for ``HelpRequest``), or prints the
    /// error and exits with its status.
    public static func main(_ name: String, usage: String, _ body: () throws -> Void) -> Never {
        do {
            try body()
            exit(0)
        } catch is OutputClosed {
            // The reader went away (`| head -1`): a normal end, as for `cat`.
            exit(0)
        } catch let request as HelpRequest {
            Log.write(request.text(usage: usage, tool: name) + "\n", to: STDOUT_FILENO)
            exit(0)
        } catch is VersionRequest {
            Log.out("\(name) \(Self.version)")
            exit(0)
        } catch let error as UsageError {
            Log.error(name, "\(error)")
            Log.write(usage + "\n", to: STDERR_FILENO)
            exit(Self.usageStatus)
        } catch let error as ConfigurationError {
            Log.error(name, "\(error)")
            exit(Self.permanentFailureStatus)
        } catch let error as SceneError {
            Log.error(name, "\(error)")
            exit(Self.dataErrorStatus)
        } catch {
            Log.error(name, "\(error)")
            exit(1)
        }
    }

    /// Loads the bus config named by `--bus`, else `$UIBUS_BUS`, else the checkout's
    /// (``BusConfig/path(explicit:)``).
    ///
    /// - Throws: ``ConfigurationError`` if it cannot be read or makes no sense.
    public static func busConfig(_ options: inout Options) throws -> BusConfig {
        let path = BusConfig.path(explicit: options.string("bus"))
        do {
            return try BusConfig.load(path)
        } catch {
            throw ConfigurationError("\(error)")
        }
    }

    /// Reads the options every service's live mode takes (``OptionSpec/bus``, ``OptionSpec/cpus``):
    /// loads the bus config (``busConfig(_:)``), then pins this process to its cores
    /// (``placeOnCPUs(_:tool:)``), before the bus starts its threads.
    ///
    /// - Throws: ``ConfigurationError`` for a bus config that cannot work or cores the kernel
    ///   refuses; ``UsageError`` for a `--cpus` that is not a list.
    public static func serviceBusConfig(_ options: inout Options, tool: String) throws -> BusConfig {
        let config = try Self.busConfig(&options)
        try Self.placeOnCPUs(options.string("cpus"), tool: tool)
        return config
    }

    /// `relative` in the checkout the running executable was built in, else under the working
    /// directory; nil if neither has it.
    public static func checkoutFile(_ relative: String) -> String? {
        let candidates = [BusConfig.checkoutRoot.map { $0 + "/" + relative }, relative].compactMap { $0 }
        return candidates.first { access($0, R_OK) == 0 }
    }

    /// Pins this process to the cores of a `--cpus` list (`0`, `0,2-3`), if one was given.
    ///
    /// Call it before the bus starts its threads. Cores this process may not use here (a deploy
    /// file written for a bigger machine) are left out with a warning on stderr; with none left it
    /// runs unpinned, as without the option.
    /// - Parameters:
    ///   - list: the value of `--cpus`, or nil if it was not given.
    ///   - tool: the name warnings start with.
    /// - Returns: the cores the process is now pinned to, or nil if it is not pinned.
    /// - Throws: ``UsageError`` for a list that is not one; ``ConfigurationError`` if the kernel refuses.
    @discardableResult
    public static func placeOnCPUs(_ list: String?, tool: String) throws -> CPUSet? {
        guard let text = list else { return nil }
        let requested = try CPUSet(parsing: text)
        let allowed = try CPUPlacement.allowed()
        let usable = requested.intersection(allowed)
        let missing = requested.subtracting(allowed)
        if usable.isEmpty {
            Log.error(
                tool, "--cpus \(text): no such core available here (this process may use \(allowed)); running unpinned")
            return nil
        }
        if !missing.isEmpty {
            Log.error(
                tool,
                "--cpus \(text): cores \(missing) not available here (this process may use \(allowed)); using \(usable)"
            )
        }
        try CPUPlacement.pin(to: usable)
        return usable
    }
}

/// Configuration that cannot work; retrying will not help.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

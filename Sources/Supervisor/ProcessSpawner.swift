import Foundation
import Glibc
import SupervisorCore

/// Starts service processes: each in its own process group, stdout on a pipe the supervisor
/// reads (for `ready` and the log), stderr appended to the service's log file.
enum ProcessSpawner {
    struct Child {
        var pid: Int32
        /// The read end of the child's stdout.
        var stdout: Int32
    }

    /// Spawns `command` with a clean signal mask (the supervisor blocks the signals it reads
    /// through a signalfd; a child must not inherit that). The corresponding C functions are
    /// `pipe`, `posix_spawn_file_actions_*`, `posix_spawnattr_*` and `posix_spawn`.
    ///
    /// - Throws: ``SupervisorError`` naming the command and errno.
    /// - Parameter environment: extra variables for the child, on top of the supervisor's own.
    static func spawn(_ command: [String], logPath: String, environment: [String: String]) throws -> Child {
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { throw SupervisorError("pipe: \(String(cString: strerror(errno)))") }
        // Both ends close on exec; the child's copy on fd 1 (made by dup2) stays open.
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var environ: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in environ { free(variable) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, &arguments, &environ)
        close(pipe[1])
        guard result == 0 else {
            close(pipe[0])
            throw SupervisorError("cannot start \(command[0]): \(String(cString: strerror(result)))")
        }
        _ = fcntl(pipe[0], F_SETFL, fcntl(pipe[0], F_GETFL) | O_NONBLOCK)
        return Child(pid: pid, stdout: pipe[0])
    }

    /// Sends `signal` to the process group led by `pid`. The corresponding C function is `kill`.
    static func signalGroup(_ pid: Int32, _ signal: Int32) {
        if kill(-pid, signal) != 0 { kill(pid, signal) }
    }

    /// Collects every child that has exited, without waiting. The corresponding C function is `waitpid`.
    static func reap() -> [(pid: Int32, status: ExitStatus)] {
        var reaped: [(Int32, ExitStatus)] = []
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { return reaped }
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros; these are their definitions.
            let signal = status & 0x7f
            reaped.append((pid, signal == 0 ? .code((status >> 8) & 0xff) : .signal(signal)))
        }
    }
}

import Foundation
import Glibc
import SupervisorCore

/// Starts service processes: each in its own process group, its stdout and stderr on pipes the
/// supervisor reads (for `ready` and the timestamped log) and the write end of a heartbeat pipe
/// on descriptor 3 (``heartbeatDescriptor``, named by `UIBUS_HEARTBEAT_FD`).
enum ProcessSpawner {
    /// The descriptor a child finds its heartbeat pipe on.
    static let heartbeatDescriptor: Int32 = 3

    struct Child {
        var pid: Int32
        /// The read ends of the child's stdout, stderr and heartbeat pipes.
        var stdout: Int32
        var stderr: Int32
        var heartbeat: Int32
    }

    /// Spawns `command` with a clean signal mask (the supervisor blocks the signals it reads
    /// through a signalfd; a child must not inherit that). The corresponding C functions are
    /// `pipe`, `fcntl`, `posix_spawn_file_actions_*`, `posix_spawnattr_*` and `posix_spawn`.
    ///
    /// - Throws: ``SupervisorError`` naming the command and errno.
    /// - Parameter environment: extra variables for the child, on top of the supervisor's own.
    static func spawn(_ command: [String], environment: [String: String]) throws -> Child {
        var pipes: [(read: Int32, write: Int32)] = []
        defer { for pipe in pipes { close(pipe.write) } }
        for _ in 0..<3 {
            do {
                pipes.append(try Self.pipe())
            } catch {
                for pipe in pipes { close(pipe.read) }
                throw error
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The write ends are above the heartbeat's descriptor (see pipe()), so each dup2 makes a
        // fresh descriptor without close-on-exec, and the originals close on exec.
        for (target, pipe) in zip([1, 2, Self.heartbeatDescriptor], pipes) {
            posix_spawn_file_actions_adddup2(&actions, pipe.write, target)
        }

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
        guard result == 0 else {
            for pipe in pipes { close(pipe.read) }
            throw SupervisorError("cannot start \(command[0]): \(String(cString: strerror(result)))")
        }
        for pipe in pipes { _ = fcntl(pipe.read, F_SETFL, fcntl(pipe.read, F_GETFL) | O_NONBLOCK) }
        return Child(pid: pid, stdout: pipes[0].read, stderr: pipes[1].read, heartbeat: pipes[2].read)
    }

    /// A close-on-exec pipe whose write end is above descriptor 3, so it never collides with a
    /// target of the child's `dup2`s.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw SupervisorError("pipe: \(String(cString: strerror(errno)))") }
        // Spawning happens on this one thread, so no child starts between pipe and close-on-exec.
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        let write = fcntl(ends[1], F_DUPFD_CLOEXEC, Self.heartbeatDescriptor + 1)
        close(ends[1])
        guard write >= 0 else {
            close(ends[0])
            throw SupervisorError("pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], write)
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

import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A program run as a child of the test process, its stdout and stderr collected, started with
/// `posix_spawn`.
///
/// Not Foundation's `Process`: its `run()` copies each `/proc/self/fd` entry as a whole 256-byte
/// `d_name`, reading past the end of the directory buffer. With a thousand or more descriptors
/// open (a parallel test run holds that many) the last entry sits at the buffer's end and the
/// read crosses into an unmapped page: the test process died of SIGSEGV in CI. The child also
/// starts with no blocked signals and default handlers, whatever thread spawns it (libdispatch's
/// threads block nearly every signal, and a blocked mask is inherited).
public final class ChildProcess: Sendable {
    public struct SpawnFailed: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    private let state = Mutex<(out: [UInt8], err: [UInt8], openPipes: Int, status: Int32?)>(([], [], 2, nil))

    /// - Parameters:
    ///   - environment: the child's whole environment; nil inherits the test process's.
    ///   - directory: the child's working directory; nil keeps the test process's.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil
    ) throws {
        let program = executable
        let argv = [executable] + arguments
        // Pipes and spawn under one lock: a pipe is close-on-exec only after its fcntl, and a
        // child spawned in between by another test would hold its write end (no end-of-file).
        let (spawned, pid, outRead, errRead) = try Self.spawnLock.withLock { _ in
            try Self.spawn(program, argv, environment: environment, directory: directory)
        }
        guard spawned == 0 else { throw SpawnFailed(description: "posix_spawn \(program): error \(spawned)") }
        self.pid = pid

        // A reader per pipe until end-of-file, and a reaper: each blocks a thread of its own.
        Thread { [self] in drain(outRead, isError: false) }.start()
        Thread { [self] in drain(errRead, isError: true) }.start()
        Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // Exit code, or the signal number for a child killed by one (as Foundation reports it).
            let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
            state.withLock { $0.status = code }
        }.start()
    }

    private static let spawnLock = Mutex(())

    private static func pipeClosedOnExec() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SpawnFailed(description: "pipe: errno \(errno)") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Returns posix_spawn's result, the child's pid and the read ends of its stdout and stderr.
    private static func spawn(
        _ program: String, _ argv: [String], environment: [String: String]?,
        directory: String?
    ) throws -> (Int32, pid_t, Int32, Int32) {
        let out = try pipeClosedOnExec()
        let err: (read: Int32, write: Int32)
        do { err = try pipeClosedOnExec() } catch { close(out.read); close(out.write); throw error }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Every other descriptor is closed in the child, as Foundation's Process does: many in
        // this process are not close-on-exec (sockets of other tests' servers among them).
        _ = GNUSpawnActions.closeFrom(&actions, 3)
        if let directory { _ = GNUSpawnActions.changeDirectory(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environmentLines.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, cArguments, cEnvironment)
        close(out.write)
        close(err.write)
        if spawned != 0 { close(out.read); close(err.read) }
        return (spawned, pid, out.read, err.read)
    }

    private func drain(_ fd: Int32, isError: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            state.withLock { isError ? $0.err.append(contentsOf: buffer[..<count]) : $0.out.append(contentsOf: buffer[..<count]) }
        }
        close(fd)
        state.withLock { $0.openPipes -= 1 }
    }

    public var stdout: String { state.withLock { String(decoding: $0.out, as: UTF8.self) } }
    public var stderr: String { state.withLock { String(decoding: $0.err, as: UTF8.self) } }
    public var isRunning: Bool { state.withLock { $0.status == nil } }

    public func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    /// The exit status once the child has exited and both pipes are read to the end, or nil if
    /// it is still running after `seconds`.
    public func exitStatus(within seconds: Double = 60) async -> Int32? {
        guard await eventually(within: seconds, { state.withLock { $0.status != nil && $0.openPipes == 0 } }) else {
            return nil
        }
        return state.withLock { $0.status }
    }

    /// Waits for the exit on the calling thread: for short commands in synchronous code.
    public func blockingExitStatus() -> Int32 {
        while true {
            if let status = state.withLock({ $0.openPipes == 0 ? $0.status : nil }) { return status }
            usleep(5_000)
        }
    }

    /// Runs a program to its end: its exit status and what it wrote.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, directory: directory)
        var status: Int32?
        while status == nil { status = await child.exitStatus(within: 600) }
        return (status!, child.stdout, child.stderr)
    }

    /// `run`, blocking the calling thread: for quick tools (openssl) called from synchronous code.
    public static func runBlocking(
        _ executable: String, _ arguments: [String],
        environment: [String: String]? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = child.blockingExitStatus()
        return (status, child.stdout, child.stderr)
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34) and `…_addchdir_np` (2.29): GNU
/// extensions the Glibc module does not import, looked up by name.
private enum GNUSpawnActions {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return -1 }
        return unsafeBitCast(symbol, to: CloseFrom.self)(actions, lowest)
    }

    static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
            fatalError("this glibc has no posix_spawn_file_actions_addchdir_np (needs 2.29 or later)")
        }
        return unsafeBitCast(symbol, to: ChangeDirectory.self)(actions, path)
    }
}

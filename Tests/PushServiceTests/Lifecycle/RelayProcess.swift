import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The built `push-relay` binary run as a child process, its stdout and stderr collected.
final class RelayProcess: Sendable {
    struct NotFound: Error, CustomStringConvertible {
        var description: String { "the push-relay binary was not found next to the tests or in .build/debug: run swift build first" }
    }

    /// `push-relay` beside the test bundle (swift build puts every product in one directory).
    static func binary() throws -> String {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL,
                          Bundle.main.bundleURL.deletingLastPathComponent(), Repo.root.appendingPathComponent(".build/debug")]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        for directory in candidates {
            let path = directory.appendingPathComponent("push-relay").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw NotFound()
    }

    /// What the child wrote; shared with the pipes' readability handlers.
    final class Output: Sendable {
        let state = Mutex<(out: String, err: String, closed: Int)>(("", "", 0))
        func withLock<T: Sendable>(_ body: (inout (out: String, err: String, closed: Int)) -> T) -> T { state.withLock { body(&$0) } }
    }

    let process: Process
    private let collected = Output()

    init(_ arguments: [String], environment: [String: String] = [:], directory: String = Repo.root.path) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.binary())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        env.merge(environment) { _, new in new }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collected = self.collected
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            collected.withLock { data.isEmpty ? ($0.closed += 1) : ($0.out += String(decoding: data, as: UTF8.self)) }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            collected.withLock { data.isEmpty ? ($0.closed += 1) : ($0.err += String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
    }

    var stdout: String { collected.withLock { $0.out } }
    var stderr: String { collected.withLock { $0.err } }

    /// Polls `condition` until it holds or `seconds` pass.
    static func wait(within seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// The exit status, or nil if still running after `seconds`.
    func exitStatus(within seconds: Double = 60) -> Int32? {
        guard Self.wait(within: seconds, until: { !process.isRunning }) else { return nil }
        // Both pipes reach end-of-file once the handlers have read the last bytes.
        _ = Self.wait(within: 5) { collected.withLock { $0.closed >= 2 } }
        return process.terminationStatus
    }

    /// The port from the "push-relay listening on http://HOST:PORT" line.
    func listeningPort(within seconds: Double = 60) -> Int? {
        var port: Int?
        _ = Self.wait(within: seconds) {
            guard let range = stdout.range(of: "listening on http://127.0.0.1:") else { return !process.isRunning }
            port = Int(stdout[range.upperBound...].prefix { $0.isNumber })
            return port != nil
        }
        return port
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    func stop() {
        if process.isRunning { signal(SIGKILL) }
    }
}

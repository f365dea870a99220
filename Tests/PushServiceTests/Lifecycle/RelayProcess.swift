import Foundation
import TestSupport
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
        var candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(), Repository.root.appendingPathComponent(".build/debug"),
        ]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        for directory in candidates {
            let path = directory.appendingPathComponent("push-relay").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw NotFound()
    }

    let process: ChildProcess

    init(_ arguments: [String], environment: [String: String] = [:], directory: String = Repository.root.path) throws {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        env.merge(environment) { _, new in new }
        process = try ChildProcess(try Self.binary(), arguments, environment: env, directory: directory)
    }

    var stdout: String { process.stdout }
    var stderr: String { process.stderr }

    /// The exit status, or nil if still running after `seconds`.
    func exitStatus(within seconds: Double = 60) async -> Int32? {
        await process.exitStatus(within: seconds)
    }

    /// The port from the "push-relay listening on http://HOST:PORT" line.
    func listeningPort(within seconds: Double = 60) async -> Int? {
        var port: Int?
        _ = await eventually(within: seconds) {
            guard let range = stdout.range(of: "listening on http://127.0.0.1:") else { return !process.isRunning }
            port = Int(stdout[range.upperBound...].prefix { $0.isNumber })
            return port != nil
        }
        return port
    }

    func signal(_ number: Int32) { process.signal(number) }

    func stop() { process.signal(SIGKILL) }
}

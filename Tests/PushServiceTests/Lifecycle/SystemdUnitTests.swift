import ConfigSupport
import Foundation
import TestSupport
import Testing

@testable import PushService

/// `systemd/push-relay.service` checked by systemd-analyze, when the machine has it, and against
/// the relay's own stop deadline.
@Suite(.timeLimit(.minutes(5))) struct SystemdUnitTests {
    /// systemd kills a stop that takes longer than TimeoutStopSec; the relay's own deadline
    /// (`StopDeadline`, at the default grace) must come first, so the journal says what held it.
    @Test func theStopTimeoutIsAboveTheRelaysOwnDeadline() throws {
        let unit = try String(contentsOfFile: Repository.path("systemd/push-relay.service"), encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("TimeoutStopSec=") })
        let seconds = try #require(Int(line.dropFirst("TimeoutStopSec=".count).dropLast()))  // "32s"
        let deadline = DeliveryConfiguration.defaultShutdownGrace + RelayApplication.stopDeadlineAfterGrace
        #expect(.seconds(seconds) >= deadline + .seconds(2), "TimeoutStopSec=\(seconds)s, the relay's deadline \(deadline)")
    }

    /// The unit bounds memory and threads, each above what the relay was measured to need with
    /// its defaults here: 8 threads per core plus 2 per connection of one app's two default
    /// pools (a reload holds old and new) plus 64; twice the largest peak RSS measured (386 MB).
    @Test func memoryAndThreadsAreBoundedAboveWhatTheRelayNeeds() throws {
        let unit = try String(contentsOfFile: Repository.path("systemd/push-relay.service"), encoding: .utf8)
        func value(_ key: String) throws -> Substring {
            try #require(unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }).dropFirst(key.count + 1)
        }
        let tasks = try #require(Int(try value("TasksMax")))
        let pools = 2 * ProviderPoolSize.defaultSize
        #expect(tasks >= 8 * ProcessInfo.processInfo.activeProcessorCount + 2 * pools + 64)
        let memory = try value("MemoryMax")
        let gigabytes = try #require(Int(memory.dropLast()), "MemoryMax=\(memory) is not in G")
        #expect(memory.hasSuffix("G") && gigabytes << 30 >= 2 * 386_000_000)
    }

    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func run(_ arguments: [String]) async throws -> (Int32, String) {
        let result = try await ChildProcess.run(analyze!, arguments)
        return (result.status, result.stdout + result.stderr)
    }

    @Test(.enabled(if: analyze != nil, "systemd-analyze is not installed"))
    func theUnitRatesOKOrBetter() async throws {
        let (status, output) = try await Self.run([
            "security", "--offline=true", "--no-pager", Repository.path("systemd/push-relay.service"),
        ])
        #expect(status == 0, "\(output)")
        let verdict = output.split(separator: "\n").last { $0.contains("Overall exposure level") } ?? ""
        let score = Double(verdict.split(separator: ":").last?.split(separator: " ").first ?? "") ?? 10
        #expect(score <= 3.9, "\(verdict)")  // systemd: OK is < 4.0 (and 1.2 when this was written)
    }

    @Test(.enabled(if: analyze != nil, "systemd-analyze is not installed"))
    func theUnitVerifiesApartFromTheUninstalledBinary() async throws {
        let (_, output) = try await Self.run(["verify", Repository.path("systemd/push-relay.service")])
        // The binary is not installed at /usr/local/bin on a build machine; anything else is a finding.
        let findings = output.split(separator: "\n").filter { !$0.contains("/usr/local/bin/push-relay") && !$0.isEmpty }
        #expect(findings.isEmpty, "\(findings)")
    }
}

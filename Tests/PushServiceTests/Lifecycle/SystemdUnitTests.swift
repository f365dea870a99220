import Foundation
import TestSupport
import Testing

@testable import PushService

/// `systemd/push-relay.service` checked by systemd-analyze, when the machine has it, and against
/// the relay's own stop deadline.
@Suite struct SystemdUnitTests {
    /// systemd kills a stop that takes longer than TimeoutStopSec; the relay's own deadline
    /// (`StopDeadline`, at the default grace) must come first, so the journal says what held it.
    @Test func theStopTimeoutIsAboveTheRelaysOwnDeadline() throws {
        let unit = try String(contentsOfFile: Repository.path("systemd/push-relay.service"), encoding: .utf8)
        let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("TimeoutStopSec=") })
        let seconds = try #require(Int(line.dropFirst("TimeoutStopSec=".count).dropLast()))  // "32s"
        let deadline = DeliveryConfiguration.defaultShutdownGrace + RelayApplication.stopDeadlineAfterGrace
        #expect(.seconds(seconds) >= deadline + .seconds(2), "TimeoutStopSec=\(seconds)s, the relay's deadline \(deadline)")
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

import ConfigSupport
import TestSupport
import APNs
import Foundation
import Logging
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConfigurationCheckTests {
    static func p12Config(_ directory: TemporaryDirectory) throws -> String {
        try directory.write(
            "relay.yaml",
            """
            listen: {}
            database: {path: x}
            apps:
              - app_id: C
                api_token: aaaaaaaaaaaaaaaaaaaa
                apns: {topic: t, auth: {certificate: {p12_file: \(Repository.privateDevCert("client.p12")), password: secret}}}
              - app_id: N
                api_token: bbbbbbbbbbbbbbbbbbbb
            """)
    }

    @Test func aCertificateExpiringWithin30DaysIsAWarningNotAnError() async throws {
        let directory = try TemporaryDirectory()
        let notAfter = try APNsClientIdentity.p12(path: Repository.devCert("client.p12"), password: "secret").notAfter
        let check = await ConfigurationCheck.run(
            path: try Self.p12Config(directory), probe: false,
            environment: ConfigurationEnvironment(variables: [:]),
            now: notAfter.addingTimeInterval(-10 * 86_400 - 60))
        #expect(!check.hasErrors, "\(check.findings)")
        let warnings = check.findings.filter { $0.severity == .warning }.map(\.description)
        #expect(warnings.contains { $0.hasPrefix("warning: app C: the APNs certificate expires in 10 day(s)") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("warning: app N: no apns, fcm, hms or webpush settings") })
    }

    @Test func anExpiredCertificateIsAnError() async throws {
        let directory = try TemporaryDirectory()
        let notAfter = try APNsClientIdentity.p12(path: Repository.devCert("client.p12"), password: "secret").notAfter
        let check = await ConfigurationCheck.run(
            path: try Self.p12Config(directory), probe: false,
            environment: ConfigurationEnvironment(variables: [:]),
            now: notAfter.addingTimeInterval(86_400))
        #expect(check.hasErrors)
        #expect(
            check.findings.contains { $0.severity == .error && $0.subject == "app C" && $0.message.contains("expired") },
            "\(check.findings)")
    }

    /// The exit status: 78 for what would stop the relay's start (as `serve` exits), 1 for a
    /// probe the provider failed, 2 for warnings under `--strict`.
    @Test func theExitStatusIsTheWorstFinding() {
        func check(_ findings: [ConfigurationCheck.Finding], invalid: Bool = false) -> ConfigurationCheck {
            var check = ConfigurationCheck()
            check.findings = findings
            check.configurationInvalid = invalid
            return check
        }
        let ok = ConfigurationCheck.Finding(severity: .ok, subject: "configuration", message: "valid")
        let warning = ConfigurationCheck.Finding(severity: .warning, subject: "credentials", message: "open")
        let probe = ConfigurationCheck.Finding(severity: .error, subject: "app A", fromProbe: true, message: "probe: no answer")
        let credential = ConfigurationCheck.Finding(severity: .error, subject: "app A", message: "not a key")
        #expect(check([ok]).exitStatus(strict: true) == .usable)
        #expect(check([ok, warning]).exitStatus(strict: false) == .usable)
        #expect(check([ok, warning]).exitStatus(strict: true) == .warnings)
        #expect(check([ok, warning, probe]).exitStatus(strict: true) == .probeFailed)
        #expect(check([ok, probe, credential]).exitStatus(strict: false) == .invalid)
        #expect(check([], invalid: true).exitStatus(strict: false) == .invalid)
        #expect(ConfigurationCheck.ExitStatus.invalid.rawValue == 78 && ConfigurationCheck.ExitStatus.warnings.rawValue == 2)
    }

    /// A key file that holds no key stops `serve` (exit 78): so it is not a probe's failure here.
    @Test func aKeyThatIsNotAKeyIsInvalidNotAProbeFailure() async throws {
        let directory = try TemporaryDirectory()
        let key = try directory.write("AuthKey_ABC123DEFG.p8", "not a key")
        let path = try directory.write(
            "relay.yaml",
            "listen: {}\ndatabase: {path: x}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa, "
                + "apns: {topic: t, auth: {token: {key_file: \(key), key_id: ABC123DEFG, team_id: DEF123GHIJ}}}}]")
        let check = await ConfigurationCheck.run(path: path, probe: false, environment: ConfigurationEnvironment(variables: [:]))
        #expect(check.exitStatus(strict: false) == .invalid, "\(check.findings)")
        let error = try #require(check.findings.first { $0.severity == .error })
        #expect(!error.fromProbe)
        #expect(error.description.hasPrefix("error: app A: apns.auth: "), "the app is named once: \(error)")
    }

    /// A probe to an endpoint that does not answer fails the probe, not the file.
    @Test func aProbeWithoutAnAnswerIsExitOne() async throws {
        let directory = try TemporaryDirectory()
        let key = Repository.devCert("AuthKey_DEVKEY1234.p8")
        let copy = try directory.write("AuthKey_DEVKEY1234.p8", try String(contentsOfFile: key, encoding: .utf8))
        let path = try directory.write(
            "relay.yaml",
            "listen: {}\ndatabase: {path: x}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa, apns: {topic: t, "
                + "environment: {url: \"https://127.0.0.1:1\"}, auth: {token: {key_file: \(copy), key_id: DEVKEY1234, team_id: DEVTEAM123}}}}]"
        )
        var quiet = Logger(label: "check")
        quiet.logLevel = .critical
        let check = await ConfigurationCheck.run(
            path: path, probe: true, environment: ConfigurationEnvironment(variables: [:]), logger: quiet)
        #expect(check.exitStatus(strict: false) == .probeFailed, "\(check.findings)")
    }
}

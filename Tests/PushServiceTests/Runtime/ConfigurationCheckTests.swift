import TestSupport
import APNs
import Foundation
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
        #expect(warnings.contains { $0.hasPrefix("warning: app N: no apns, fcm or hms settings") })
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
}

import ConfigSupport
import Foundation
import TestSupport
import Testing
@testable import PushService

#if canImport(Glibc)
    import Glibc
#endif

/// Key and secret files by their modes: readable by every user is an error (the relay does not
/// start), by the group a warning, by the owner alone fine.
@Suite(.timeLimit(.minutes(5))) struct CredentialFileAuditTests {
    typealias Access = FileExposure.Access

    @Test(arguments: [
        (Access(mode: 0o600, owner: 1000, group: 1000), FileExposure.private),
        (Access(mode: 0o400, owner: 1000, group: 1000), .private),
        (Access(mode: 0o700, owner: 1000, group: 1000), .private),
        (Access(mode: 0o640, owner: 1000, group: 1000), .groupReadable),
        (Access(mode: 0o440, owner: 1000, group: 50), .groupReadable),
        (Access(mode: 0o644, owner: 1000, group: 1000), .everyoneReadable),
        (Access(mode: 0o604, owner: 1000, group: 1000), .everyoneReadable),
        (Access(mode: 0o004, owner: 0, group: 1000), .everyoneReadable),
        // root granting a group read access, as the package installs its files (root:push-relay 0640).
        (Access(mode: 0o640, owner: 0, group: 1000), .private),
        (Access(mode: 0o644, owner: 0, group: 1000), .everyoneReadable),
    ])
    func exposureByMode(access: Access, expected: FileExposure) {
        #expect(FileExposure.of(access) == expected)
    }

    @Test func theAuditStopsAtEveryoneReadableWarnsOfGroupReadableAndSkipsWhatItCannotSee() {
        let files = ["a", "b", "c", "d"].map { CredentialFile(key: "k.\($0)", path: "/etc/\($0)") }
        let modes: [String: UInt32] = ["/etc/a": 0o600, "/etc/b": 0o640, "/etc/c": 0o644]
        let audit = CredentialFileAudit(files: files) { path in
            modes[path].map { Access(mode: $0, owner: 1000, group: 1000) }
        }
        #expect(audit.findings.map(\.file.path) == ["/etc/b", "/etc/c"])
        #expect(audit.warnings == ["k.b: /etc/b is readable by its group (mode 0640); chmod 600 keeps it to its owner"])
        #expect(audit.error == .invalidValue(key: "k.c", reason: "/etc/c is readable by every user (mode 0644): chmod 600 it"))
        let fine = CredentialFileAudit(files: [files[0], files[3]]) { modes[$0].map { Access(mode: $0, owner: 1, group: 1) } }
        #expect(fine.findings.isEmpty && fine.error == nil)
    }

    /// A configuration whose every key and secret file is `mode`: an API token `{file:}`, an
    /// APNs .p8 key and an FCM service account.
    static func configuration(_ directory: TemporaryDirectory, mode: Int, chmod file: String) throws -> String {
        let token = try directory.write("api-token", "token-0123456789abcdef0123")
        let key = try directory.write(
            "AuthKey_DEVKEY1234.p8", try String(contentsOfFile: Repository.devCert("AuthKey_DEVKEY1234.p8"), encoding: .utf8))
        let account = try directory.write(
            "sa.json", try String(contentsOfFile: Repository.devCert("fcm-service-account.json"), encoding: .utf8))
        let path = directory.path(file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        // A file of root's may be 0640 (root granting a group): as root, the file becomes nobody's.
        if geteuid() == 0 { #expect(chown(path, 65534, 65534) == 0) }
        return """
            listen: {}
            database: {path: p}
            apps:
              - app_id: A
                api_token: {file: \(token)}
                apns: {topic: t, auth: {token: {key_file: \(key), key_id: DEVKEY1234, team_id: DEVTEAM123}}}
                fcm: {service_account: \(account)}
            """
    }

    @Test(arguments: [
        ("api-token", "apps[0].api_token.file"), ("AuthKey_DEVKEY1234.p8", "apps[0].apns.auth.token.key_file"),
        ("sa.json", "apps[0].fcm.service_account"),
    ])
    func aFileEveryoneCanReadStopsTheConfiguration(file: String, key: String) throws {
        let directory = try TemporaryDirectory()
        let yaml = try Self.configuration(directory, mode: 0o644, chmod: file)
        #expect(
            throws: ConfigurationError.invalidValue(
                key: key, reason: "\(directory.path(file)) is readable by every user (mode 0644): chmod 600 it")
        ) {
            try RelayConfiguration.parse(yaml: yaml, environment: ConfigurationEnvironment(variables: [:]))
        }
    }

    @Test func aFileItsGroupCanReadIsAWarning() throws {
        let directory = try TemporaryDirectory()
        let yaml = try Self.configuration(directory, mode: 0o640, chmod: "AuthKey_DEVKEY1234.p8")
        let configuration = try RelayConfiguration.parse(yaml: yaml, environment: ConfigurationEnvironment(variables: [:]))
        #expect(
            configuration.warnings == [
                "apps[0].apns.auth.token.key_file: \(directory.path("AuthKey_DEVKEY1234.p8")) is readable by its group (mode 0640); chmod 600 keeps it to its owner"
            ])
    }

    @Test func privateFilesAreFine() throws {
        let directory = try TemporaryDirectory()
        let yaml = try Self.configuration(directory, mode: 0o600, chmod: "sa.json")
        #expect(try RelayConfiguration.parse(yaml: yaml, environment: ConfigurationEnvironment(variables: [:])).warnings.isEmpty)
    }

    /// systemd keeps credentials private itself (and as seen here they are another user's view of
    /// them), so files under $CREDENTIALS_DIRECTORY are not judged by their mode.
    @Test func systemdCredentialsAreLeftAlone() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("creds"), withIntermediateDirectories: true)
        let token = try directory.write("creds/api-token", "token-0123456789abcdef0123")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: token)
        let configuration = try RelayConfiguration.parse(
            yaml: "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: {credential: api-token}}]",
            environment: ConfigurationEnvironment(variables: ["CREDENTIALS_DIRECTORY": directory.path("creds")]))
        #expect(configuration.warnings.isEmpty)
        #expect(configuration.credentialFiles(environment: ConfigurationEnvironment(variables: [:])).isEmpty)
    }

    /// `check-config` reports a group-readable key as a warning, and one every user can read as
    /// an invalid configuration.
    @Test func checkConfigReportsTheSame() async throws {
        let directory = try TemporaryDirectory()
        let group = try directory.write("group.yaml", try Self.configuration(directory, mode: 0o640, chmod: "sa.json"))
        let warned = await ConfigurationCheck.run(path: group, probe: false, environment: ConfigurationEnvironment(variables: [:]))
        #expect(
            warned.findings.contains {
                $0.severity == .warning && $0.subject == "configuration" && $0.message.contains("sa.json is readable by its group")
            }, "\(warned.findings)")
        let everyone = try directory.write("everyone.yaml", try Self.configuration(directory, mode: 0o644, chmod: "sa.json"))
        let refused = await ConfigurationCheck.run(path: everyone, probe: false, environment: ConfigurationEnvironment(variables: [:]))
        #expect(refused.configurationInvalid)
        #expect(refused.findings.contains { $0.severity == .error && $0.message.contains("sa.json is readable by every user") })
    }
}

import Foundation
import TestSupport
import Testing
@testable import PushService

#if canImport(Glibc)
    import Glibc
#endif

/// The host credentials directory `check-config` reads (`--credentials-dir`, else the unit's):
/// the directory and the files in it judged by their modes, as warnings.
@Suite(.timeLimit(.minutes(5))) struct CredentialsDirectoryAuditTests {
    typealias Access = FileExposure.Access

    static func audit(directory mode: UInt32, owner: UInt32 = 1000, files: [String: UInt32]) -> [String] {
        CredentialsDirectoryAudit(
            directory: "/etc/push-relay/credentials",
            access: { path in
                if path == "/etc/push-relay/credentials" { return Access(mode: mode, owner: owner, group: 50) }
                return files[(path as NSString).lastPathComponent].map { Access(mode: $0, owner: owner, group: 50) }
            },
            files: { _ in Array(files.keys) }
        ).warnings
    }

    @Test func aPrivateDirectoryOfPrivateFilesIsFine() {
        #expect(Self.audit(directory: 0o700, files: ["api-token": 0o600, "apns-key.p8": 0o400]).isEmpty)
        // The package's layout: root:push-relay 0750, the token root:push-relay 0640.
        #expect(Self.audit(directory: 0o750, owner: 0, files: ["api-token": 0o640]).isEmpty)
    }

    @Test func aDirectoryEveryUserCanEnterOrListIsAWarning() {
        #expect(
            Self.audit(directory: 0o755, files: [:]) == [
                "the credentials directory /etc/push-relay/credentials is open to every user (mode 0755): chmod 700 it"
            ])
        #expect(Self.audit(directory: 0o701, files: [:]).count == 1)
        #expect(
            Self.audit(directory: 0o750, files: [:]) == [
                "the credentials directory /etc/push-relay/credentials is open to its group (mode 0750): chmod 700 it"
            ])
    }

    @Test func filesOthersCanReadAreWarningsInNameOrder() {
        #expect(
            Self.audit(directory: 0o700, files: ["b-key.p8": 0o644, "a-token": 0o640, "c": 0o600]) == [
                "credential a-token: /etc/push-relay/credentials/a-token is readable by its group (mode 0640); chmod 600 keeps it to its owner",
                "credential b-key.p8: /etc/push-relay/credentials/b-key.p8 is readable by every user (mode 0644): chmod 600 it "
                    + "(the service reads systemd's private copy, but this file is the secret)",
            ])
    }

    @Test func aDirectoryThatIsNotThereSaysNothing() {
        #expect(CredentialsDirectoryAudit(directory: "/nonexistent/credentials").warnings.isEmpty)
    }

    /// On real files: subdirectories are not credentials, links are followed.
    @Test func realFilesAreJudgedAndSubdirectoriesLeftAlone() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.url.path)
        let token = try directory.write("api-token", "0123456789abcdef0123")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: token)
        try FileManager.default.createDirectory(atPath: directory.path("sub"), withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path("sub"))
        _ = try directory.write("private", "x")
        #expect(CredentialsDirectoryAudit.files(in: directory.url.path)?.sorted() == ["api-token", "private"])
        let warnings = CredentialsDirectoryAudit(directory: directory.url.path).warnings
        #expect(warnings.count == 1 && warnings[0].hasPrefix("credential api-token: \(token) is readable by every user"), "\(warnings)")
    }
}

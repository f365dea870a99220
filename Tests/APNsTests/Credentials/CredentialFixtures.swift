import Foundation
import TestSupport
import Synchronization
import Testing
@testable import APNs

/// Paths of the development credentials in certs/dev (made by scripts/gen-dev-certs.py) and
/// small helpers shared by the credential tests.
enum CredentialFixtures {
    static let repositoryRoot = Repository.root

    static func dev(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("certs/dev/\(name)").path
    }

    static func bad(_ name: String) -> String { dev("bad/\(name)") }

    static var p8: String { dev("AuthKey_DEVKEY1234.p8") }
    static var p8PublicKey: String { dev("AuthKey_DEVKEY1234.pub.pem") }
    static let keyID = "DEVKEY1234"
    static let teamID = "TEAM123456"

    /// A fresh empty directory, removed by `body`'s end.
    static func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pushrelay-creds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// The error `body` throws, or nil (recorded as a failure) if it succeeds.
    static func credentialError<R>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws(APNsCredentialError) -> R
    ) -> APNsCredentialError? {
        do {
            _ = try body()
            Issue.record("expected an APNsCredentialError, but the call succeeded", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// Runs scripts/verify_jwt.py (Python `cryptography`, not our code) and returns its exit
    /// status (0: the ES256 signature verifies with the public key; 1: it does not; 2: bad
    /// input) and what it wrote to stderr.
    static func verifyWithPython(jwt: String, publicKeyPath: String) throws -> (status: Int32, message: String) {
        let result = try ChildProcess.runBlocking(
            "/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("scripts/verify_jwt.py").path, jwt, publicKeyPath])
        return (result.status, result.stderr)
    }
}

/// A wall clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

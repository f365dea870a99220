import Foundation
import TestSupport
import Testing

@testable import HTTP2Transport

/// Paths of the development credentials in certs/dev (made by scripts/gen-dev-certs.py) and
/// small helpers shared by the credential tests.
enum CredentialFixtures {
    static func dev(_ name: String) -> String { Repository.devCert(name) }

    static func bad(_ name: String) -> String { dev("bad/\(name)") }

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
        _ body: () throws(CredentialError) -> R
    ) -> CredentialError? {
        do {
            _ = try body()
            Issue.record("expected a CredentialError, but the call succeeded", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}

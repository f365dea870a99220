import Foundation
import PushStore
import Synchronization

/// Every app's secondary API tokens, as digests in memory, so `Api-Token` is checked without
/// the database. Loaded from the store at start; the REST routes change it after the store has
/// committed (a new token is usable once its creator has it; a revoked one stops within the
/// request that revoked it).
public final class SecondaryAPITokens: Sendable {
    private struct Entry: Sendable {
        let app: String
        let digest: [UInt8]
    }

    private let entries: Mutex<[Entry]>

    public init(_ tokens: [StoredAPIToken]) {
        entries = Mutex(tokens.map { Entry(app: $0.app, digest: Array($0.digest)) })
    }

    /// The app whose secondary token has this digest. Compares against every entry in constant
    /// time without stopping early, as `AppRegistry` does for master tokens.
    func app(forDigest presented: [UInt8]) -> String? {
        entries.withLock { entries in
            var found: String?
            for entry in entries where AppRegistry.constantTimeEqual(entry.digest, presented) {
                found = entry.app
            }
            return found
        }
    }

    func add(_ token: StoredAPIToken) {
        entries.withLock { $0.append(Entry(app: token.app, digest: Array(token.digest))) }
    }

    func remove(_ token: StoredAPIToken) {
        let digest = Array(token.digest)
        entries.withLock { $0.removeAll { $0.app == token.app && $0.digest == digest } }
    }
}

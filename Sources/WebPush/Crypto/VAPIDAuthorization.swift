import Foundation
import Synchronization

/// The `Authorization: vapid t=…,k=…` header per push-service origin (RFC 8292 §3; no space
/// after the comma, which some push services' parsers need): a JWT is
/// signed once per origin and reused until an hour before it ends, so a busy relay signs a few
/// times a day instead of once per push.
final class VAPIDAuthorization: Sendable {
    let key: VAPIDKey
    /// `sub`: a `mailto:` or `https:` contact for the push service's operators.
    let subject: String
    /// How long a JWT is valid (push services refuse more than 24 h).
    static let lifetime: Int64 = 12 * 3600
    /// Signed again this long before it ends.
    static let renewal: Int64 = 3600
    private let cache = Mutex<[String: (header: String, expiresAt: Int64)]>([:])
    /// Origins kept at most (one per push service in practice).
    private static let cacheLimit = 64

    init(key: VAPIDKey, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The header for `origin` at `now` (Unix seconds).
    func header(origin: String, now: Int64) throws -> String {
        if let cached = cache.withLock({ $0[origin] }), cached.expiresAt - Self.renewal > now { return cached.header }
        let expiresAt = now + Self.lifetime
        let header = "vapid t=\(try key.token(audience: origin, subject: subject, expiresAt: expiresAt)),k=\(key.publicKey)"
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll() }
            cache[origin] = (header, expiresAt)
        }
        return header
    }
}

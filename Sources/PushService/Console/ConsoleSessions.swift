import Crypto
import Foundation
import PushStore
import StoreContract

/// The console's sessions, kept in the store (`ConsoleSessionStore`) so that every relay of a
/// fleet knows each one, found by the cookie's value under `ConsoleSessionRules`.
///
/// A cookie is 256 random bits with an HMAC tag under a key the fleet shares (the session
/// tokens' format, under a key of its own): a forged or guessed cookie is refused for the cost
/// of one HMAC, and only cookies the fleet made cost a database lookup.
final class ConsoleSessions: Sendable {
    /// The session cookie's name.
    static let cookieName = "pushrelay_console"

    private let store: any ConsoleSessionStore
    private let rules: ConsoleSessionRules
    private let cookies: SessionTokenFormat
    private let now: @Sendable () -> Int64

    /// - Parameter nowMs: Unix milliseconds (shared by the fleet, unlike a monotonic clock).
    init(store: any ConsoleSessionStore, rules: ConsoleSessionRules, cookies: SessionTokenFormat, nowMs: @escaping @Sendable () -> Int64) {
        self.store = store
        self.rules = rules
        self.cookies = cookies
        now = nowMs
    }

    /// A new session; returns the cookie's value and the session.
    func create(identity: ConsoleIdentity, app: String) async throws -> (cookie: String, session: ConsoleSession) {
        let cookie = cookies.generate()
        let nowMs = now()
        let session = ConsoleSession(identity: identity, app: app, csrfToken: CredentialToken.generate())
        let (kind, name, digest) = identity.stored
        let stored = StoredConsoleSession(
            identityKind: kind, identityName: name, tokenDigest: digest, app: app, csrfToken: session.csrfToken, createdAtMs: nowMs,
            lastSeenAtMs: nowMs)
        try await store.addConsoleSession(
            key: Self.key(cookie), stored, maximum: rules.maximumSessions, cutoff: rules.cutoff(nowMs: nowMs))
        return (cookie, session)
    }

    /// The live session of this cookie value, its idle clock restarted; nil (and forgotten) when
    /// it has ended.
    func session(cookie: String) async throws -> ConsoleSession? {
        guard cookies.classify(cookie) == .tagged else { return nil }
        let key = Self.key(cookie)
        guard let stored = try await store.consoleSession(key: key) else { return nil }
        let nowMs = now()
        guard rules.isLive(stored, nowMs: nowMs),
            let identity = ConsoleIdentity(kind: stored.identityKind, name: stored.identityName, digest: stored.tokenDigest)
        else {
            try await store.removeConsoleSession(key: key)
            return nil
        }
        if rules.needsTouch(stored, nowMs: nowMs) { try await store.touchConsoleSession(key: key, atMs: nowMs) }
        return ConsoleSession(identity: identity, app: stored.app, csrfToken: stored.csrfToken)
    }

    func switchApp(cookie: String, to app: String) async throws {
        try await store.switchConsoleSession(key: Self.key(cookie), toApp: app)
    }

    func end(cookie: String) async throws {
        try await store.removeConsoleSession(key: Self.key(cookie))
    }

    private static func key(_ cookie: String) -> Data {
        Data(SHA256.hash(data: Data(cookie.utf8)))
    }
}

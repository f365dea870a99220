import Crypto
import Foundation
import Synchronization

/// The console's live sessions (`ConsoleSessionTable` under a lock), found by the cookie's value.
final class ConsoleSessions: Sendable {
    /// The session cookie's name.
    static let cookieName = "pushrelay_console"

    private let table: Mutex<ConsoleSessionTable>
    private let now: @Sendable () -> Int64

    /// - Parameter nowMicros: a monotonic clock in microseconds.
    init(idleTimeout: Duration, nowMicros: @escaping @Sendable () -> Int64 = CredentialRateLimiter.monotonicMicros) {
        table = Mutex(ConsoleSessionTable(idleTimeout: idleTimeout))
        now = nowMicros
    }

    /// A new session; returns the cookie's value (256 random bits) and the session.
    func create(identity: ConsoleIdentity, app: String) -> (cookie: String, session: ConsoleSession) {
        let cookie = CredentialToken.generate()
        let nowMicros = now()
        let session = ConsoleSession(
            identity: identity, app: app, csrfToken: CredentialToken.generate(), lastSeenMicros: nowMicros, createdMicros: nowMicros)
        table.withLock { $0.insert(session, key: Self.key(cookie)) }
        return (cookie, session)
    }

    /// The live session of this cookie value, its idle clock restarted.
    func session(cookie: String) -> ConsoleSession? {
        guard CredentialToken.isWellFormed(cookie) else { return nil }
        let nowMicros = now()
        return table.withLock { $0.touch(Self.key(cookie), nowMicros: nowMicros) }
    }

    func switchApp(cookie: String, to app: String) {
        table.withLock { $0.switchApp(Self.key(cookie), to: app) }
    }

    func end(cookie: String) {
        table.withLock { $0.remove(Self.key(cookie)) }
    }

    var count: Int { table.withLock { $0.count } }

    private static func key(_ cookie: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(cookie.utf8)))
    }
}

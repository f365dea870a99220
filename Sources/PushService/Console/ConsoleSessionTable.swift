/// The console's sessions, decided without I/O: keyed by the SHA-256 of the cookie's value (a
/// copy of the table names no usable cookie), ended after `idleTimeout` without a request or
/// `maximumLifetime` in all, and bounded: at `maximumSessions` the session idle longest of the
/// tenant holding the most goes first, so an app signing in again and again evicts its own
/// sessions, not another app's.
///
/// In memory, per relay: a relay restart signs everyone out, and behind a load balancer a fleet
/// needs sticky sessions for `/console` (docs/console.md). What a session grants is checked
/// against the fleet's credentials on every request (`ConsoleAccess`), so revocation still holds
/// everywhere.
struct ConsoleSessionTable {
    let idleTimeoutMicros: Int64
    let maximumLifetimeMicros: Int64
    let maximumSessions: Int
    private var sessions: [[UInt8]: ConsoleSession] = [:]

    init(idleTimeout: Duration, maximumLifetime: Duration = .seconds(12 * 3600), maximumSessions: Int = 10_000) {
        idleTimeoutMicros = Self.micros(idleTimeout)
        maximumLifetimeMicros = Self.micros(maximumLifetime)
        self.maximumSessions = max(1, maximumSessions)
    }

    var count: Int { sessions.count }

    /// Adds a session under `key`, making room first if the table is full.
    mutating func insert(_ session: ConsoleSession, key: [UInt8]) {
        if sessions[key] == nil, sessions.count >= maximumSessions {
            removeExpired(nowMicros: session.lastSeenMicros)
            if sessions.count >= maximumSessions { evictFromTheLargestTenant() }
        }
        sessions[key] = session
    }

    /// The live session under `key`, its idle clock restarted; nil (and forgotten) when it has
    /// ended.
    mutating func touch(_ key: [UInt8], nowMicros: Int64) -> ConsoleSession? {
        guard var session = sessions[key] else { return nil }
        guard isLive(session, nowMicros: nowMicros) else {
            sessions[key] = nil
            return nil
        }
        session.lastSeenMicros = nowMicros
        sessions[key] = session
        return session
    }

    /// Changes the app a live session shows.
    mutating func switchApp(_ key: [UInt8], to app: String) {
        sessions[key]?.app = app
    }

    /// Drops the idlest session of the tenant (`ConsoleIdentity.tenant`) holding the most; O(n),
    /// only when the table is full (sign-ins are rate-limited).
    private mutating func evictFromTheLargestTenant() {
        var held: [[UInt8]: Int] = [:]
        for session in sessions.values { held[session.identity.tenant, default: 0] += 1 }
        guard let largest = held.max(by: { $0.value < $1.value })?.key,
            let idlest = sessions.filter({ $0.value.identity.tenant == largest })
                .min(by: { $0.value.lastSeenMicros < $1.value.lastSeenMicros })
        else { return }
        sessions[idlest.key] = nil
    }

    mutating func remove(_ key: [UInt8]) {
        sessions[key] = nil
    }

    mutating func removeExpired(nowMicros: Int64) {
        sessions = sessions.filter { isLive($0.value, nowMicros: nowMicros) }
    }

    private func isLive(_ session: ConsoleSession, nowMicros: Int64) -> Bool {
        nowMicros - session.lastSeenMicros < idleTimeoutMicros && nowMicros - session.createdMicros < maximumLifetimeMicros
    }

    private static func micros(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }
}

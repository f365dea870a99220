import Logging
import PostgresNIO
import StoreContract
import Synchronization

/// Keeps this relay's `RecipientCache` and credential view honest about the other relays'
/// writes: LISTEN on `pushrelay_registry`, on a connection of its own. A notification's payload
/// says what changed: `r:<app>` a registry write of that app (its part of the cache is
/// forgotten), `c:<app>` that app's API tokens or session revocations (`CredentialWatch`); an
/// empty or unknown payload (an older relay's) forgets the whole cache.
///
/// A notification missed would leave a stale cache in use, so the cache is used only while
/// LISTEN is known to be in effect (`isListening`). When the connection fails (or stops answering
/// the heartbeat) the flag drops, the cache is emptied, the credential view is told it no longer
/// hears (it polls the database meanwhile), and LISTEN is re-established after a short backoff;
/// meanwhile every webhook read goes to the database.
final class RegistryListener: Sendable {
    static let channel = "pushrelay_registry"
    /// Payload prefixes: a registry write of an app, a credential change of an app.
    static let registryPrefix = "r:"
    static let credentialPrefix = "c:"
    /// How often the idle LISTEN connection proves it is alive: a connection cut without a FIN
    /// (a dead peer, a dropped route) would otherwise look like one with nothing to say.
    static let heartbeatInterval: Duration = .seconds(5)
    static let heartbeatTimeout: Duration = .seconds(2)
    static let firstBackoff: Duration = .milliseconds(50)
    static let maximumBackoff: Duration = .seconds(5)

    private let cache: RecipientCache
    private let credentials: CredentialWatch
    private let logger: Logger
    private let listening = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(cache: RecipientCache, credentials: CredentialWatch, logger: Logger) {
        self.cache = cache
        self.credentials = credentials
        self.logger = logger
    }

    /// Whether LISTEN is in effect now: only then may the cache be read or filled.
    var isListening: Bool { listening.load(ordering: .acquiring) }

    /// Starts listening on `first`, reconnecting with `connect` whenever that connection is lost.
    /// The task is the store's (unstructured: it lives as long as the store), cancelled by `stop`.
    func start(first: PostgresConnection, connect: @escaping @Sendable () async throws -> PostgresConnection) {
        let listenTask = Task { await self.run(first: first, connect: connect) }
        task.withLock { $0 = listenTask }
    }

    func stop() {
        task.withLock { $0 }?.cancel()
    }

    func stopAndWait() async {
        let listenTask = task.withLock { $0 }
        listenTask?.cancel()
        await listenTask?.value
    }

    private func run(first: PostgresConnection, connect: @Sendable () async throws -> PostgresConnection) async {
        var next: PostgresConnection? = first
        var backoff = Self.firstBackoff
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let current: PostgresConnection
                if let next { current = next } else { current = try await connect() }
                next = nil
                connection = current
                if try await listen(on: current) { backoff = Self.firstBackoff }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "LISTEN \(Self.channel) lost; the recipient cache is off until it is back",
                        metadata: ["error": "\(PostgresStore.describe(error))"])
                }
            }
            goDeaf()
            try? await connection?.close()
            guard !Task.isCancelled else { break }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, Self.maximumBackoff)
        }
        goDeaf()
        // Stopped before it was used (a store released at once): connections must be closed.
        try? await next?.close()
    }

    /// Stop using the cache, then empty it. In that order: a reader that saw the flag still up
    /// files what it reads under a version this invalidation has already moved past.
    private func goDeaf() {
        listening.store(false, ordering: .releasing)
        credentials.setHearing(false)
        cache.invalidateAll()
    }

    /// What one notification says (see the type's comment).
    private func received(_ payload: String) {
        if payload.hasPrefix(Self.registryPrefix) {
            cache.invalidate(app: String(payload.dropFirst(Self.registryPrefix.count)))
        } else if payload.hasPrefix(Self.credentialPrefix) {
            credentials.changed(app: String(payload.dropFirst(Self.credentialPrefix.count)))
        } else {
            cache.invalidateAll()
        }
    }

    /// Listens until the connection fails or the task is cancelled. Returns whether LISTEN was
    /// in effect at some point (a working connection: the backoff starts over).
    private func listen(on connection: PostgresConnection) async throws -> Bool {
        var listened = false
        try await connection.listen(on: Self.channel) { notifications in
            // In effect from here. Writes committed before were never notified, so what the
            // cache holds is suspect.
            listened = true
            cache.invalidateAll()
            listening.store(true, ordering: .releasing)
            credentials.setHearing(true)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await notification in notifications { self.received(notification.payload) }
                }
                group.addTask { try await self.heartbeat(connection) }
                // Either one ending means the connection is gone (or the store is closing).
                try await group.next()
                group.cancelAll()
            }
        }
        return listened
    }

    private func heartbeat(_ connection: PostgresConnection) async throws {
        let logger = logger
        while true {
            try await Task.sleep(for: Self.heartbeatInterval)
            try await withDeadline(Self.heartbeatTimeout) { try await connection.run("SELECT 1", logger: logger) }
        }
    }
}

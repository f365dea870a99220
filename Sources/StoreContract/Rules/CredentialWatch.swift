import Synchronization

/// Where a store reports credential changes made by other relays of its fleet (API tokens
/// created or revoked, an app's sessions revoked), so each relay's in-memory view of them stays
/// the database's. A store with no other writers (SQLite) never reports and always hears.
public final class CredentialWatch: Sendable {
    private let handlers = Mutex<[@Sendable (String?) -> Void]>([])
    private let hearing: Atomic<Bool>

    public init(hearing: Bool) {
        self.hearing = Atomic(hearing)
    }

    /// `handler` gets the app whose credentials changed, or nil when changes of any app may have
    /// been missed (the notification channel was lost and is back): reload everything.
    public func onChange(_ handler: @escaping @Sendable (String?) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    /// Whether other relays' changes are heard now. While not, a view of the credentials must
    /// check the database itself (`CredentialDirectory` polls, and refuses what it cannot check).
    public var isHearing: Bool { hearing.load(ordering: .acquiring) }

    package func changed(app: String?) {
        for handler in handlers.withLock({ $0 }) { handler(app) }
    }

    package func setHearing(_ value: Bool) {
        hearing.store(value, ordering: .releasing)
        // Notifications may have been missed before this point: everything is reloaded.
        if value { changed(app: nil) }
    }
}

import PushCore

/// Which registry writes a read has seen, per app: the rule behind `RecipientCache` and
/// `SnapshotReaders`. A pure value; the cache keeps it under its lock.
///
/// Every committed registry write (users, tokens, preferences, templates) moves `generation` and
/// stamps its app with it. A read takes `current(app)` and `generation` before it reads the
/// database; what it read of the app is good while the app's stamp is unchanged — so a write of
/// app A leaves app B's cached users alone (one tenant's REST traffic used to empty every
/// tenant's cache). A snapshot begun at generation G has every write stamped G or lower.
///
/// `everything()` stands for writes whose apps are unknown (another relay's notification without
/// a payload, or notifications that may have been missed): every app's stamp moves.
package struct RegistryVersions: Sendable {
    /// Apps remembered by name; past it, a write counts as `everything()`. Apps come from the
    /// configuration, so this is never reached in practice; it bounds memory should a peer
    /// notify made-up names.
    static let maximumApps = 4_096

    private(set) package var generation: UInt64 = 0
    private var stamps: [ExactID: UInt64] = [:]
    /// The stamp of every app not in `stamps`, and the least of all.
    private var floor: UInt64 = 0

    package init() {}

    /// The version of `app`'s registry rows: equal for two reads means no write in between.
    package func current(_ app: ExactID) -> UInt64 {
        max(stamps[app] ?? 0, floor)
    }

    /// A write of `app` committed.
    package mutating func wrote(_ app: ExactID) {
        guard stamps[app] != nil || stamps.count < Self.maximumApps else { return everything() }
        generation += 1
        stamps[app] = generation
    }

    /// Writes of unknown apps committed (or may have): nothing read before is current.
    package mutating func everything() {
        generation += 1
        floor = generation
        stamps.removeAll()
    }
}

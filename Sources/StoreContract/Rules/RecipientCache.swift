import PushCore
import Synchronization

/// What the webhook read about users and app templates, reused until the next write to those
/// tables of the same app commits.
///
/// Correctness rests on the per-app stamps of `RegistryVersions`: every write to users, tokens,
/// preferences or templates goes through `SQLiteStore.registryWrite` (or PostgreSQL's, or a
/// peer's notification), which stamps its app after the commit. A reader takes the app's stamp
/// *before* reading the database (`lookUp` hands it out) and files what it read under it; an
/// entry is used only while its app's stamp is unchanged. So an entry can be older than the
/// database only if a write of its app committed after it was read, and then the stamp has moved
/// and the entry is ignored. A write of app A leaves app B's entries in use: one tenant's REST
/// traffic cannot empty the others' cache.
///
/// Keys are bytes (`ExactID`): two spellings of one name are two users here as in the store.
///
/// Why: in WAL mode a reader's page cache is dropped whenever anyone commits, and the webhook's
/// own commits come every few milliseconds, so every read went back to the file (pread per page).
package final class RecipientCache: Sendable {
    /// A user as the webhook needs them, for every channel: nil `state` means unknown to the relay.
    package struct UserEntry: Sendable {
        package var state: RecipientPushState?
        package var channelPreferences: [ExactID: ChannelPushPreference]

        /// The memberwise initializer, visible to the package (PushStorePostgres fills the cache too).
        package init(state: RecipientPushState?, channelPreferences: [ExactID: ChannelPushPreference]) {
            self.state = state
            self.channelPreferences = channelPreferences
        }

        /// About what the entry holds in memory, in bytes: strings by their UTF-8 length plus a
        /// fixed overhead per value. An estimate, but one that grows with everything a tenant
        /// controls (tokens, channel preferences and their sounds, the user id).
        var approximateBytes: Int {
            var bytes = 256
            if let state {
                bytes += state.userID.utf8.count + state.preferences.approximateBytes
                bytes += state.tokens.reduce(0) { $0 + 64 + $1.token.utf8.count }
                bytes += 64 + (state.channelPreference.pushSound?.utf8.count ?? 0)
            }
            for (channel, preference) in channelPreferences {
                bytes += 96 + channel.text.utf8.count + (preference.pushSound?.utf8.count ?? 0)
            }
            return bytes
        }
    }

    /// A cached user behind one reference, with its size reckoned once. Swift's `Dictionary` keeps
    /// values inline in its buckets, empty ones included (it doubles at a load of 3/4, so up to
    /// 2.67 buckets per entry); an entry inline is about 200 bytes, behind a reference 8. Peak RSS
    /// at a million users (`bench-costs.sh` curve 1) went from 117–118 to 113–114 MB.
    private final class Held: Sendable {
        let entry: UserEntry
        /// `entry.approximateBytes`, reckoned once.
        let bytes: Int
        /// The app's stamp it was read under: current while the app's stamp is this one.
        let stamp: UInt64

        init(_ entry: UserEntry, stamp: UInt64) {
            self.entry = entry
            self.bytes = entry.approximateBytes
            self.stamp = stamp
        }
    }

    private struct Contents {
        var versions = RegistryVersions()
        /// Entries of every app; those of an app written since they were read stay until they
        /// are read again (replaced) or evicted.
        var users: [UserKey: Held] = [:]
        var templates: [ExactID: (stamp: UInt64, templates: [PushTemplateName: PushMessageTemplate])] = [:]
        /// `approximateBytes` of the users held.
        var bytes = 0
        /// Users offered while the cache was at least a quarter full (kept across versions: it says
        /// how often a user comes back, not what they hold).
        var doorkeeper: CacheDoorkeeper

        /// Full: drops users spread evenly over the dictionary's order, which follows the keys'
        /// hashes and so is no particular user's, until both bounds hold. A quarter goes at once,
        /// so the cost is spread over the next quarter's inserts; starting over instead left a
        /// working set of about the capacity missing half the time.
        ///
        /// Spread, not the first ones in a row: removing a contiguous run of a quarter of the
        /// table's buckets from Swift's linearly probed `Dictionary` made every later lookup and
        /// insert probe long runs: 68 µs per lookup + insert at 100,000 users against 0.5 µs spread
        /// (a Swift micro-benchmark of this loop); at a million registered users it was 9 % of the
        /// relay's CPU in `perf` and halved the events/s of `bench-costs.sh` curve 1.
        mutating func evict(toUsers maxUsers: Int, bytes maxBytes: Int) {
            while !users.isEmpty, users.count > max(0, maxUsers) || bytes > max(0, maxBytes) {
                let total = users.count
                let byCount = total - max(0, maxUsers)
                let byBytes =
                    bytes > max(0, maxBytes)
                    ? Int((Double(bytes - max(0, maxBytes)) / Double(bytes) * Double(total)).rounded(.up)) : 0
                let drop = min(total, max(1, byCount, byBytes))
                // Every (total / drop)-th entry, counted without division (as a line is drawn).
                var doomed: [UserKey] = []
                doomed.reserveCapacity(drop)
                var step = 0
                for (key, held) in users {
                    step += drop
                    if step >= total {
                        step -= total
                        doomed.append(key)
                        bytes -= held.bytes
                    }
                }
                for key in doomed { users.removeValue(forKey: key) }
            }
        }
    }

    private struct UserKey: Hashable {
        var app: ExactID
        var user: ExactID
    }

    /// What a reader files its reads under (`lookUp` hands it out, before the database is read).
    package struct Version: Sendable, Hashable {
        /// The app's stamp (`RegistryVersions.current`).
        package var app: UInt64
        /// `RegistryVersions.generation`: a snapshot begun after this was taken has every write
        /// stamped this or lower.
        package var generation: UInt64
    }

    /// The cached part of a read, and what the rest must be read and filed under.
    package struct Lookup: Sendable {
        package var found: [ExactID: UserEntry]
        /// Users to read from the database, as given.
        package var missing: [String]
        /// The app's templates, when cached.
        package var templates: [PushTemplateName: PushMessageTemplate]?
        package var version: Version

        package init(
            found: [ExactID: UserEntry], missing: [String], templates: [PushTemplateName: PushMessageTemplate]?, version: Version
        ) {
            self.found = found
            self.missing = missing
            self.templates = templates
            self.version = version
        }
    }

    private let contents: Mutex<Contents>
    private let hits = Atomic<UInt64>(0)
    private let misses = Atomic<UInt64>(0)
    /// `contents.users.count` and `contents.bytes`, published by `store` under the lock so that
    /// `statistics` (`/metrics`, which may be unauthenticated) never takes the webhook's lock.
    private let heldUsers = Atomic<Int>(0)
    private let heldBytes = Atomic<Int>(0)
    /// Bounds memory: beyond this many users, or this many bytes, a quarter is dropped.
    package let capacity: Int
    package let byteCapacity: Int

    /// 64 MB by default: a tenant whose users hold thousands of channel preferences each fills
    /// it sooner, but cannot make it grow past it.
    package init(
        capacity: Int = PushStoreConfiguration.defaultRecipientCacheUsers,
        byteCapacity: Int = PushStoreConfiguration.defaultRecipientCacheBytes
    ) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        contents = Mutex(Contents(doorkeeper: CacheDoorkeeper(capacity: capacity)))
    }

    /// The known users' states, with their preference for `channel` (unknown users are left out).
    package static func states(_ entries: [ExactID: UserEntry], channel: String) -> [ExactID: RecipientPushState] {
        var states: [ExactID: RecipientPushState] = [:]
        states.reserveCapacity(entries.count)
        let channel = ExactID(channel)
        for (user, entry) in entries {
            guard var state = entry.state else { continue }
            state.channelPreference = entry.channelPreferences[channel] ?? .defaults
            states[user] = state
        }
        return states
    }

    /// `app`'s version now (for a reader that does not look the cache up first).
    package func version(app: String) -> Version {
        contents.withLock { Version(app: $0.versions.current(ExactID(app)), generation: $0.versions.generation) }
    }

    /// A registry write of `app` committed: its entries are stale, other apps' stay.
    package func invalidate(app: String) {
        contents.withLock { $0.versions.wrote(ExactID(app)) }
    }

    /// Registry writes of unknown apps committed, or may have: nothing cached is current.
    package func invalidateAll() {
        contents.withLock { $0.versions.everything() }
    }

    /// Cached entries for `users` that are current, the users that need a read, and the version
    /// to file that read under.
    package func lookUp(app: String, users: [String]) -> Lookup {
        let appKey = ExactID(app)
        let result = contents.withLock { contents in
            let stamp = contents.versions.current(appKey)
            let version = Version(app: stamp, generation: contents.versions.generation)
            // Sized for every user at once: grown entry by entry, each growth rehashed them all.
            var found: [ExactID: UserEntry] = [:]
            found.reserveCapacity(users.count)
            var missing: [String] = []
            for user in users {
                let key = ExactID(user)
                if let held = contents.users[UserKey(app: appKey, user: key)], held.stamp == stamp {
                    found[key] = held.entry
                } else {
                    missing.append(user)
                }
            }
            let templates = contents.templates[appKey].flatMap { $0.stamp == stamp ? $0.templates : nil }
            return Lookup(found: found, missing: missing, templates: templates, version: version)
        }
        hits.add(UInt64(result.found.count), ordering: .relaxed)
        misses.add(UInt64(result.missing.count), ordering: .relaxed)
        return result
    }

    /// Counts members read without asking the cache (it was not usable), as misses.
    package func countBypassed(_ count: Int) {
        misses.add(UInt64(count), ordering: .relaxed)
    }

    /// Lookups so far and what the cache holds now (`/metrics`).
    package var statistics: RecipientCacheStatistics {
        RecipientCacheStatistics(
            hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed), users: heldUsers.load(ordering: .relaxed),
            bytes: heldBytes.load(ordering: .relaxed))
    }

    /// Files what was read at `version` (dropped if a write committed meanwhile).
    ///
    /// Below a quarter of its bounds the cache keeps every user read: there is room. From there on
    /// a user is kept on their second read since the doorkeeper last cleared (`CacheDoorkeeper`):
    /// at a million registered users with members drawn from all of them, nearly every member is
    /// read once in a long while, and keeping each one filled the cache with entries never used
    /// again, each insert and eviction paid for by the webhook.
    package func store(
        app: String, users: [ExactID: UserEntry], templates: [PushTemplateName: PushMessageTemplate]?, version: Version
    ) {
        let appKey = ExactID(app)
        let keyed = users.map { (key: UserKey(app: appKey, user: $0.key), entry: $0.value) }
        contents.withLock { contents in
            // Read before a write of the app committed: not filed.
            guard contents.versions.current(appKey) == version.app else { return }
            defer {
                heldUsers.store(contents.users.count, ordering: .relaxed)
                heldBytes.store(contents.bytes, ordering: .relaxed)
            }
            // An app's templates are a few KB at most: kept whether or not its users fit.
            if let templates { contents.templates[appKey] = (version.app, templates) }
            guard capacity > 0 else { return }
            let picky = contents.users.count >= capacity / 4 || contents.bytes >= byteCapacity / 4
            // (A user another reader cached meanwhile may be refused here: the entry held is as
            // current, being read at the same version.)
            // Sized (and put behind a reference) only once kept: at a million registered users
            // the doorkeeper refuses nearly every user read, and sizing each was a third of this.
            let kept = (picky ? keyed.filter { contents.doorkeeper.offer($0.key.hashValue) } : keyed).map {
                (key: $0.key, held: Held($0.entry, stamp: version.app))
            }
            let adding = kept.reduce(0) { $0 + $1.held.bytes }
            // A batch larger than the whole budget is not kept at all.
            guard !kept.isEmpty, adding <= byteCapacity, kept.count <= capacity else { return }
            // Users already held are replaced, not added: only the others can overflow it.
            let added = kept.reduce(0) { $0 + (contents.users[$1.key] == nil ? 1 : 0) }
            if contents.users.count + added > capacity || contents.bytes + adding > byteCapacity {
                contents.evict(toUsers: capacity * 3 / 4 - added, bytes: byteCapacity * 3 / 4 - adding)
            }
            for (key, held) in kept {
                if let old = contents.users.updateValue(held, forKey: key) {
                    contents.bytes -= old.bytes
                }
                contents.bytes += held.bytes
            }
        }
    }
}

extension UserPushPreferences {
    /// See `RecipientCache.UserEntry.approximateBytes`.
    fileprivate var approximateBytes: Int {
        256 + timezone.utf8.count + pushSound.utf8.count + dndSchedules.count * 64
            + pushBlockedBotIDs.reduce(0) { $0 + 32 + $1.utf8.count }
    }
}

import PushCore
import Synchronization

/// What the webhook read about users and app templates, reused until the next write to those
/// tables commits.
///
/// Correctness rests on one counter: every write to users, tokens, preferences or templates goes
/// through `SQLiteStore.registryWrite`, which bumps `version` after the commit. A reader takes the
/// version *before* reading SQLite and files what it read under that version; an entry is used
/// only while the version is unchanged. So an entry can be older than the database only if a
/// write committed after it was read, and then the version has moved and the entry is ignored.
/// Under webhook load with rare REST writes nearly every lookup hits; a REST write empties it in
/// effect, which costs one read per user, as without the cache.
///
/// Why: in WAL mode a reader's page cache is dropped whenever anyone commits, and the webhook's
/// own commits come every few milliseconds, so every read went back to the file (pread per page).
package final class RecipientCache: Sendable {
    /// A user as the webhook needs them, for every channel: nil `state` means unknown to the relay.
    package struct UserEntry: Sendable {
        package var state: RecipientPushState?
        package var channelPreferences: [String: ChannelPushPreference]

        /// The memberwise initializer, visible to the package (PushStorePostgres fills the cache too).
        package init(state: RecipientPushState?, channelPreferences: [String: ChannelPushPreference]) {
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
                bytes += 96 + channel.utf8.count + (preference.pushSound?.utf8.count ?? 0)
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

        init(_ entry: UserEntry) {
            self.entry = entry
            self.bytes = entry.approximateBytes
        }
    }

    private struct Contents {
        var version: UInt64 = 0
        var users: [UserKey: Held] = [:]
        var templates: [String: [PushTemplateName: PushMessageTemplate]] = [:]
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
        var app: String
        var user: String
    }

    private let contents: Mutex<Contents>
    private let versionCounter = Atomic<UInt64>(0)
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
    package static func states(_ entries: [String: UserEntry], channel: String) -> [String: RecipientPushState] {
        var states: [String: RecipientPushState] = [:]
        states.reserveCapacity(entries.count)
        for (user, entry) in entries {
            guard var state = entry.state else { continue }
            state.channelPreference = entry.channelPreferences[channel] ?? .defaults
            states[user] = state
        }
        return states
    }

    /// The current registry version; take it before reading SQLite.
    package var version: UInt64 { versionCounter.load(ordering: .acquiring) }

    /// A registry write committed: everything cached so far is stale.
    package func invalidate() {
        versionCounter.add(1, ordering: .releasing)
    }

    /// Cached entries for `users` valid at `version`, and the users that need a read.
    package func lookUp(app: String, users: [String], version: UInt64)
        -> (found: [String: UserEntry], missing: [String], templates: [PushTemplateName: PushMessageTemplate]?)
    {
        let result: (found: [String: UserEntry], missing: [String], templates: [PushTemplateName: PushMessageTemplate]?) =
            contents.withLock { contents in
                guard contents.version == version else { return ([:], users, nil) }
                // Sized for every user at once: grown entry by entry, each growth rehashed them all.
                var found: [String: UserEntry] = [:]
                found.reserveCapacity(users.count)
                var missing: [String] = []
                for user in users {
                    if let held = contents.users[UserKey(app: app, user: user)] { found[user] = held.entry } else { missing.append(user) }
                }
                return (found, missing, contents.templates[app])
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
    package func store(app: String, users: [String: UserEntry], templates: [PushTemplateName: PushMessageTemplate]?, version: UInt64) {
        let keyed = users.map { (key: UserKey(app: app, user: $0.key), entry: $0.value) }
        contents.withLock { contents in
            if contents.version != version {
                guard version > contents.version else { return }
                contents = Contents(version: version, doorkeeper: contents.doorkeeper)
            }
            defer {
                heldUsers.store(contents.users.count, ordering: .relaxed)
                heldBytes.store(contents.bytes, ordering: .relaxed)
            }
            // An app's templates are a few KB at most: kept whether or not its users fit.
            if let templates { contents.templates[app] = templates }
            guard capacity > 0 else { return }
            let picky = contents.users.count >= capacity / 4 || contents.bytes >= byteCapacity / 4
            // (A user another reader cached meanwhile may be refused here: the entry held is as
            // current, being read at the same version.)
            // Sized (and put behind a reference) only once kept: at a million registered users
            // the doorkeeper refuses nearly every user read, and sizing each was a third of this.
            let kept = (picky ? keyed.filter { contents.doorkeeper.offer($0.key.hashValue) } : keyed).map {
                (key: $0.key, held: Held($0.entry))
            }
            let adding = kept.reduce(0) { $0 + $1.held.bytes }
            // A batch larger than the whole budget is not kept at all.
            guard !kept.isEmpty, adding <= byteCapacity, kept.count <= capacity else { return }
            if contents.users.count + kept.count > capacity || contents.bytes + adding > byteCapacity {
                contents.evict(toUsers: capacity * 3 / 4 - kept.count, bytes: byteCapacity * 3 / 4 - adding)
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

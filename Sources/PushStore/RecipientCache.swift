import PushCore
import Synchronization

/// What the webhook read about users and app templates, reused until the next write to those
/// tables commits.
///
/// Correctness rests on one counter: every write to users, tokens, preferences or templates goes
/// through `PushStore.registryWrite`, which bumps `version` after the commit. A reader takes the
/// version *before* reading SQLite and files what it read under that version; an entry is used
/// only while the version is unchanged. So an entry can be older than the database only if a
/// write committed after it was read, and then the version has moved and the entry is ignored.
/// Under webhook load with rare REST writes nearly every lookup hits; a REST write empties it in
/// effect, which costs one read per user, as without the cache.
///
/// Why: in WAL mode a reader's page cache is dropped whenever anyone commits, and the webhook's
/// own commits come every few milliseconds, so every read went back to the file (pread per page).
final class RecipientCache: Sendable {
    /// A user as the webhook needs them, for every channel: nil `state` means unknown to the relay.
    struct UserEntry: Sendable {
        var state: RecipientPushState?
        var channelPreferences: [String: ChannelPushPreference]
    }

    private struct Contents {
        var version: UInt64 = 0
        var users: [UserKey: UserEntry] = [:]
        var templates: [String: [PushTemplateName: PushMessageTemplate]] = [:]
    }

    private struct UserKey: Hashable {
        var app: String
        var user: String
    }

    private let contents = Mutex(Contents())
    private let versionCounter = Atomic<UInt64>(0)
    /// Bounds memory: beyond this many users the cache starts over.
    private let capacity: Int

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// The current registry version; take it before reading SQLite.
    var version: UInt64 { versionCounter.load(ordering: .acquiring) }

    /// A registry write committed: everything cached so far is stale.
    func invalidate() {
        versionCounter.add(1, ordering: .releasing)
    }

    /// Cached entries for `users` valid at `version`, and the users that need a read.
    func lookUp(app: String, users: [String], version: UInt64)
        -> (found: [String: UserEntry], missing: [String], templates: [PushTemplateName: PushMessageTemplate]?) {
        contents.withLock { contents in
            guard contents.version == version else { return ([:], users, nil) }
            var found: [String: UserEntry] = [:]
            var missing: [String] = []
            for user in users {
                if let entry = contents.users[UserKey(app: app, user: user)] { found[user] = entry } else { missing.append(user) }
            }
            return (found, missing, contents.templates[app])
        }
    }

    /// Files what was read at `version` (dropped if a write committed meanwhile).
    func store(app: String, users: [String: UserEntry], templates: [PushTemplateName: PushMessageTemplate]?, version: UInt64) {
        contents.withLock { contents in
            if contents.version != version {
                guard version > contents.version else { return }
                contents = Contents(version: version)
            }
            if contents.users.count + users.count > capacity { contents.users.removeAll(keepingCapacity: true) }
            for (user, entry) in users { contents.users[UserKey(app: app, user: user)] = entry }
            if let templates { contents.templates[app] = templates }
        }
    }
}

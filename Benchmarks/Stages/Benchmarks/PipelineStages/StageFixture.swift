import APNs
import Foundation
import PushCore
import PushStore
import StoreContract
import Synchronization

/// What the stages start from, as in pipeline-bench: a real SQLite file with 10,000 users holding
/// one token each, and webhook events on 10-member channels (the sender, 1 member online, 8
/// offline). Each method makes one stage's input by running the stages before it, so that a
/// benchmark can prepare outside its measurement.
final class StageFixture: Sendable {
    static let app = "bench-app"
    static let users = 10_000
    /// One directory per process: package-benchmark runs each benchmark in a process of its own.
    static var directory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-stages-\(getpid())")
    }

    let store: SQLiteStore
    /// The same file with the recipient cache off: every member is read from SQLite, as nearly
    /// every one is at a million registered users.
    let uncached: SQLiteStore
    let planner = PushPlanner(formats: [.apns: .notification])
    /// Unique across iterations: the store takes a repeated message id for a duplicate event.
    private let nextMessageID = Atomic<Int>(1_000_000)

    init() async throws {
        try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
        let path = Self.directory.appendingPathComponent("bench.sqlite").path
        // Registered with synchronous=NORMAL, without an fsync for each of the 10,000 commits; the
        // stages then run on the relay's default, FULL.
        let loader = try SQLiteStore(path: path, configuration: PushStoreConfiguration(durability: .normal))
        for user in 0..<Self.users {
            _ = try await loader.registerToken(
                app: Self.app, user: "u\(user)", token: String(format: "%064x", user + 1), isUnique: false)
        }
        store = try SQLiteStore(path: path)
        uncached = try SQLiteStore(path: path, configuration: PushStoreConfiguration(recipientCacheUsers: 0))
    }

    static func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Signed-webhook bodies as Sendbird sends them, for `count` new messages.
    func bodies(_ count: Int) -> [Data] {
        (0..<count).map { _ in
            let id = nextMessageID.wrappingAdd(1, ordering: .relaxed).oldValue
            var members = Set<Int>()
            while members.count < 10 { members.insert(Int.random(in: 0..<Self.users)) }
            let list = Array(members)
            let member = { (user: Int, online: Bool) in
                #"{"user_id":"u\#(user)","nickname":"n\#(user)","is_online":\#(online),"state":"joined","total_unread_message_count":2}"#
            }
            let json = [member(list[0], true), member(list[1], true)] + list[2...].map { member($0, false) }
            return Data(
                #"{"category":"group_channel:message_send","app_id":"\#(Self.app)","type":"MESG","sender":{"user_id":"u\#(list[0])","nickname":"Jane"},"members":[\#(json.joined(separator: ","))],"payload":{"message_id":\#(id),"created_at":1700000000000,"message":"hello from the benchmark, message \#(id)"},"channel":{"channel_url":"channel-\#(list[0])","name":"Bench"}}"#
                    .utf8)
        }
    }

    func events(_ count: Int) throws -> [WebhookEvent] {
        try bodies(count).map { try WebhookEnvelope(json: $0).offlineMessageEvent() }
    }

    /// The intake's read: members the event alone does not skip (sender, online), then their
    /// preferences, tokens and templates in one store read.
    func lookup(for event: WebhookEvent, cached: Bool = true) throws -> RecipientLookup {
        let policy = RecipientPolicy()
        let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(\.userID)
        let (states, _) = try (cached ? store : uncached).recipientStatesAndTemplates(
            app: Self.app, users: members, channel: event.channel.channelURL)
        return RecipientLookup(states)
    }

    /// Plans and rows as the intake makes them for the store, 8 deliveries per event.
    func acceptedEvents(_ count: Int) throws -> [AcceptedEvent] {
        let nowMs = WallClock.milliseconds()
        return try events(count).map { event in
            let plan = planner.plan(event, lookup: try lookup(for: event), now: Date(timeIntervalSince1970: Double(nowMs) / 1000))
            var accepted = AcceptedEvent(plan: plan, senderID: event.sender?.userID, acceptedAtMs: nowMs) {
                NewDelivery(planned: $0, pushID: APNsID.random(), pushType: "alert", priority: 10, expiresAtMs: nowMs + 86_400_000)
            }
            store.prepareForCommit(&accepted)
            return accepted
        }
    }

    /// Queues `count` events' deliveries, pending for the dispatcher to claim.
    func queue(_ count: Int) async throws {
        for batch in try acceptedEvents(count).batches(of: 32) { _ = try await store.acceptEvents(batch) }
    }

    /// Claims everything due, in batches of 1,000 as pipeline-bench does.
    func claimAll() async throws -> [DeliveryRecord] {
        var claimed: [DeliveryRecord] = []
        while case let batch = try await store.claimDue(nowMs: WallClock.milliseconds(), limit: 1000), !batch.isEmpty {
            claimed += batch
        }
        return claimed
    }
}

extension Array {
    /// Consecutive slices of at most `size`, made before a measurement starts.
    func batches(of size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

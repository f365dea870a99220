import Foundation
import GRDB
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

/// The bytes every push of one event repeats are stored once (`event_payloads`,
/// `StoredPayload`), and every reader gets each payload back whole.
@Suite(.timeLimit(.minutes(5))) struct SharedPayloadTests {
    static let app = "app"

    /// A real planned event: `offline` (4) offline members with a token each, payloads from `PayloadBuilder`.
    static func plannedEvent(
        _ store: SQLiteStore, messageID: Int64, sender: String = "sam", text: String = "hello", offline: Int = 4
    ) async throws -> AcceptedEvent {
        let users = (1...offline).map { "u\($0)" }
        for (n, user) in users.enumerated() {
            _ = try await store.registerToken(app: app, user: user, token: hexToken(n + 1), isUnique: false)
        }
        let members = ([sender] + users).map {
            #"{"user_id":"\#($0)","nickname":"n-\#($0)","is_online":false,"state":"joined","total_unread_message_count":3}"#
        }
        let body = #"""
            {"category":"group_channel:message_send","app_id":"\#(app)","type":"MESG",
             "sender":{"user_id":"\#(sender)","nickname":"Sam"},"members":[\#(members.joined(separator: ","))],
             "payload":{"message_id":\#(messageID),"created_at":1700000000000,"message":"\#(text)"},
             "channel":{"channel_url":"channel-1","name":"Team"}}
            """#
        let event = try WebhookEnvelope(json: Data(body.utf8)).offlineMessageEvent()
        let (states, _) = try store.recipientStatesAndTemplates(app: app, users: users, channel: "channel-1")
        let plan = PushPlanner(formats: [.apns: .notification]).plan(
            event, lookup: RecipientLookup(states), now: Date(timeIntervalSince1970: 1_700_000_000))
        return AcceptedEvent(plan: plan, senderID: sender, acceptedAtMs: 1_700_000_000_000) {
            NewDelivery(planned: $0, pushID: UUID(), pushType: "alert", priority: 10, expiresAtMs: 1_800_000_000_000)
        }
    }

    @Test func payloadsAreClaimedWholeAndTheSharedBytesAreStoredOnce() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let event = try await Self.plannedEvent(store, messageID: 7)
        let shared = try #require(event.sharedPayload)
        #expect(event.deliveries.count == 4)
        #expect(event.deliveries.allSatisfy { !$0.sharedSpans.isEmpty })
        #expect(try await store.acceptEvent(event))

        let stored = try await store.pool.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_payloads") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM packed_payloads") ?? -1,
                try Int.fetchOne(db, sql: "SELECT SUM(length(parts)) FROM packed_payloads") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery_payloads") ?? -1
            )
        }
        #expect(stored.0 == 1)
        #expect(stored.1 == 1, "the event's payloads are one row (PackedPayloads)")
        #expect(stored.3 == 0)
        let whole = event.deliveries.map(\.payload.count).reduce(0, +)
        // Each part keeps only what is its own, and its spans (12 bytes each); 4 + 8 per part of header.
        let spans = event.deliveries.map { 12 * $0.sharedSpans.count }.reduce(0, +)
        #expect(stored.2 <= whole - 4 * shared.count + 4 + spans + 4 + 8 * 4)

        let claimed = try await store.claimDue(nowMs: 1_800_000_000_000 - 1, limit: 100)
        #expect(Set(claimed.map(\.payload)) == Set(event.deliveries.map(\.payload)))
        #expect(claimed.count == 4)
        // Each is valid JSON: nothing was shifted.
        for record in claimed { _ = try JSONSerialization.jsonObject(with: record.payload) }
    }

    /// An event with more pushes than one delivery insert takes (`SQLiteStore.deliveriesPerInsert`)
    /// still packs its payloads in one row, named by its ids: each delivery is claimed with its
    /// own payload, the one planned for its user.
    @Test func aLargeEventPacksAcrossInsertsAndEachDeliveryGetsItsOwnPayload() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let event = try await Self.plannedEvent(store, messageID: 9, offline: SQLiteStore.deliveriesPerInsert * 2 + 8)
        #expect(event.deliveries.count == SQLiteStore.deliveriesPerInsert * 2 + 8)
        #expect(Set(event.deliveries.map(\.payload)).count == event.deliveries.count, "each payload names its recipient")
        let ids = try #require(try await store.commitEvents([event]).first ?? nil)
        let packed = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT first_delivery_id, last_delivery_id FROM packed_payloads").map { [$0[0], $0[1]] as [Int64] }
        }
        #expect(packed == [[ids[0], ids[ids.count - 1]]])
        let claimed = try await store.claimDue(nowMs: 1_800_000_000_000 - 1, limit: 1000)
        #expect(claimed.map(\.id) == ids)
        let planned = Dictionary(uniqueKeysWithValues: event.deliveries.map { ($0.userID, $0.payload) })
        #expect(claimed.allSatisfy { planned[$0.userID] == $0.payload })
    }

    /// Sent deliveries pruned with their event take the shared bytes along; while one delivery of
    /// the event is left, they stay.
    @Test func pruningDropsTheSharedBytesWithTheLastDelivery() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        #expect(try await store.acceptEvent(Self.plannedEvent(store, messageID: 1)))
        #expect(try await store.acceptEvent(Self.plannedEvent(store, messageID: 2)))
        let claimed = try await store.claimDue(nowMs: 1_800_000_000_000 - 1, limit: 100)
        // Message 1's pushes all sent; one of message 2's still pending.
        let kept = try #require(claimed.first { $0.messageID == 2 })
        try await store.recordOutcomes(
            claimed.filter { $0.id != kept.id }.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 1, attempt: nil) })
        try await store.requeue(ids: [kept.id])
        _ = try await store.prune(olderThanMs: 1_800_000_000_000, batch: 1)
        let left = try await store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT message_id FROM event_payloads") }
        #expect(left == [2])
        let packed = try await store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT last_delivery_id FROM packed_payloads") }
        #expect(packed.count == 1 && packed[0] >= kept.id, "message 1's packed row went with its last delivery")
        let again = try await store.claimDue(nowMs: 1_800_000_000_000 - 1, limit: 100)
        #expect(again.map(\.payload) == [kept.payload], "the one left still reads whole")
    }

    /// The same message id accepted again after its event was pruned while one of its deliveries
    /// was still unsent: the earlier shared bytes stay for that delivery, the new payloads are
    /// stored whole, and every payload still reads back as it was planned.
    @Test func aMessageAcceptedAgainAfterPruningKeepsBothPayloadsIntact() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let first = try await Self.plannedEvent(store, messageID: 9, text: "first")
        #expect(try await store.acceptEvent(first))
        let claimed = try await store.claimDue(nowMs: 1_800_000_000_000 - 1, limit: 100)
        let kept = try #require(claimed.first)
        try await store.recordOutcomes(
            claimed.dropFirst().map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 1, attempt: nil) })
        try await store.requeue(ids: [kept.id])
        _ = try await store.prune(olderThanMs: 1_800_000_000_000, batch: 10)
        #expect(try await store.eventExists(app: Self.app, messageID: 9) == false)

        let again = try await Self.plannedEvent(store, messageID: 9, text: "second, longer than the first")
        #expect(try await store.acceptEvent(again))
        let whole = try await store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery_payloads WHERE spans IS NULL") ?? -1
        }
        #expect(whole == again.deliveries.count)
        let reclaimed = try await store.claimDue(nowMs: 1_800_000_000_000 - 1, limit: 100)
        #expect(Set(reclaimed.map(\.payload)) == Set(again.deliveries.map(\.payload) + [kept.payload]))
    }

    /// Erasing the sender erases the bytes that name them, and their text, from the file: from the
    /// shared bytes and from the packed rows, which keep the alerts compressed (so they are searched
    /// uncompressed as well as in the file's bytes).
    @Test func erasingTheSenderDropsTheSharedBytes() async throws {
        let file = try TemporaryDatabase()
        let store = try file.open()
        #expect(try await store.acceptEvent(Self.plannedEvent(store, messageID: 1, sender: "eve-91c2", text: "secret-4d1e")))
        #expect(try await store.acceptEvent(Self.plannedEvent(store, messageID: 2, sender: "sam", text: "other-77aa")))
        func stored() async throws -> Data { try PushStoreUsersTests.bytes(of: file.path) + (try await Self.uncompressedParts(store)) }
        #expect(try await stored().range(of: Data("secret-4d1e".utf8)) != nil)
        #expect(try await store.eraseUser(app: Self.app, user: "eve-91c2"))
        let after = try await stored()
        #expect(after.range(of: Data("eve-91c2".utf8)) == nil)
        #expect(after.range(of: Data("secret-4d1e".utf8)) == nil)
        #expect(after.range(of: Data("other-77aa".utf8)) != nil)
    }

    /// Every `packed_payloads` row's parts, uncompressed.
    static func uncompressedParts(_ store: SQLiteStore) async throws -> Data {
        try await store.pool.read { db in
            try Data(
                Data.fetchAll(db, sql: "SELECT parts FROM packed_payloads").flatMap {
                    try #require($0.withUnsafeBytes { PackedPayloads.decompress($0) })
                })
        }
    }

    /// The copy to PostgreSQL reads payloads whole too.
    @Test func theSnapshotReadsPayloadsWhole() async throws {
        let file = try TemporaryDatabase()
        let store = try file.open()
        let event = try await Self.plannedEvent(store, messageID: 3)
        #expect(try await store.acceptEvent(event))
        let snapshot = try SQLiteSnapshot(store)
        let page = try await snapshot.deliveries(after: nil, limit: 100)
        #expect(Set(page.deliveries.compactMap(\.payload)) == Set(event.deliveries.map(\.payload)))
    }

    @Test func splitAndJoinAreInverseAndRefuseSpansThatLie() throws {
        let shared: [UInt8] = Array("SHARED-part-ONE|two".utf8)
        let payload = Data("{a:SHARED-part-ONE,b:two}".utf8)
        let spans = [SharedSpan(position: 3, offset: 0, length: 15), SharedSpan(position: 21, offset: 16, length: 3)]
        let stored = try #require(StoredPayload.split(payload, spans: spans, shared: shared))
        #expect(stored.alone == Array("{a:,b:}".utf8))
        let alone = Data(stored.alone)
        #expect(StoredPayload.join(alone, spans: Data(stored.spans), shared: Data(shared)) == payload)

        // Bytes that differ from the shared ones, out of bounds, overlapping: stored whole.
        #expect(StoredPayload.split(payload, spans: [SharedSpan(position: 2, offset: 0, length: 15)], shared: shared) == nil)
        #expect(StoredPayload.split(payload, spans: [SharedSpan(position: 20, offset: 16, length: 9)], shared: shared) == nil)
        #expect(StoredPayload.split(payload, spans: [spans[1], spans[0]], shared: shared) == nil)

        // Damaged stored spans: nil, never a read out of bounds.
        var damaged = Data(stored.spans)
        damaged[8] = 0xff
        #expect(StoredPayload.join(alone, spans: damaged, shared: Data(shared)) == nil)
        #expect(StoredPayload.join(alone, spans: Data(stored.spans.dropLast()), shared: Data(shared)) == nil)
        #expect(StoredPayload.join(alone, spans: Data(stored.spans), shared: Data(shared.prefix(10))) == nil)
        let many = Data((0..<StoredPayload.maximumSpans + 1).flatMap { _ in stored.spans.prefix(12) })
        #expect(StoredPayload.join(alone, spans: many, shared: Data(shared)) == nil, "more runs than split writes")
        var far = Data(stored.spans)
        far[0] = 0xf0
        #expect(StoredPayload.join(alone, spans: far, shared: Data(shared)) == nil)
    }
}

import Foundation
import GRDB
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

@Suite(.timeLimit(.minutes(5))) struct PushStoreDeliveriesTests {
    static func event(_ messageID: Int64, users: [String] = ["bob"], at: Int64 = 1_700_000_000_000, expiresAt: Int64 = 1_800_000_000_000)
        -> AcceptedEvent
    {
        AcceptedEvent(
            appID: "app", messageID: messageID, channelURL: "c1", acceptedAtMs: at,
            decisions: users.map { RecipientDecisionRecord(userID: $0, decision: .push) } + [
                RecipientDecisionRecord(userID: "zed", decision: .skip(.online))
            ],
            deliveries: users.enumerated().map { n, user in
                NewDelivery(
                    userID: user, deviceToken: hexToken(n + 1), payload: Data(#"{"aps":{}}"#.utf8), pushID: UUID(),
                    provider: .apns, pushType: "alert", priority: 10, expiresAtMs: expiresAt)
            })
    }

    @Test(arguments: StoreKind.allCases) func anEventIsStoredOnceAndADuplicateInsertsNothing(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.acceptEvents([Self.event(1), Self.event(1), Self.event(2)]) == [true, false, true])
        #expect(try await store.acceptEvent(Self.event(1, users: ["bob", "carol"])) == false)
        #expect(try await store.pendingCount() == 2)
        let log = try await store.deliveryLog(app: "app", messageID: 1, user: "zed")
        #expect(log.decision == .skip(.online))
        #expect(log.deliveries.isEmpty)
        #expect(try await store.appliedMigrations() == db.migrations)
    }

    /// The earliest due time over every app with pending deliveries, whichever app holds it, and
    /// nil once nothing is pending.
    @Test(arguments: StoreKind.allCases) func theNextDueTimeIsTheEarliestOfEveryApp(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.nextDueAtMs() == nil)
        var events: [AcceptedEvent] = []
        for (n, (app, at)) in [("m", Int64(5_000)), ("b", 3_000), ("z", 4_000), ("b", 9_000)].enumerated() {
            var event = Self.event(Int64(n + 1), at: at)
            event.appID = app
            events.append(event)
        }
        #expect(try await store.acceptEvents(events) == [true, true, true, true])
        #expect(try await store.nextDueAtMs() == 3_000)
        let first = try await store.claimDue(nowMs: 3_000, limit: 10)
        #expect(first.map(\.appID) == ["b"])
        #expect(try await store.nextDueAtMs() == 4_000, "z's, now that b's earliest is in flight")
        _ = try await store.claimDue(nowMs: 10_000, limit: 10)
        #expect(try await store.nextDueAtMs() == nil)
    }

    /// Only skips are stored as decisions; a pushed member's log still says push, accepted when
    /// the event was, from its deliveries.
    @Test(arguments: StoreKind.allCases) func pushedMembersStoreNoDecisionRowAndStillReadAsPushed(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.acceptEvent(Self.event(7, users: ["bob", "carol"], at: 1_700_000_000_123)))
        #expect(try await db.count("SELECT COUNT(*) FROM decisions WHERE message_id = 7 AND user_id <> 'zed'") == 0)
        #expect(try await db.count("SELECT COUNT(*) FROM decisions WHERE message_id = 7 AND user_id = 'zed'") == 1)
        let bob = try await store.deliveryLog(app: "app", messageID: 7, user: "bob")
        #expect(bob.decision == .push)
        #expect(bob.acceptedAtMs == 1_700_000_000_123)
        #expect(bob.deliveries.count == 1)
        let nobody = try await store.deliveryLog(app: "app", messageID: 7, user: "nobody")
        #expect(nobody.decision == nil)
        #expect(nobody.acceptedAtMs == nil)
    }

    /// "Why no push?" for a user without a message id: their skipped messages, newest first, only
    /// theirs (by the id's bytes) and only their app's.
    @Test(arguments: StoreKind.allCases) func aUsersRecentSkipsAreListedNewestFirst(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        func skips(_ id: Int64, app: String = "app", at: Int64, _ decisions: [(String, PushDecision)]) -> AcceptedEvent {
            AcceptedEvent(
                appID: app, messageID: id, channelURL: "c1", acceptedAtMs: at,
                decisions: decisions.map { RecipientDecisionRecord(userID: $0.0, decision: $0.1) }, deliveries: [])
        }
        let nfc = "caf\u{E9}"
        let nfd = "cafe\u{301}"
        let accepted = try await store.acceptEvents([
            skips(1, at: 1_000, [("bob", .skip(.doNotDisturb)), ("carol", .skip(.online)), (nfc, .skip(.snoozed))]),
            skips(2, at: 2_000, [("bob", .skip(.snoozed)), (nfd, .skip(.channelOff))]),
            skips(3, app: "other", at: 3_000, [("bob", .skip(.channelOff))]),
        ])
        #expect(accepted == [true, true, true])
        #expect(
            try await store.recentSkips(app: "app", user: "bob", limit: 10) == [
                SkippedMessage(messageID: 2, decision: .skip(.snoozed), atMs: 2_000),
                SkippedMessage(messageID: 1, decision: .skip(.doNotDisturb), atMs: 1_000),
            ])
        #expect(try await store.recentSkips(app: "app", user: "bob", limit: 1).map(\.messageID) == [2])
        #expect(try await store.recentSkips(app: "other", user: "bob", limit: 10).map(\.messageID) == [3])
        #expect(try await store.recentSkips(app: "app", user: nfc, limit: 10).map(\.decision) == [.skip(.snoozed)])
        #expect(try await store.recentSkips(app: "app", user: nfd, limit: 10).map(\.decision) == [.skip(.channelOff)])
        #expect(try await store.recentSkips(app: "app", user: "nobody", limit: 10).isEmpty)
    }

    /// APNs' plain 200 is the sent delivery's row; only other attempts are logged as rows. The log
    /// reads the accepted attempt back, after a retried one.
    @Test(arguments: StoreKind.allCases) func anAcceptedSendIsReadFromTheDeliveryRowAlone(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.acceptEvent(Self.event(8, users: ["bob"], at: 1_000)))
        var claimed = try await store.claimDue(nowMs: 1_000, limit: 10)
        let id = try #require(claimed.first).id
        let pushID = claimed[0].pushID
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: id, state: .pending, atMs: 1_100,
                attempt: DeliveryAttempt(atMs: 1_100, status: 503, reason: "ServiceUnavailable", error: nil, pushID: pushID),
                nextAttemptAtMs: 1_200)
        ])
        claimed = try await store.claimDue(nowMs: 1_200, limit: 10)
        #expect(claimed.map(\.id) == [id])
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: id, state: .sent, atMs: 1_300,
                attempt: DeliveryAttempt(atMs: 1_300, status: 200, reason: nil, error: nil, pushID: pushID))
        ])
        #expect(try await db.count("SELECT COUNT(*) FROM delivery_attempts") == 1)
        let bob = try await store.deliveryLog(app: "app", messageID: 8, user: "bob")
        let delivery = try #require(bob.deliveries.first)
        #expect(delivery.delivery.state == .sent)
        #expect(delivery.delivery.attempts == 2)
        #expect(delivery.attempts.map(\.status) == [503, 200])
        #expect(delivery.attempts.last == DeliveryAttempt(atMs: 1_300, status: 200, reason: nil, error: nil, pushID: pushID))
    }

    /// A batch mixing plain 200s (no attempt row) with other outcomes applies them in their order: a retry then a plain 200 for one delivery ends sent, with both attempts
    /// counted; plain 200s of other deliveries land with their own times; an outcome after a
    /// plain 200 of the same delivery comes after it; a delivery pruned or unknown is passed over.
    @Test(arguments: StoreKind.allCases) func plainAcceptancesAndOtherOutcomesApplyInTheirOrder(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.acceptEvent(Self.event(9, users: ["bob", "carol", "dave"], at: 1_000)))
        let claimed = try await store.claimDue(nowMs: 1_000, limit: 10)
        #expect(claimed.count == 3)
        func accepted(_ record: DeliveryRecord, at: Int64) -> DeliveryOutcome {
            DeliveryOutcome(
                deliveryID: record.id, state: .sent, atMs: at,
                attempt: DeliveryAttempt(atMs: at, status: 200, reason: nil, error: nil, pushID: record.pushID))
        }
        try await store.recordOutcomes([
            accepted(claimed[1], at: 1_101),
            DeliveryOutcome(
                deliveryID: claimed[0].id, state: .pending, atMs: 1_102,
                attempt: DeliveryAttempt(atMs: 1_102, status: 429, reason: "TooManyRequests", error: nil, pushID: claimed[0].pushID),
                nextAttemptAtMs: 1_200),
            accepted(claimed[0], at: 1_103),
            DeliveryOutcome(
                deliveryID: 999_999, state: .sent, atMs: 1_104,
                attempt: DeliveryAttempt(atMs: 1_104, status: 200, reason: nil, error: nil, pushID: UUID())),
            accepted(claimed[2], at: 1_105),
            // Put back after its 200 (as a shutdown would): applied after it, so it stays pending.
            DeliveryOutcome(deliveryID: claimed[2].id, state: .pending, atMs: 1_106, attempt: nil, nextAttemptAtMs: 1_300),
        ])
        var log: [LoggedDelivery] = []
        for user in ["bob", "carol", "dave"] {
            log.append(try #require(try await store.deliveryLog(app: "app", messageID: 9, user: user).deliveries.first))
        }
        #expect(log.map(\.delivery.state) == [.sent, .sent, .pending])
        #expect(log.map(\.delivery.sentAtMs) == [1_103, 1_101, 1_105])
        #expect(log.map(\.delivery.updatedAtMs) == [1_103, 1_101, 1_106])
        #expect(log.map(\.delivery.attempts) == [2, 1, 1])
        #expect(log.map(\.delivery.lastStatus) == [200, 200, 200])
        #expect(log[0].delivery.lastReason == "TooManyRequests", "a plain 200 leaves the last reason as it was")
        #expect(log[0].delivery.nextAttemptAtMs == 1_200)
        #expect(log[0].attempts.map(\.status) == [429, 200])
        #expect(try await db.count("SELECT COUNT(*) FROM delivery_attempts") == 1)
        #expect(log[2].delivery.nextAttemptAtMs == 1_300)
        #expect(try await store.pendingCount() == 1)
    }

    /// An event with more deliveries than one insert statement takes: every delivery gets its
    /// own id, in order, and each id reads back its own user, token, apns-id and payload, also
    /// after the highest deliveries were deleted and their ids come round again.
    @Test func deliveriesBeyondOneInsertGetTheirOwnIdsInOrder() async throws {
        let file = try TemporaryDatabase()
        let store = try file.open()
        let users = (0..<(SQLiteStore.deliveriesPerInsert * 2 + 3)).map { "user-\($0)" }
        var event = Self.event(10, users: users, at: 1_000)
        for index in event.deliveries.indices { event.deliveries[index].payload = Data(#"{"aps":{"alert":"\#(index)"}}"#.utf8) }
        let ids = try #require(try await store.commitEvents([event]).first ?? nil)
        #expect(ids.count == users.count)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 + 1 })
        let claimed = try await store.claimDue(nowMs: 1_000, limit: 100)
        #expect(claimed.map(\.id) == ids)
        #expect(claimed.map(\.userID) == users)
        #expect(claimed.map(\.deviceToken) == event.deliveries.map(\.deviceToken))
        #expect(claimed.map(\.pushID) == event.deliveries.map(\.pushID))
        #expect(claimed.map(\.payload) == event.deliveries.map(\.payload))
        #expect(claimed.allSatisfy { $0.state == .inFlight && $0.createdAtMs == 1_000 && $0.attempts == 0 })

        // The top ids deleted (as pruning or erasure would), then a new event takes them again.
        let queue = try DatabaseQueue(path: file.path)
        try await queue.write { db in
            for table in ["delivery_payloads WHERE delivery_id", "deliveries WHERE id"] {
                try db.execute(sql: "DELETE FROM \(table) > ?", arguments: [ids[4]])
            }
        }
        try queue.close()
        let again = Self.event(11, users: ["erin", "frank"], at: 2_000)
        let newIDs = try #require(try await store.commitEvents([again]).first ?? nil)
        #expect(newIDs == [ids[4] + 1, ids[4] + 2])
        let next = try await store.claimDue(nowMs: 2_000, limit: 100)
        #expect(next.map(\.userID) == ["erin", "frank"])
        #expect(next.map(\.pushID) == again.deliveries.map(\.pushID))
    }

    /// A device's acknowledgement is kept once, and every reading of the log shows it.
    @Test(arguments: StoreKind.allCases) func anAcknowledgementIsRecordedOnceAndLogged(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.acceptEvent(Self.event(4, users: ["bob", "carol"])))
        let bob = try #require(try await store.deliveryLog(app: "app", messageID: 4, user: "bob").deliveries.first)
        #expect(bob.acknowledgedAtMs == nil)
        #expect(try await store.acknowledge(ids: [bob.delivery.id], atMs: 5_000) == [bob.delivery.id])
        #expect(try await store.acknowledge(ids: [bob.delivery.id], atMs: 6_000) == [])
        #expect(try await store.deliveryLog(app: "app", messageID: 4, user: "bob").deliveries.first?.acknowledgedAtMs == 5_000)
        #expect(try await store.delivery(id: bob.delivery.id)?.acknowledgedAtMs == 5_000)
        #expect(try await store.recentDeliveries(app: "app", user: "bob", limit: 5).first?.acknowledgedAtMs == 5_000)
        #expect(try await store.deliveryLog(app: "app", messageID: 4, user: "carol").deliveries.first?.acknowledgedAtMs == nil)
    }

    /// The first click is kept, a later one moves nothing, and every reading of the log shows it;
    /// a click on a push not acknowledged yet acknowledges it then, an earlier acknowledgement stays.
    @Test(arguments: StoreKind.allCases) func aClickIsRecordedOnceAcknowledgesAndIsLogged(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.acceptEvent(Self.event(6, users: ["bob", "carol", "dave"])))
        func log(_ user: String) async throws -> LoggedDelivery {
            try #require(try await store.deliveryLog(app: "app", messageID: 6, user: user).deliveries.first)
        }
        let (bob, carol, dave) = (try await log("bob"), try await log("carol"), try await log("dave"))
        #expect(bob.clickedAtMs == nil)
        #expect(try await store.acknowledge(ids: [carol.delivery.id], atMs: 4_000) == [carol.delivery.id])

        let both = [bob.delivery.id, carol.delivery.id]
        #expect(Set(try await store.recordClicks(ids: both, atMs: 5_000)) == Set(both))
        #expect(try await store.recordClicks(ids: both, atMs: 6_000) == [])
        #expect(try await store.recordClicks(ids: [], atMs: 6_000) == [])
        #expect(try await store.acknowledge(ids: [bob.delivery.id], atMs: 7_000) == [], "the click acknowledged it")

        for reading in [try await log("bob"), try #require(try await store.delivery(id: bob.delivery.id))] {
            #expect(reading.clickedAtMs == 5_000)
            #expect(reading.acknowledgedAtMs == 5_000)
        }
        #expect(try await store.recentDeliveries(app: "app", user: "bob", limit: 5).first?.clickedAtMs == 5_000)
        let carolNow = try await log("carol")
        #expect(carolNow.clickedAtMs == 5_000)
        #expect(carolNow.acknowledgedAtMs == 4_000, "acknowledged before the click: its time stays")
        let daveNow = try await log("dave")
        #expect(daveNow.clickedAtMs == nil && daveNow.acknowledgedAtMs == nil)
        #expect(daveNow == dave)
    }

    /// An FCM delivery is stored with push type `fcm`, comes back as one, and keeps FCM's message
    /// name once sent; an FCM UNREGISTERED removes the token only if registered before the send.
    @Test(arguments: StoreKind.allCases) func anFCMDeliveryKeepsItsProviderAndMessageName(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let fcmToken = "fcm-token-0123456789:abcdef"
        _ = try await store.registerToken(app: "app", user: "carol", token: fcmToken, isUnique: false, provider: .fcm)
        var event = Self.event(5, users: ["bob", "carol"])
        event.deliveries[1] = NewDelivery(
            userID: "carol", deviceToken: fcmToken, payload: Data(#"{"message":"hi","sendbird":"{}"}"#.utf8), pushID: UUID(),
            provider: .fcm, pushType: "fcm", priority: 10, expiresAtMs: 1_800_000_000_000)
        #expect(try await store.acceptEvent(event))
        let claimed = try await store.claimDue(nowMs: 1_700_000_000_000, limit: 10)
        #expect(claimed.map(\.provider) == [.apns, .fcm])
        let carol = try #require(claimed.last)
        let name = "projects/p/messages/0:1700000000000%abc"
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: carol.id, state: .sent, atMs: 1_700_000_000_100,
                attempt: DeliveryAttempt(atMs: 1_700_000_000_100, status: 200, reason: nil, error: nil, pushID: carol.pushID),
                providerMessageID: name)
        ])
        let logged = try #require(try await store.deliveryLog(app: "app", messageID: 5, user: "carol").deliveries.first)
        #expect(logged.providerMessageID == name && logged.delivery.provider == .fcm && logged.delivery.state == .sent)
        #expect(try await store.deliveryLog(app: "app", messageID: 5, user: "bob").deliveries.first?.providerMessageID == nil)

        // UNREGISTERED for a send that started before the registration: the token stays; for
        // one that started after it: the token goes.
        var again = Self.event(6, users: ["bob", "carol"])
        again.deliveries[1].deviceToken = fcmToken
        again.deliveries[1].pushType = "fcm"
        again.deliveries[1].provider = .fcm
        #expect(try await store.acceptEvent(again))
        let second = try #require(try await store.claimDue(nowMs: 1_700_000_000_000, limit: 10).first { $0.provider == .fcm })
        func unregistered(sendStartedAtMs: Int64) async throws {
            try await store.recordOutcomes([
                DeliveryOutcome(
                    deliveryID: second.id, state: .tokenInvalid, atMs: 2_500,
                    attempt: DeliveryAttempt(atMs: 2_500, status: 404, reason: "UNREGISTERED", error: nil, pushID: second.pushID),
                    tokenRemoval: .ifRegisteredBefore(sendStartedAtMs))
            ])
        }
        try await unregistered(sendStartedAtMs: 1_500)
        #expect(try await store.tokens(app: "app", user: "carol")?.map(\.token) == [fcmToken])
        try await unregistered(sendStartedAtMs: 4_000_000_000_000)
        #expect(try await store.tokens(app: "app", user: "carol")?.isEmpty == true)
    }

    @Test(arguments: StoreKind.allCases) func concurrentAcceptsThroughTheCommitterAllCommit(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let committer = EventCommitter(store: store, maximumBatch: 7)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<100 { group.addTask { try await committer.accept(Self.event(Int64(n % 50))) } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 50)
        #expect(try await store.pendingCount() == 50)
    }

    /// A row bound smaller than one event still commits every event (one per transaction).
    @Test(arguments: StoreKind.allCases) func aRowBoundBelowOneEventStillCommitsEachEvent(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let committer = EventCommitter(store: store, maximumRows: 1)
        let results = try await withThrowingTaskGroup(of: [Int64]?.self) { group in
            for n in 0..<40 { group.addTask { try await committer.commit(Self.event(Int64(n % 20), users: ["a", "b"])) } }
            return try await group.reduce(into: [[Int64]?]()) { $0.append($1) }
        }
        #expect(results.compactMap { $0 }.count == 20)
        #expect(results.compactMap { $0 }.allSatisfy { $0.count == 2 })
        #expect(try await store.pendingCount() == 40)
    }

    @Test(arguments: StoreKind.allCases) func claimRecordAndResume(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.acceptEvent(Self.event(1, users: ["a", "b", "c"]))
        let now: Int64 = 1_700_000_000_100
        let claimed = try await store.claimDue(nowMs: now, limit: 2)
        #expect(claimed.count == 2)
        #expect(claimed.allSatisfy { $0.state == .inFlight })
        #expect(try await store.claimDue(nowMs: now, limit: 10).count == 1)
        #expect(try await store.claimDue(nowMs: now, limit: 10).isEmpty)

        let retryAt = now + 5000
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: claimed[0].id, state: .pending, atMs: now,
                attempt: DeliveryAttempt(atMs: now, status: 503, reason: "ServiceUnavailable", error: nil, pushID: claimed[0].pushID),
                nextAttemptAtMs: retryAt),
            DeliveryOutcome(
                deliveryID: claimed[1].id, state: .sent, atMs: now,
                attempt: DeliveryAttempt(atMs: now, status: 200, reason: nil, error: nil, pushID: claimed[1].pushID)),
        ])
        #expect(try await store.nextDueAtMs() == retryAt)
        #expect(try await store.claimDue(nowMs: now, limit: 10).isEmpty, "not due yet")
        let retried = try #require(try await store.delivery(id: claimed[0].id))
        #expect(retried.delivery.attempts == 1)
        #expect(retried.delivery.lastStatus == 503)
        #expect(retried.attempts.map(\.pushID) == [claimed[0].pushID])

        // A crash leaves the third in flight; a new instance on the same file resumes it.
        let reopened = try await db.open()
        #expect(try await reopened.resumeInFlight() == 1)
        let again = try await reopened.claimDue(nowMs: retryAt, limit: 10)
        #expect(again.count == 2)
        #expect(again.contains { $0.id == claimed[0].id && $0.pushID == claimed[0].pushID })
    }

    /// The webhook's hand-off: deliveries committed as in flight are invisible to claims, come
    /// back as the records the dispatcher needs, and after a crash are pending again with the
    /// same apns-id; `requeue` puts them back without a restart.
    @Test(arguments: StoreKind.allCases) func handedOffDeliveriesAreInFlightUntilResumedOrRequeued(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        var event = Self.event(1, users: ["bob", "carol"])
        event.handedOff = true
        let ids = try #require(try await store.commitEvents([event])[0])
        #expect(try await store.commitEvents([event]) == [nil])
        let records = event.deliveryRecords(ids: ids)
        #expect(records.map(\.state) == [.inFlight, .inFlight])
        #expect(records.map(\.pushID) == event.deliveries.map(\.pushID))
        #expect(records.map(\.payload) == event.deliveries.map(\.payload))
        #expect(try await store.claimDue(nowMs: .max, limit: 10).isEmpty)
        #expect(try await store.pendingCount() == 2)

        try await store.requeue(ids: [ids[0]])
        let claimed = try await store.claimDue(nowMs: .max, limit: 10)
        #expect(claimed.map(\.id) == [ids[0]])
        #expect(claimed.first?.payload == event.deliveries[0].payload)

        #expect(try await store.resumeInFlight() == 2)
        let resumed = try await store.claimDue(nowMs: .max, limit: 10)
        #expect(Set(resumed.map(\.pushID)) == Set(event.deliveries.map(\.pushID)))
    }

    @Test(arguments: StoreKind.allCases) func tokenRemovalFollowsThe410Rule(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let clock = ManualClock(1_700_000_000_000)
        let store = try await db.open(clock: clock)
        _ = try await store.registerToken(app: "app", user: "bob", token: hexToken(1), isUnique: false)
        _ = try await store.registerToken(app: "app", user: "carol", token: hexToken(2), isUnique: false)
        _ = try await store.acceptEvent(Self.event(1, users: ["bob", "carol"]))
        let claimed = try await store.claimDue(nowMs: 1_700_000_000_000, limit: 10)
        let byUser = Dictionary(uniqueKeysWithValues: claimed.map { ($0.userID, $0) })
        let removed = try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: byUser["bob"]!.id, state: .tokenInvalid, atMs: 1, attempt: nil,
                tokenRemoval: .ifRegisteredBefore(1_700_000_000_001)),
            DeliveryOutcome(
                deliveryID: byUser["carol"]!.id, state: .tokenInvalid, atMs: 1, attempt: nil,
                tokenRemoval: .ifRegisteredBefore(1_600_000_000_000)),
        ])
        #expect(removed == 1)
        #expect(try await store.tokens(app: "app", user: "bob") == [])
        #expect(try await store.tokens(app: "app", user: "carol")?.count == 1)
    }

    /// An outcome whose delivery was pruned meanwhile writes nothing: no attempt row and, even
    /// with a removal rule, no token removed (the store cannot tell whose token it was).
    @Test(arguments: StoreKind.allCases) func outcomesOfPrunedDeliveriesWriteNothing(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open(clock: ManualClock(1_700_000_000_000))
        _ = try await store.registerToken(app: "app", user: "bob", token: hexToken(1), isUnique: false)
        _ = try await store.acceptEvent(Self.event(1, users: ["bob"]))
        let live = try await store.claimDue(nowMs: 1_700_000_000_000, limit: 10)[0]
        let gone = live.id + 1_000
        let removed = try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: gone, state: .failed, atMs: 2,
                attempt: DeliveryAttempt(atMs: 2, status: 400, reason: "BadTopic", error: nil, pushID: live.pushID)),
            DeliveryOutcome(deliveryID: gone + 1, state: .tokenInvalid, atMs: 2, attempt: nil, tokenRemoval: .always),
            DeliveryOutcome(
                deliveryID: live.id, state: .sent, atMs: 3,
                attempt: DeliveryAttempt(atMs: 3, status: 200, reason: nil, error: nil, pushID: live.pushID)),
        ])
        #expect(removed == 0)
        #expect(try await store.tokens(app: "app", user: "bob")?.count == 1)
        #expect(try await store.delivery(id: gone) == nil)
        let logged = try #require(try await store.delivery(id: live.id))
        #expect(logged.delivery.state == .sent)
        #expect(logged.attempts.map(\.status) == [200])
    }

    @Test(arguments: StoreKind.allCases) func pruneDeletesOldFinishedEntriesOnly(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        _ = try await store.acceptEvent(Self.event(1, users: ["a", "b"], at: 1000))
        _ = try await store.acceptEvent(Self.event(2, users: ["a"], at: 5000))
        let claimed = try await store.claimDue(nowMs: 1000, limit: 1)
        try await store.recordOutcomes([DeliveryOutcome(deliveryID: claimed[0].id, state: .sent, atMs: 1000, attempt: nil)])
        #expect(try await store.prune(olderThanMs: 2000) == 1)
        #expect(try await store.pendingCount() == 2, "unfinished deliveries are kept")
        #expect(try await store.eventExists(app: "app", messageID: 1) == false)
        #expect(try await store.eventExists(app: "app", messageID: 2))
    }

    /// SQLite's pruner walks deliveries by id and stops at the first one created at or after the
    /// cutoff: an older one accepted after it (a clock stepped back) waits for a later run.
    @Test func sqlitePrunesInIDOrderUpToTheCutoff() async throws {
        let db = try await TestDatabase.make(.sqlite)
        let store = try await db.open()
        for (n, at) in [(1, Int64(1000)), (2, 1000), (3, 5000), (4, 1500)] {
            _ = try await store.acceptEvent(Self.event(Int64(n), users: ["a"], at: at))
        }
        let claimed = try await store.claimDue(nowMs: 5000, limit: 10)
        try await store.recordOutcomes(claimed.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 5000, attempt: nil) })
        #expect(try await store.prune(olderThanMs: 2000, batch: 1) == 2)
        #expect(try await db.count("SELECT COUNT(*) FROM deliveries") == 2)
        #expect(try await store.prune(olderThanMs: 6000, batch: 3) == 2)
        #expect(try await db.count("SELECT COUNT(*) FROM deliveries") == 0)
    }

    /// A delivery stamped in the future (a clock that was ahead) does not stop the walk: the old
    /// ones after it still go, and it stays.
    @Test func sqlitePrunePassesOverDeliveriesStampedInTheFuture() async throws {
        let db = try await TestDatabase.make(.sqlite)
        let store = try await db.open()
        let future: Int64 = 4_000_000_000_000  // 2096
        for (n, at) in [(1, Int64(1000)), (2, future), (3, 1000)] {
            _ = try await store.acceptEvent(Self.event(Int64(n), users: ["a"], at: at, expiresAt: Int64.max / 2))
        }
        let claimed = try await store.claimDue(nowMs: future, limit: 10)
        #expect(claimed.count == 3)
        try await store.recordOutcomes(claimed.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 5000, attempt: nil) })
        #expect(try await store.prune(olderThanMs: 2000, batch: 1) == 2)
        #expect(try await db.count("SELECT COUNT(*) FROM deliveries WHERE created_at_ms = \(future)") == 1)
        #expect(try await db.count("SELECT COUNT(*) FROM deliveries") == 1)
    }

    /// Pruned a few rows per transaction, everything old and finished still goes, and only that.
    @Test(arguments: StoreKind.allCases) func pruneInSmallTransactionsDeletesAllOfIt(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        for n in 1...7 { _ = try await store.acceptEvent(Self.event(Int64(n), users: ["a", "b"], at: 1000)) }
        _ = try await store.acceptEvent(Self.event(8, users: ["a"], at: 5000))
        let claimed = try await store.claimDue(nowMs: 1000, limit: 13)
        try await store.recordOutcomes(claimed.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 1000, attempt: nil) })
        #expect(try await store.prune(olderThanMs: 2000, batch: 2) == 13)
        #expect(try await store.pendingCount() == 2, "the one unfinished old delivery and the new one are kept")
        for n in 1...7 { #expect(try await store.eventExists(app: "app", messageID: Int64(n)) == false) }
        #expect(try await store.eventExists(app: "app", messageID: 8))
        let left = try await db.count("SELECT (SELECT COUNT(*) FROM decisions) + (SELECT COUNT(*) FROM delivery_payloads)")
        #expect(left == 1 + 2, "event 8's decision, and the payloads of the two unsent deliveries")
    }

    /// Skips of every app are pruned, in small transactions, and only the old ones.
    @Test(arguments: StoreKind.allCases) func pruningDropsTheOldSkipsOfEveryApp(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        var events: [AcceptedEvent] = []
        for (n, app) in ["a", "b", "c"].enumerated() {
            for (m, at) in [Int64(1000), 1000, 1000, 5000].enumerated() {
                events.append(
                    AcceptedEvent(
                        appID: app, messageID: Int64(10 * n + m), channelURL: "c1", acceptedAtMs: at,
                        decisions: [RecipientDecisionRecord(userID: "u\(m)", decision: .skip(.online))], deliveries: []))
            }
        }
        _ = try await store.acceptEvents(events)
        _ = try await store.prune(olderThanMs: 2000, batch: 2)
        #expect(try await db.count("SELECT COUNT(*) FROM decisions") == 3, "each app's skip at 5000")
        #expect(try await db.count("SELECT COUNT(*) FROM decisions WHERE created_at_ms = 5000") == 3)
    }

    @Test func durabilityIsFullByDefault() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        #expect(try await store.synchronousSetting() == 2)
        let normal = try db.open(configuration: PushStoreConfiguration(durability: .normal))
        #expect(try await normal.synchronousSetting() == 1)
    }

    /// The dispatcher's writes commit without an fsync of their own, and the writer is back to
    /// FULL for the next event commit whether the write committed or threw.
    @Test func queueWritesSkipTheirOwnSyncAndLeaveTheWriterFull() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let inside = try await store.queueWrite { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        #expect(inside == 1)
        #expect(try await store.synchronousSetting() == 2)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.queueWrite { db -> Int in
                try db.execute(sql: "CREATE TABLE scratch (x)")
                throw Refused()
            }
        }
        #expect(try await store.synchronousSetting() == 2, "restored after a rolled-back write")
        let scratch = try await store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'scratch'")
        }
        #expect(scratch == 0)
        _ = try await store.acceptEvent(Self.event(1))
        let claimed = try await store.claimDue(nowMs: 1_700_000_000_000, limit: 10)
        try await store.recordOutcomes(claimed.map { DeliveryOutcome(deliveryID: $0.id, state: .sent, atMs: 1, attempt: nil) })
        #expect(try await store.synchronousSetting() == 2)
        #expect(try await store.deliveryStateCounts() == [.sent: 1])

        let normal = try db.open(configuration: PushStoreConfiguration(durability: .normal))
        #expect(try await normal.queueWrite { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 } == 1)
        #expect(try await normal.synchronousSetting() == 1)
    }
}

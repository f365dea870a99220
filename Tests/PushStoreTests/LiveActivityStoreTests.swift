import Foundation
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

/// Live Activities in both stores: push-to-start tokens per attributes type, activities with
/// their update tokens, pushes queued like badge pushes, and tokens gone on a dead answer and
/// after the end's dismissal.
@Suite(.timeLimit(.minutes(5))) struct LiveActivityStoreTests {
    static func push(
        _ event: LiveActivityPush.Event, id: String = "order-1", user: String? = nil, type: String? = nil, priority: Int = 5,
        at: Int64 = 1_000, removeAt: Int64? = nil
    ) -> LiveActivityPush {
        LiveActivityPush(
            appID: "A", activityID: id, event: event, userID: user, attributesType: type,
            payload: Data(#"{"aps":{"event":"\#(event.rawValue)"}}"#.utf8), provider: .apns, pushType: "liveactivity",
            priority: priority, expiresAtMs: at + 60_000, atMs: at, removeAtMs: removeAt)
    }

    @Test(arguments: StoreKind.allCases) func startUpdateAndEndGoThroughTheQueue(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        #expect(try await store.queueLiveActivityPush(Self.push(.start, user: "u", type: "Order")) == .noToken)
        try await store.registerStartToken(app: "A", user: "u", attributesType: "Order", token: hexToken(1), nowMs: 1)
        try await store.registerStartToken(app: "A", user: "u", attributesType: "Order", token: hexToken(2), nowMs: 2)
        try await store.registerStartToken(app: "A", user: "u", attributesType: "Score", token: hexToken(3), nowMs: 3)
        #expect(try await store.startTokens(app: "A", user: "u").map(\.token) == [hexToken(1), hexToken(2), hexToken(3)])

        guard case .queued(let started?, pushes: 2) = try await store.queueLiveActivityPush(Self.push(.start, user: "u", type: "Order"))
        else { throw TestFailure("start not queued") }
        #expect(started.state == .started && started.attributesType == "Order" && started.updateToken == nil)
        let claimed = try await store.claimDue(nowMs: 1_000, limit: 10)
        #expect(claimed.map(\.deviceToken) == [hexToken(1), hexToken(2)])
        #expect(claimed.allSatisfy { $0.pushType == "liveactivity" && $0.messageID == 0 && $0.priority == 5 && $0.userID == "u" })
        #expect(claimed.first?.payload == Data(#"{"aps":{"event":"start"}}"#.utf8))

        // No update token yet; then the device registers the activity's.
        #expect(try await store.queueLiveActivityPush(Self.push(.update, at: 2_000)) == .noToken)
        #expect(try await store.registerActivityToken(app: "A", user: "v", activityID: "order-1", token: hexToken(9), nowMs: 3) == nil)
        #expect(try await store.userExists(app: "A", user: "v") == false, "a refused registration writes nothing")
        let registered = try await store.registerActivityToken(app: "A", user: "u", activityID: "order-1", token: hexToken(4), nowMs: 3)
        #expect(registered?.updateToken == hexToken(4))
        guard case .queued(let updated?, pushes: 1) = try await store.queueLiveActivityPush(Self.push(.update, priority: 10, at: 2_000))
        else { throw TestFailure("update not queued") }
        #expect(updated.state == .active && updated.highPriorityPushes == 1)
        #expect(try await store.claimDue(nowMs: 2_000, limit: 10).map(\.deviceToken) == [hexToken(4)])
        #expect(try await store.queueLiveActivityPush(Self.push(.update, id: "nope", at: 2_000)) == .unknownActivity)
        #expect(try await store.queueLiveActivityPush(Self.push(.start, user: "v", type: "Order")) == .otherUsersActivity)

        // An end dismissed later: kept until then, then pruned with its token.
        guard case .queued(let ended?, pushes: 1) = try await store.queueLiveActivityPush(Self.push(.end, at: 3_000, removeAt: 9_000))
        else { throw TestFailure("end not queued") }
        #expect(ended.state == .ended && ended.endedAtMs == 3_000 && ended.removeAtMs == 9_000)
        #expect(try await store.queueLiveActivityPush(Self.push(.update, at: 4_000)) == .ended)
        #expect(try await store.pruneLiveActivities(nowMs: 8_999) == 0)
        #expect(try await store.pruneLiveActivities(nowMs: 9_000) == 1)
        #expect(try await store.activity(app: "A", id: "order-1") == nil)

        // An end dismissed at once: gone with the call, its push still queued.
        _ = try await store.registerActivityToken(app: "A", user: "u", activityID: "order-2", token: hexToken(5), nowMs: 5)
        #expect(
            try await store.queueLiveActivityPush(Self.push(.end, id: "order-2", at: 5_000, removeAt: 5_000)) == .queued(nil, pushes: 1))
        #expect(try await store.activities(app: "A", user: "u").isEmpty)
        #expect(try await store.claimDue(nowMs: 5_000, limit: 10).map(\.deviceToken).contains(hexToken(5)))
    }

    @Test(arguments: StoreKind.allCases) func aDeadTokenIsRemovedWhereverItIsRegistered(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        try await store.registerStartToken(app: "A", user: "u", attributesType: "Order", token: hexToken(1), nowMs: 1)
        _ = try await store.registerActivityToken(app: "A", user: "u", activityID: "a", token: hexToken(2), nowMs: 1)
        _ = try await store.queueLiveActivityPush(Self.push(.start, id: "b", user: "u", type: "Order"))
        _ = try await store.queueLiveActivityPush(Self.push(.update, id: "a"))
        let claimed = try await store.claimDue(nowMs: 1_000, limit: 10)
        #expect(claimed.count == 2)
        try await store.recordOutcomes(
            claimed.map {
                DeliveryOutcome(
                    deliveryID: $0.id, state: .tokenInvalid, atMs: 1_100,
                    attempt: DeliveryAttempt(atMs: 1_100, status: 410, reason: "Unregistered", error: nil, pushID: $0.pushID),
                    tokenRemoval: .ifRegisteredBefore(1_050))
            })
        #expect(try await store.startTokens(app: "A", user: "u").isEmpty)
        #expect(try await store.activity(app: "A", id: "a")?.updateToken == nil)
        // Erasing the user removes their activities and tokens too.
        try await store.registerStartToken(app: "A", user: "u", attributesType: "Order", token: hexToken(3), nowMs: 2)
        _ = try await store.eraseUser(app: "A", user: "u")
        #expect(try await store.startTokens(app: "A", user: "u").isEmpty)
        #expect(try await store.activities(app: "A", user: "u").isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aUsersTokensAndActivitiesAreBounded(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        for n in 1...25 {
            try await store.registerStartToken(app: "A", user: "u", attributesType: "T", token: hexToken(n), nowMs: Int64(n))
        }
        #expect(try await store.startTokens(app: "A", user: "u").map(\.token) == (6...25).map(hexToken))
        for n in 1...(LiveActivityRecord.maximumPerUser + 2) {
            _ = try await store.registerActivityToken(app: "A", user: "u", activityID: "a\(n)", token: hexToken(100 + n), nowMs: Int64(n))
        }
        let kept = try await store.activities(app: "A", user: "u")
        #expect(kept.count == LiveActivityRecord.maximumPerUser)
        #expect(kept.first?.activityID == "a\(LiveActivityRecord.maximumPerUser + 2)" && !kept.contains { $0.activityID == "a1" })
    }
}

/// Broadcast channels in both stores: kept for the fleet, a broadcast queued to a known one only,
/// and a channel the provider calls unknown removed by the broadcast's outcome.
@Suite(.timeLimit(.minutes(5))) struct BroadcastChannelStoreTests {
    @Test(arguments: StoreKind.allCases) func channelsAreKeptAndBroadcastToUntilTheyAreGone(kind: StoreKind) async throws {
        let db = try await TestDatabase.make(kind)
        let store = try await db.open()
        let channel = LiveActivityChannel(
            appID: "A", channelID: "dHbG7mRhCk5Ew+Q1/Tf2aA==", name: "final", storagePolicy: 1, createdAtMs: 5)
        try await store.saveChannel(channel)
        try await store.saveChannel(LiveActivityChannel(appID: "B", channelID: "b", name: nil, storagePolicy: 0, createdAtMs: 6))
        #expect(try await store.channels(app: "A") == [channel])
        #expect(try await store.channel(app: "A", id: channel.channelID) == channel)
        #expect(try await store.channel(app: "A", id: "b") == nil, "another app's")

        var push = LiveActivityStoreTests.push(.update, id: channel.channelID)
        push.pushType = "broadcast"
        #expect(try await store.queueBroadcast(push))
        var unknown = push
        unknown.activityID = "nope"
        #expect(try await store.queueBroadcast(unknown) == false)
        let claimed = try await store.claimDue(nowMs: 1_000, limit: 10)
        #expect(claimed.map(\.deviceToken) == [channel.channelID])
        #expect(claimed.first?.pushType == "broadcast" && claimed.first?.userID == "" && claimed.first?.messageID == 0)

        let dead = try #require(claimed.first)
        try await store.recordOutcomes([
            DeliveryOutcome(
                deliveryID: dead.id, state: .tokenInvalid, atMs: 1_100,
                attempt: DeliveryAttempt(atMs: 1_100, status: 400, reason: "ChannelNotRegistered", error: nil, pushID: dead.pushID),
                tokenRemoval: .always)
        ])
        #expect(try await store.channels(app: "A").isEmpty)
        #expect(try await store.removeChannel(app: "B", id: "b"))
        #expect(try await store.removeChannel(app: "B", id: "b") == false)
    }
}

private struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import PushCore
import StoreContract
import Testing

/// Where a Live Activity push goes and what it makes of the activity, without a database.
@Suite(.timeLimit(.minutes(1))) struct LiveActivityQueueRuleTests {
    static func push(_ event: LiveActivityPush.Event, user: String? = "u", priority: Int = 5, at: Int64 = 100, removeAt: Int64? = nil)
        -> LiveActivityPush
    {
        LiveActivityPush(
            appID: "A", activityID: "x", event: event, userID: user, attributesType: event == .start ? "T" : nil, payload: Data(),
            provider: PushProvider("apns"), pushType: "liveactivity", priority: priority, expiresAtMs: at + 1, atMs: at,
            removeAtMs: removeAt)
    }

    static let active = LiveActivityRecord(
        appID: "A", activityID: "x", userID: "u", attributesType: "T", updateToken: "tok", state: .active, createdAtMs: 1, updatedAtMs: 1)

    @Test func targets() {
        #expect(LiveActivityQueueRule.check(Self.push(.start), existing: nil) == .toStartTokens(user: "u", attributesType: "T"))
        #expect(LiveActivityQueueRule.check(Self.push(.start, user: "v"), existing: Self.active) == .refuse(.otherUsersActivity))
        // The same spelling by other bytes is another user.
        #expect(LiveActivityQueueRule.check(Self.push(.start, user: "u\u{301}"), existing: Self.active) == .refuse(.otherUsersActivity))
        #expect(LiveActivityQueueRule.check(Self.push(.update), existing: nil) == .refuse(.unknownActivity))
        #expect(LiveActivityQueueRule.check(Self.push(.update), existing: Self.active) == .toUpdateToken("tok"))
        var noToken = Self.active
        noToken.updateToken = nil
        #expect(LiveActivityQueueRule.check(Self.push(.end), existing: noToken) == .refuse(.noToken))
        var ended = Self.active
        ended.state = .ended
        #expect(LiveActivityQueueRule.check(Self.push(.update), existing: ended) == .refuse(.ended))
    }

    @Test func recorded() {
        let high = LiveActivityQueueRule.recorded(Self.push(.update, priority: 10, at: 200), existing: Self.active)
        #expect(high.highPriorityPushes == 1 && high.updatedAtMs == 200 && high.state == .active)
        let end = LiveActivityQueueRule.recorded(Self.push(.end, at: 300), existing: high)
        #expect(end.state == .ended && end.endedAtMs == 300 && end.removeAtMs == 300 + LiveActivityQueueRule.defaultDismissalMs)
        #expect(LiveActivityQueueRule.recorded(Self.push(.end, at: 300, removeAt: 400), existing: high).removeAtMs == 400)
        let restarted = LiveActivityQueueRule.recorded(Self.push(.start, at: 500), existing: end)
        #expect(restarted.state == .started && restarted.endedAtMs == nil && restarted.removeAtMs == nil)
        #expect(restarted.updateToken == "tok" && restarted.createdAtMs == 1)
        let new = LiveActivityQueueRule.recorded(Self.push(.start, at: 600), existing: nil)
        #expect(new.userID == "u" && new.attributesType == "T" && new.createdAtMs == 600 && new.state == .started)
    }
}

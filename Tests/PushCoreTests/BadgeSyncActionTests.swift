import Testing
@testable import PushCore

/// Badge sync's decisions, without a store: stale → unchanged → coalesce → queue.
@Suite(.timeLimit(.minutes(5))) struct BadgeSyncActionTests {
    static let settings = BadgePushSettings(intervalMs: 5_000, timeToLiveMs: 60_000, provider: .apns)
    static let last = BadgeState(badge: 3, readAtMs: 100, queuedAtMs: 1_000)

    static func decide(_ last: BadgeState?, badge: Int, readAtMs: Int64, waiting: Bool = false, nowMs: Int64 = 2_000)
        -> BadgeSyncAction
    {
        BadgeSyncAction.decide(
            last: last, update: BadgeUpdate(userID: "bob", badge: badge, readAtMs: readAtMs), pushWaiting: waiting, nowMs: nowMs,
            settings: settings)
    }

    @Test func aReadNoLaterThanTheLastIsStaleAndStoresNothing() {
        for readAt: Int64 in [99, 100] {
            for waiting in [false, true] {
                let action = Self.decide(Self.last, badge: 7, readAtMs: readAt, waiting: waiting)
                #expect(action == .stale, "read at \(readAt)")
                #expect(action.record(queued: 0) == nil)
            }
        }
    }

    /// The count the devices have: the read is recorded, the interval still counts from the last push.
    @Test func theSameCountIsUnchangedEvenWithAPushWaiting() {
        for waiting in [false, true] {
            let action = Self.decide(Self.last, badge: 3, readAtMs: 200, waiting: waiting)
            #expect(action == .unchanged(record: BadgeState(badge: 3, readAtMs: 200, queuedAtMs: 1_000)))
        }
    }

    @Test func aNewCountFoldsIntoAWaitingPush() {
        let action = Self.decide(Self.last, badge: 0, readAtMs: 200, waiting: true)
        #expect(action == .coalesce(record: BadgeState(badge: 0, readAtMs: 200, queuedAtMs: 1_000)))
        #expect(action.record(queued: 0) == BadgeState(badge: 0, readAtMs: 200, queuedAtMs: 1_000))
    }

    /// Within the interval since the last push, the next is due when it ends; after it, now.
    @Test func aNewCountIsQueuedAfterTheInterval() {
        guard case .queue(let within) = Self.decide(Self.last, badge: 2, readAtMs: 200, nowMs: 2_000) else {
            Issue.record("not queued")
            return
        }
        #expect(within.badge == 2 && within.dueAtMs == 6_000 && within.expiresAtMs == 66_000)
        guard case .queue(let after) = Self.decide(Self.last, badge: 2, readAtMs: 200, nowMs: 9_000) else {
            Issue.record("not queued")
            return
        }
        #expect(after.dueAtMs == 9_000 && after.expiresAtMs == 69_000)
    }

    /// Queued pushes restart the interval; a reader without tokens got none, so it does not.
    @Test func whatIsRecordedDependsOnWhetherAnyPushWasQueued() {
        let action = Self.decide(Self.last, badge: 2, readAtMs: 200, nowMs: 2_000)
        #expect(action.record(queued: 2) == BadgeState(badge: 2, readAtMs: 200, queuedAtMs: 6_000))
        #expect(action.record(queued: 0) == BadgeState(badge: 2, readAtMs: 200, queuedAtMs: 1_000))
    }

    /// No state: any read is new, any count differs, and the first push is due at once.
    @Test func aReaderWithoutStateIsQueuedNow() {
        guard case .queue(let first) = Self.decide(nil, badge: 0, readAtMs: 0, nowMs: 2_000) else {
            Issue.record("not queued")
            return
        }
        #expect(first.dueAtMs == 2_000)
        #expect(
            Self.decide(nil, badge: 0, readAtMs: 0, waiting: true) == .coalesce(record: BadgeState(badge: 0, readAtMs: 0, queuedAtMs: .min))
        )
        #expect(Self.decide(nil, badge: 1, readAtMs: .min) == .stale)
    }

    /// "Never" and "forever" saturate instead of wrapping.
    @Test func extremeTimesSaturate() {
        let settings = BadgePushSettings(intervalMs: .max, timeToLiveMs: .max, provider: .apns)
        let action = BadgeSyncAction.decide(
            last: BadgeState(badge: 1, readAtMs: 0, queuedAtMs: 10), update: BadgeUpdate(userID: "u", badge: 2, readAtMs: 1),
            pushWaiting: false, nowMs: 20, settings: settings)
        guard case .queue(let queueing) = action else {
            Issue.record("not queued")
            return
        }
        #expect(queueing.dueAtMs == .max && queueing.expiresAtMs == .max)
        #expect(UnixTime.adding(-5, to: .min) == .min && UnixTime.adding(5, to: .max) == .max && UnixTime.adding(5, to: 10) == 15)
    }
}

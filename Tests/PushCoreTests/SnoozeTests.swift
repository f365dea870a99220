import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct SnoozeTests {
    let snoozing = UserPushPreferences(snoozeEnabled: true, snoozeStartMs: 1_000_000, snoozeEndMs: 2_000_000)

    @Test func startIsInclusiveEndIsExclusive() {
        #expect(!Snooze.isActive(snoozing, nowMs: 999_999))
        #expect(Snooze.isActive(snoozing, nowMs: 1_000_000))
        #expect(Snooze.isActive(snoozing, nowMs: 1_999_999))
        #expect(!Snooze.isActive(snoozing, nowMs: 2_000_000))
    }

    @Test func disabledSnoozeNeverApplies() {
        var off = snoozing
        off.snoozeEnabled = false
        #expect(!Snooze.isActive(off, nowMs: 1_500_000))
    }

    @Test func readsDatesAsMilliseconds() {
        #expect(Snooze.isActive(snoozing, at: Date(timeIntervalSince1970: 1_999.9995)))
        #expect(!Snooze.isActive(snoozing, at: Date(timeIntervalSince1970: 2_000)))
        #expect(UnixTime.milliseconds(Date(timeIntervalSince1970: 1_669_127_195.25)) == 1_669_127_195_250)
    }
}

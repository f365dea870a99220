import PushCore
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct PreferenceReadingTests {
    @Test func thePolicyVerdictFollowsThePolicysOrder() {
        var preferences = UserPushPreferences()
        #expect(PreferenceReading(preferences, hasDevices: true, nowMs: 0).verdictTone == "good")
        #expect(PreferenceReading(preferences, hasDevices: false, nowMs: 0).verdict.contains("no_token"))
        preferences.snoozeEnabled = true
        preferences.snoozeStartMs = 0
        preferences.snoozeEndMs = 10_000
        #expect(PreferenceReading(preferences, hasDevices: true, nowMs: 5_000).verdict.contains("snoozed"))
        #expect(PreferenceReading(preferences, hasDevices: true, nowMs: 10_000).verdictTone == "good", "the end instant is not snoozed")
        preferences.pushTriggerOption = .off
        #expect(PreferenceReading(preferences, hasDevices: true, nowMs: 5_000).verdict.contains("trigger_off"))
    }
}

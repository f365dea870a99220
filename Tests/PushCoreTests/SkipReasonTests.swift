import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct SkipReasonTests {
    @Test func codesAreStableSnakeCase() {
        #expect(
            SkipReason.allKnown.map(\.rawValue) == [
                "sender", "supergroup", "silent", "suppressed", "admin_message", "not_joined", "inactive", "online",
                "blocking_sender", "bot_blocked", "channel_off", "not_mentioned", "trigger_off", "snoozed",
                "do_not_disturb", "no_token", "payload_too_large",
            ])
    }

    @Test func roundTripsKnownAndUnknownCodes() throws {
        for reason in SkipReason.allKnown {
            #expect(SkipReason(rawValue: reason.rawValue) == reason)
        }
        #expect(SkipReason(rawValue: "quiet_hours_v2") == .unknown("quiet_hours_v2"))
        let encoded = try JSONEncoder().encode([SkipReason.doNotDisturb, .unknown("x")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["do_not_disturb","x"]"#)
        #expect(try JSONDecoder().decode([SkipReason].self, from: encoded) == [.doNotDisturb, .unknown("x")])
    }

    @Test func decisionDescribesItself() {
        #expect(PushDecision.push.description == "push")
        #expect(PushDecision.skip(.notMentioned).description == "not_mentioned")
        #expect(PushDecision.skip(.online).skipReason == .online)
        #expect(PushDecision.push.skipReason == nil)
        #expect(PushDecision.push.shouldPush)
    }
}

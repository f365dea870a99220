import PushCore
import Testing

@testable import PushService
@testable import PushEngine

/// What `/ready` and `pushrelay_provider_silent_seconds` say of a provider: silent from when
/// pushes began to wait or it last answered, while any waits; answering (0) otherwise.
@Suite(.timeLimit(.minutes(1))) struct ProviderSilenceTests {
    static let hms = ProviderSilenceLedger.Key(app: "a", provider: .hms)
    static let apns = ProviderSilenceLedger.Key(app: "a", provider: .apns)

    @Test func silenceRunsFromTheFirstWaitingPushUntilAnAnswer() {
        var ledger = ProviderSilenceLedger()
        ledger.sent(Self.hms, nowMs: 1_000)
        ledger.sent(Self.hms, nowMs: 5_000)
        #expect(ledger.silentMs(nowMs: 31_000)[Self.hms] == 30_000)
        ledger.ended(Self.hms, answered: false, nowMs: 32_000)
        #expect(ledger.silentMs(nowMs: 40_000)[Self.hms] == 39_000, "a push ending without an answer is no answer")
        ledger.ended(Self.hms, answered: true, nowMs: 41_000)
        #expect(ledger.silentMs(nowMs: 50_000)[Self.hms] == 0, "nothing waits")
    }

    @Test func anAnswerRestartsTheSilenceOfWhatStillWaits() {
        var ledger = ProviderSilenceLedger()
        ledger.sent(Self.apns, nowMs: 0)
        ledger.sent(Self.apns, nowMs: 0)
        ledger.ended(Self.apns, answered: true, nowMs: 20_000)
        #expect(ledger.silentMs(nowMs: 25_000)[Self.apns] == 5_000)
        #expect(ledger.silentMs(nowMs: 25_000)[Self.hms] == nil, "each app's provider on its own")
    }
}

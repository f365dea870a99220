import PushCore
import PushSending
import PushStore
import StoreContract
import Testing
@testable import PushService

/// What each provider answer means for a test push, decided without I/O.
@Suite(.timeLimit(.minutes(5))) struct TestPushOutcomeTests {
    static let answeredAtMs: Int64 = 1_700_000_000_500

    @Test func anAcceptedPushIsSentWithTheProvidersID() {
        let outcome = TestPushOutcome(
            PushSendResult(.delivered(providerID: "projects/p/messages/1"), status: 200), answeredAtMs: Self.answeredAtMs)
        #expect(outcome == TestPushOutcome(status: .sent, state: .sent, providerMessageID: "projects/p/messages/1"))
    }

    /// The dispatcher's removal rule: a 410's moment, the send's start, the answer's moment, or always.
    @Test(arguments: [
        (TokenDeath.registeredBefore(1_600_000_000_000), TokenRemovalRule.ifRegisteredBefore(1_600_000_000_000)),
        (.registeredBeforeAnswer, .ifRegisteredBefore(answeredAtMs)),
        (.always, .always),
    ])
    func aDeadTokenIsDeadAndGoesByTheDispatchersRule(death: TokenDeath, rule: TokenRemovalRule) {
        let outcome = TestPushOutcome(
            PushSendResult(.tokenDead(death), status: 410, reason: "Unregistered"), answeredAtMs: Self.answeredAtMs)
        #expect(outcome == TestPushOutcome(status: .tokenDead, state: .tokenInvalid, tokenRemoval: rule))
    }

    /// Nothing is retried: a refusal for now is reported as retryable and logged as failed.
    @Test(arguments: [
        (PushSendOutcome.rejected, TestPushStatus.failed),
        (.credentialsRefused, .failed),
        (.retry(after: .seconds(30)), .retryable),
        (.retry(after: .zero), .retryable),
        (.notSent, .retryable),
    ])
    func everythingElseIsFinalAndKeepsTheToken(answer: PushSendOutcome, status: TestPushStatus) {
        let outcome = TestPushOutcome(PushSendResult(answer, status: 503), answeredAtMs: Self.answeredAtMs)
        #expect(outcome == TestPushOutcome(status: status, state: .failed))
        #expect(outcome.state.isFinal && outcome.tokenRemoval == nil)
    }
}

import Foundation
import PushSending
import Synchronization
import Testing
@testable import PushService

/// The wait for one test push keeps its deadline whatever the sender does, with fake senders
/// behind the project's `PushSender`.
@Suite struct TestPushWaitTests {
    /// Answers each push with `answer` at once, or never (nil); records cancellations, and
    /// answers "not sent" to one when `answersCancel`.
    final class FakeSender: PushSender {
        let answer: PushSendResult?
        let answersCancel: Bool
        let submitted = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)

        init(answer: PushSendResult?, answersCancel: Bool = false) {
            self.answer = answer
            self.answersCancel = answersCancel
        }

        func submit(_ push: OutgoingPush, timeout: Duration, completion: @escaping @Sendable (PushSendResult) -> Void) -> PushSendHandle {
            submitted.add(1, ordering: .relaxed)
            if let answer { completion(answer) }
            return PushSendHandle { [self] in
                cancelled.add(1, ordering: .relaxed)
                if answersCancel { completion(PushSendResult(.notSent)) }
            }
        }

        func shutdown() async {}
    }

    static let push = OutgoingPush(
        pushID: UUID(), deviceToken: "ab", payload: [], pushType: nil, priority: 10, expiresAtMs: .max)

    @Test func theSendersAnswerIsTheResult() async {
        let sender = FakeSender(answer: PushSendResult(.delivered(providerID: "m1"), status: 200))
        let result = await TestPushWait.send(Self.push, through: sender, deadline: .seconds(60))
        #expect(result == PushSendResult(.delivered(providerID: "m1"), status: 200))
        #expect(sender.cancelled.load(ordering: .relaxed) == 0)
    }

    /// A sender that never answers (a token exchange hanging) still ends the wait, as "no
    /// answer", and its send is cancelled.
    @Test func aSilentSenderEndsAtTheDeadline() async {
        let sender = FakeSender(answer: nil)
        let started = ContinuousClock.now
        let result = await TestPushWait.send(Self.push, through: sender, deadline: .milliseconds(100))
        #expect(result.outcome == .retry(after: .zero) && result.error?.contains("no answer") == true)
        #expect(ContinuousClock.now - started >= .milliseconds(100) + TestPushWait.grace)
        #expect(sender.cancelled.load(ordering: .relaxed) == 1)
    }

    /// The waiting task cancelled (the client went away, the relay stops): the send is cancelled.
    @Test func aCancelledWaitCancelsTheSend() async throws {
        let sender = FakeSender(answer: nil, answersCancel: true)
        let waiting = Task { await TestPushWait.send(Self.push, through: sender, deadline: .seconds(600)) }
        let deadline = ContinuousClock.now + .seconds(60)
        while sender.submitted.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        waiting.cancel()
        #expect(await waiting.value.outcome == .notSent)
        #expect(sender.cancelled.load(ordering: .relaxed) >= 1)
    }
}

import Foundation
import PushSending
import Synchronization
import Testing
@testable import PushService

/// The wait for one test push keeps its deadline whatever the sender does, with fake senders
/// behind the project's `PushSender`.
@Suite(.timeLimit(.minutes(5))) struct TestPushWaitTests {
    /// Answers each push with `answer` at once, or never (nil); records cancellations, and
    /// answers "not sent" to one when `answersCancel`.
    final class FakeSender: PushSender {
        let answer: PushSendResult?
        let answersCancel: Bool
        let statistics: PushSenderStatistics?
        let submitted = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)

        init(answer: PushSendResult?, answersCancel: Bool = false, statistics: PushSenderStatistics? = nil) {
            self.answer = answer
            self.answersCancel = answersCancel
            self.statistics = statistics
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
        #expect(result.error?.contains("no connection") == false)
        #expect(ContinuousClock.now - started >= .milliseconds(100) + TestPushWait.grace)
        #expect(sender.cancelled.load(ordering: .relaxed) == 1)
    }

    /// Silent with no connection to the provider open (a firewall dropping the connects): the
    /// answer says so, not only that time ran out. With one open, or a pool the relay cannot
    /// see (HMS), only the time.
    @Test func noAnswerWithoutAConnectionSaysSo() async {
        let unreachable = FakeSender(answer: nil, statistics: PushSenderStatistics(connections: 1, readyConnections: 0))
        let result = await TestPushWait.send(Self.push, through: unreachable, deadline: .milliseconds(50))
        #expect(result.error?.contains("no connection to the provider is open") == true, "\(result)")
        // The sender's own timeout, as the HTTP/2 client answers it, is explained the same way.
        let timedOut = PushSendResult(.retry(after: .zero), error: "no answer before the request deadline")
        let unreachableStatistics = PushSenderStatistics(connections: 1, readyConnections: 0)
        #expect(
            TestPushWait.explained(timedOut, statistics: unreachableStatistics).error
                == "no answer before the request deadline: no connection to the provider is open (the relay's log names the connection error)"
        )
        // An open connection, a pool the relay cannot see (HMS), a provider's answer or a
        // connect error of its own: as it is.
        #expect(TestPushWait.explained(timedOut, statistics: PushSenderStatistics(connections: 1, readyConnections: 1)) == timedOut)
        #expect(TestPushWait.explained(timedOut, statistics: PushSenderStatistics(countsConnections: false)) == timedOut)
        let answered = PushSendResult(.retry(after: .seconds(1)), status: 503, error: "busy")
        #expect(TestPushWait.explained(answered, statistics: unreachableStatistics) == answered)
        let refused = PushSendResult(.retry(after: .zero), error: "cannot connect: connection refused")
        #expect(TestPushWait.explained(refused, statistics: unreachableStatistics) == refused)
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

import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct RequestProgressTests {
    /// 10 s for a head, 30 s for a body, starting at t = 1,000 ms.
    static func progress() -> RequestProgress {
        RequestProgress(headerTimeoutMs: 10_000, bodyTimeoutMs: 30_000, nowMs: 1_000)
    }

    @Test func theHeadIsDueFromTheAcceptAndBytesDoNotMoveIt() {
        // Nothing read yet: fresh, and told why if it sends nothing in time.
        var progress = Self.progress()
        #expect(progress.phase == .fresh)
        #expect(progress.deadline == .init(stage: .header, atMs: 11_000))
        #expect(progress.expiry == .answer(.header))
        progress.bytesArrived(nowMs: 5_000)
        progress.bytesArrived(nowMs: 6_000)
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .header, atMs: 11_000))
        #expect(progress.expiry == .answer(.header))
    }

    @Test func aWholeRequestInTheFirstReadGoesFromFreshToHandling() {
        var progress = Self.progress()
        progress.headReceived(nowMs: 1_001)
        progress.endReceived(nowMs: 1_001)
        #expect(progress.phase == .handling)
    }

    /// Kept alive, a connection may sit idle for the idle timeout (60 s); once bytes of its next
    /// head arrive, the head is due a header timeout later, and more bytes do not move that.
    @Test func aKeptAliveConnectionIsIdleUntilBytesOfItsNextRequestArrive() {
        var progress = Self.progress()
        progress.headReceived(nowMs: 1_000)
        progress.endReceived(nowMs: 1_000)
        progress.responseFinished(nowMs: 2_000)
        #expect(progress.phase == .idle)
        #expect(progress.deadline == .init(stage: .idle, atMs: 62_000))
        #expect(progress.expiry == .close, "nothing of a request: closed without an answer")
        progress.bytesArrived(nowMs: 30_000)
        progress.bytesArrived(nowMs: 35_000)
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .header, atMs: 40_000))
        #expect(progress.expiry == .answer(.header))
    }

    @Test func theBodyIsDueFromItsHeadAndAFullRequestHasNoDeadline() {
        var progress = Self.progress()
        progress.bytesArrived(nowMs: 2_000)
        progress.headReceived(nowMs: 4_000)
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .body, atMs: 34_000))
        #expect(progress.expiry == .answer(.body))
        progress.bytesArrived(nowMs: 4_500)  // more of the body: nothing changes
        #expect(progress.deadline == .init(stage: .body, atMs: 34_000))
        progress.endReceived(nowMs: 5_000)
        #expect(progress.phase == .handling)
        #expect(progress.deadline == nil && progress.expiry == nil)
        // The response goes out: the client must read it, then idle for at most the idle timeout.
        progress.responseStarted(nowMs: 8_000)
        #expect(progress.phase == .sending)
        #expect(progress.deadline == .init(stage: .send, atMs: 38_000))
        progress.responseEnded()
        progress.responseFinished(nowMs: 9_000)
        #expect(progress.phase == .idle)
        #expect(progress.deadline == .init(stage: .idle, atMs: 69_000))
        #expect(progress.expiry == .close)
    }

    @Test func aBodyAnsweredEarlyIsStillDueButGetsNoSecondAnswer() {
        // An early answer (413 on Content-Length) while the client keeps sending the body.
        var progress = Self.progress()
        progress.headReceived(nowMs: 2_000)
        progress.responseStarted(nowMs: 2_000)
        #expect(progress.expiry == .close, "a response is half written: no 408 into it")
        progress.responseEnded()
        progress.responseFinished(nowMs: 2_500)
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .body, atMs: 32_000))
        #expect(progress.expiry == .close, "already answered")
        progress.endReceived(nowMs: 3_000)
        #expect(progress.phase == .idle)
        #expect(progress.deadline == .init(stage: .idle, atMs: 63_000))
    }

    @Test func aPipelinedRequestWaitsForTheOneBeingHandled() {
        var progress = Self.progress()
        progress.headReceived(nowMs: 2_000)
        progress.endReceived(nowMs: 2_000)
        // The next request's head arrives while the first is handled, its body trickles.
        progress.headReceived(nowMs: 3_000)
        #expect(progress.phase == .handling)
        #expect(progress.deadline == nil)
        progress.responseFinished(nowMs: 50_000)
        // Its body was due 30 s after its head: already late.
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .body, atMs: 33_000))
        #expect(progress.expiry == .answer(.body))
        // Bytes of a third request while the second is handled: a head under way afterwards.
        progress.endReceived(nowMs: 50_100)
        progress.bytesArrived(nowMs: 1_500)
        #expect(progress.phase == .handling)
        progress.responseFinished(nowMs: 51_000)
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .header, atMs: 61_000))
        #expect(progress.expiry == .answer(.header))
    }

    @Test func anAnswerWithoutARequestLeavesTheConnectionIdle() {
        // The 400 for a head that failed to parse is written with no head read.
        var progress = Self.progress()
        progress.bytesArrived(nowMs: 1_500)
        progress.responseStarted(nowMs: 4_000)
        progress.responseEnded()
        progress.responseFinished(nowMs: 5_000)
        #expect(progress.phase == .receiving)
        #expect(progress.deadline == .init(stage: .header, atMs: 15_000))
        // An end without a head (never produced by the decoder) changes nothing.
        progress.endReceived(nowMs: 6_000)
        #expect(progress.deadline == .init(stage: .header, atMs: 15_000))
    }

    /// A client that never reads: its answer waits for the socket, and the connection has the
    /// send timeout (30 s) from the response's start, moved only by the socket taking more.
    @Test func anAnswerTheClientDoesNotReadIsDueWithinTheSendTimeout() {
        var progress = Self.progress()
        progress.headReceived(nowMs: 2_000)
        progress.endReceived(nowMs: 2_000)
        progress.responseStarted(nowMs: 3_000)
        progress.responseEnded()
        #expect(progress.phase == .sending)
        #expect(progress.queuedResponses == 1)
        #expect(progress.deadline == .init(stage: .send, atMs: 33_000))
        #expect(progress.expiry == .close, "nothing can be said to a client that does not read")
        progress.writeProgressed(nowMs: 20_000)
        #expect(progress.deadline == .init(stage: .send, atMs: 50_000))
        progress.responseFinished(nowMs: 21_000)
        #expect(progress.phase == .idle)
        #expect(progress.queuedResponses == 0)
    }

    /// Pipelined requests whose answers are not read: each answer queued counts, and a request
    /// arriving meanwhile keeps its own (earlier) deadline.
    @Test func pipelinedAnswersQueueUpAndTheEarlierDeadlineRules() {
        var progress = Self.progress()
        for at in [2_000, 2_001] as [Int64] {
            progress.headReceived(nowMs: at)
            progress.endReceived(nowMs: at)
            progress.responseStarted(nowMs: at)
            progress.responseEnded()
        }
        #expect(progress.queuedResponses == 2)
        #expect(progress.deadline == .init(stage: .send, atMs: 32_000))
        progress.bytesArrived(nowMs: 2_500)  // a third head, trickling
        #expect(progress.deadline == .init(stage: .send, atMs: 32_000))
        progress.headReceived(nowMs: 3_000)  // its body is due at 33 s, after the send deadline
        #expect(progress.deadline == .init(stage: .send, atMs: 32_000))
    }
}

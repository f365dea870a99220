import ConnectionLiveness
import Testing

/// `ConnectionLiveness`' decisions on a clock of the test's own: when to PING, when a connection
/// is given up, and what keeps it alive.
@Suite(.timeLimit(.minutes(1))) struct ConnectionLivenessTests {
    static let settings = LivenessSettings(
        idlePingInterval: .seconds(60), stallPingInterval: .seconds(3), pingTimeout: .seconds(5), maximumUnansweredInARow: 3)

    @Test func anIdleConnectionPingsAfterItsIdleIntervalAndCloses5sAfterAnUnansweredPing() {
        var liveness = ConnectionLiveness(settings: Self.settings, now: .zero)
        #expect(liveness.check(now: .seconds(59)) == .none)
        #expect(liveness.nextCheck(now: .seconds(59)) == .seconds(1))
        #expect(liveness.check(now: .seconds(60)) == .sendPing)
        #expect(liveness.check(now: .seconds(61)) == .none, "one PING at a time")
        #expect(liveness.check(now: .seconds(65)) == .close(reason: "no PING answer within 5.0 seconds"))
        #expect(liveness.check(now: .seconds(70)) == .none, "closed once")
    }

    @Test func requestsWaitingShortenTheIntervalToTheStallInterval() {
        var liveness = ConnectionLiveness(settings: Self.settings, now: .zero)
        liveness.requestStarted()
        #expect(liveness.check(now: .seconds(2)) == .none)
        #expect(liveness.check(now: .seconds(3)) == .sendPing)
    }

    @Test func anythingHeardRestartsTheIntervalAndAnAnsweredPingClearsIt() {
        var liveness = ConnectionLiveness(settings: Self.settings, now: .zero)
        liveness.requestStarted()
        liveness.heard(now: .seconds(2))
        #expect(liveness.check(now: .seconds(4)) == .none)
        #expect(liveness.check(now: .seconds(5)) == .sendPing)
        liveness.pingAnswered(now: .seconds(6))
        #expect(!liveness.isPingOutstanding)
        #expect(liveness.check(now: .seconds(8)) == .none)
        #expect(liveness.check(now: .seconds(9)) == .sendPing)
    }

    @Test func requestsInARowWithoutAnAnswerCloseTheConnectionAndAnAnswerResetsTheCount() {
        var liveness = ConnectionLiveness(settings: Self.settings, now: .zero)
        for _ in 0..<6 { liveness.requestStarted() }
        #expect(liveness.requestEnded(answered: false) == .none)
        #expect(liveness.requestEnded(answered: false) == .none)
        #expect(liveness.requestEnded(answered: true) == .none)
        #expect(liveness.requestEnded(answered: false) == .none)
        #expect(liveness.requestEnded(answered: false) == .none)
        #expect(liveness.requestEnded(answered: false) == .close(reason: "3 requests in a row found no answer"))
        #expect(liveness.requestsOpen == 0)
    }

    @Test func aConnectionErrorClosesAtOnce() {
        var liveness = ConnectionLiveness(settings: Self.settings, now: .zero)
        #expect(liveness.connectionError("STREAM_CLOSED") == .close(reason: "connection error: STREAM_CLOSED"))
        #expect(liveness.check(now: .seconds(120)) == .none)
    }

    @Test func aPingSentForAReasonOfTheConnectionsOwnIsTimedToo() {
        var liveness = ConnectionLiveness(settings: Self.settings, now: .zero)
        liveness.pingSent(now: .seconds(10))
        #expect(liveness.isPingOutstanding)
        #expect(liveness.nextCheck(now: .seconds(12)) == .seconds(3))
        #expect(liveness.check(now: .seconds(15)) == .close(reason: "no PING answer within 5.0 seconds"))
    }
}

import Testing

@testable import APNsMock

@Suite("FaultBook", .timeLimit(.minutes(5)))
struct FaultBookTests {
    @Test("goAway fires on the Nth stream, including it; afterStreams 0 fires before the next stream")
    func goAwayCounting() {
        var book = FaultBook()
        book.arm(.goAway(afterStreams: 2, reason: "Shutdown"))
        #expect(book.streamOpened().goAway == nil)
        #expect(book.streamOpened().goAway == .includingThisStream(reason: "Shutdown"))
        #expect(book.streamOpened().goAway == nil)

        book.arm(.goAway(afterStreams: 0, reason: "IdleTimeout"))
        #expect(book.streamOpened().goAway == .beforeThisStream(reason: "IdleTimeout"))
        #expect(!book.hasTrafficFaults)
    }

    @Test("faults of one kind queue; counts add up for refuse and hold")
    func queuesAndCounts() {
        var book = FaultBook()
        book.arm(.refuseStreams(count: 1))
        book.arm(.refuseStreams(count: 1))
        book.arm(.neverAnswer(count: 1))
        #expect(book.streamOpened().disposition == .refuse)
        #expect(book.streamOpened().disposition == .refuse)
        #expect(book.streamOpened().disposition == .hold)
        #expect(book.streamOpened().disposition == .normal)

        book.arm(.status(code: 429, reason: "TooManyRequests", count: 1, retryAfterSeconds: 5))
        book.arm(.status(code: 500, reason: "InternalServerError", count: 1, retryAfterSeconds: nil))
        #expect(book.requestCompleted() == .status(code: 429, reason: "TooManyRequests", retryAfterSeconds: 5))
        #expect(book.requestCompleted() == .status(code: 500, reason: "InternalServerError", retryAfterSeconds: nil))
        #expect(book.requestCompleted() == .normal)
    }

    @Test("dropConnection fires on the Nth completed request, before any status fault")
    func dropConnection() {
        var book = FaultBook()
        book.arm(.dropConnection(afterStreams: 2))
        book.arm(.status(code: 503, reason: "ServiceUnavailable", count: 5, retryAfterSeconds: nil))
        #expect(book.requestCompleted() == .status(code: 503, reason: "ServiceUnavailable", retryAfterSeconds: nil))
        #expect(book.requestCompleted() == .dropConnection)
        #expect(book.active == [.status(code: 503, reason: "ServiceUnavailable", count: 4, retryAfterSeconds: nil)])
    }

    @Test("TLS failures, stream-limit override and delay; clear disarms all")
    func connectionFaults() {
        var book = FaultBook()
        book.arm(.tlsHandshakeFailure(count: 1))
        book.arm(.maxConcurrentStreams(3))
        book.arm(.delay(milliseconds: 10))
        #expect(!book.hasTrafficFaults)
        let first = book.takeTLSHandshakeFailure()
        let second = book.takeTLSHandshakeFailure()
        #expect(first)
        #expect(!second)
        #expect(book.maxConcurrentStreams == 3)
        #expect(book.delayMilliseconds == 10)
        book.clear()
        #expect(book.active.isEmpty)
        #expect(book.maxConcurrentStreams == nil)
    }
}

import APNsMock
import Foundation
import Testing

@testable import HTTP2Transport

/// Requests beyond the stream limit wait in the connection's queue. Under a steady backlog that
/// queue never empties, so it must let go of each request as it leaves; it used to be an array
/// read from a moving index, which kept every request (payload and all) alive until the backlog
/// cleared — memory growing with every push sent.
@Suite("HTTP/2 connection's queue of waiting requests", .timeLimit(.minutes(5)))
struct WaitingQueueTests {
    @Test func aRequestThatLeftTheQueueIsReleasedWhileOthersStillWait() async throws {
        try await withMock { mock in
            var configuration = try TransportFixtures.configuration(port: mock.port)
            configuration.maxConcurrentStreamsPerConnection = 1
            let pool = ConnectionPool(configuration: configuration, tls: try TLSContext(configuration: configuration))
            let deadline = ContinuousClock.now + .seconds(600)
            func pending() -> PendingRequest {
                PendingRequest(request: TransportFixtures.push(), deadline: deadline)
            }
            func wait(_ what: String, until condition: () -> Bool) async throws {
                let giveUp = ContinuousClock.now + .seconds(60)
                while !condition() {
                    guard ContinuousClock.now < giveUp else {
                        Issue.record("timed out waiting for \(what): \(pool.statistics)")
                        throw CancellationError()
                    }
                    try await Task.sleep(for: .milliseconds(5))
                }
            }

            // The connection up, its one stream free.
            let warmUp = pending()
            pool.dispatch(warmUp)
            try await wait("the warm-up answer") { warmUp.isCompleted }

            // X holds the one stream; A, C and D queue behind it in that order.
            mock.addFault(.neverAnswer(count: 2))
            let x = pending()
            pool.dispatch(x)
            try await wait("X in flight") { pool.statistics.streamsInFlight == 1 }
            var a: PendingRequest? = pending()
            weak let leftA = a
            let c = pending()
            let d = pending()
            for request in [a!, c, d] { pool.dispatch(request) }
            try await wait("A, C and D queued") { pool.statistics.queued == 3 }

            // X and A end (as cancelled tasks do); C takes the stream and is never answered, D waits.
            x.complete(.cancelled)
            a!.complete(.cancelled)
            a = nil
            try await wait("C in flight and D still queued") {
                mock.stats.requestsReceived >= 3 && pool.statistics.queued == 1
            }
            try await wait("A released") { leftA == nil }
            #expect(!d.isCompleted)
            await pool.shutdown()
            #expect(c.isCompleted && d.isCompleted)
        }
    }
}

import APNs
import APNsMock
import Foundation
import Testing

@Suite("APNs client shutdown", .timeLimit(.minutes(5)))
struct ClientShutdownTests {
    /// What a stopping relay does: it cancels the sends APNs has not answered, then shuts the
    /// client down. The connection must notice that its last streams are gone and close, not
    /// sleep out the idle-PING interval (the bug behind an 11 s SIGTERM).
    @Test func shutdownRightAfterCancelledSendsClosesPromptly() async throws {
        try await withMock { mock in
            var configuration = Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache()))
            configuration.liveness.idlePingInterval = .seconds(600)
            let client = try APNsClient(configuration: configuration)
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.neverAnswer(count: 50))
            let sends = Task { try? await sendConcurrently(client, count: 50) }
            try await waitForStreams(client, 50)

            sends.cancel()
            let started = ContinuousClock.now
            await client.shutdown()
            let took = ContinuousClock.now - started
            // Bounded by the 5 s drain; the bug waited out the 600 s idle interval. The bound leaves
            // room for a machine many times slower and still tells the two apart.
            #expect(took < .seconds(120), "shutdown took \(took)")
            #expect(await sends.value == nil, "the sends were cancelled")
            #expect(client.statistics.connections == 0)
        }
    }

    /// Requests still unanswered at shutdown get the drain time, then fail with `.shutdown`,
    /// which the dispatcher re-queues.
    @Test func unansweredStreamsFailWithShutdownAfterTheDrain() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.neverAnswer(count: 3))
            let sends = Task { await sendCollectingErrors(client, count: 3) }
            try await waitForStreams(client, 3)
            await client.shutdown()
            #expect(await sends.value == [.transport(.shutdown), .transport(.shutdown), .transport(.shutdown)])
            #expect(client.statistics.connections == 0)
            await #expect(throws: APNsError.transport(.shutdown)) { try await client.send(request()) }
        }
    }
}

/// Waits (polling, up to 60 s) until `count` requests are on the wire.
func waitForStreams(_ client: APNsClient, _ count: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while client.statistics.streamsInFlight < count, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
    }
    #expect(client.statistics.streamsInFlight == count)
}

import APNs
import APNsMock
import ConnectionLiveness
import Foundation
import HTTP2Transport
import Testing

/// Connections to APNs that stop answering are replaced (`ConnectionLiveness` in the transport):
/// one gone silent (no answer, no PING ACK), and one that answers PINGs but no request.
@Suite("APNs client: connections that stop answering", .timeLimit(.minutes(2)))
struct ClientLivenessTests {
    static func client(_ mock: APNsMockServer, maximumUnansweredInARow: Int = 8) throws -> APNsClient {
        var configuration = Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache()))
        configuration.liveness = LivenessSettings(
            stallPingInterval: .milliseconds(300), pingTimeout: .seconds(2), maximumUnansweredInARow: maximumUnansweredInARow)
        return try APNsClient(configuration: configuration)
    }

    @Test func aSilentConnectionIsReplacedAndTheNextPushGoesThrough() async throws {
        try await withMock { mock in
            let client = try Self.client(mock)
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.silentConnection(count: 1))
            let started = ContinuousClock.now
            do {
                _ = try await client.send(request(), timeout: .seconds(60))
                Issue.record("a push on a silent connection was answered")
            } catch let error as APNsError {
                #expect(error.isRetryable, "\(error)")
                #expect(error != .transport(.timedOut), "the connection was given up, not the request's deadline")
            }
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(try await client.send(request()).status == 200)
            #expect(mock.stats.connectionsSilenced == 1)
            #expect(mock.stats.connectionsAccepted >= 2)
            await client.shutdown()
        }
    }

    /// PINGs answered, requests not: only the requests tell that this connection serves nothing.
    @Test func requestsInARowWithoutAnAnswerReplaceTheConnection() async throws {
        try await withMock { mock in
            let client = try Self.client(mock, maximumUnansweredInARow: 3)
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.neverAnswer(count: 3))
            for _ in 0..<3 {
                await #expect(throws: APNsError.transport(.timedOut)) { try await client.send(request(), timeout: .milliseconds(300)) }
            }
            #expect(try await client.send(request()).status == 200)
            #expect(mock.stats.connectionsAccepted == 2)
            await client.shutdown()
        }
    }
}

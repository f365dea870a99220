import APNsMock
import Foundation
import TestSupport
import Testing

@testable import APNs

/// Which connection a request goes out on: at a light load the first open one carries all (an
/// event's pushes in one write and one wake-up of one thread); with `ConnectionPool.fillLoad` in
/// flight there, the least loaded takes the next.
@Suite("APNs client, choice of connection")
struct ConnectionPoolTests {
    @Test func aLightLoadTakesOneConnectionAndAHeavyOneSpills() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), connections: 2))
            #expect(try await client.send(request()).status == 200)
            #expect(await eventually(within: 60) { client.statistics.readyConnections == 2 })
            // With token auth a connection allows one stream until its first request succeeds
            // (APNs does this; so does the mock), and a connection never takes more than it
            // allows: the first light round may spread while one of them warms up.
            #expect(try await sendConcurrently(client, count: 8).allSatisfy { $0 == 200 })

            // Rounds of 8 at once, below the fill load however slow the machine: one connection.
            let before = mock.notifications.count
            for _ in 0..<5 { #expect(try await sendConcurrently(client, count: 8).allSatisfy { $0 == 200 }) }
            let light = Set(mock.notifications.dropFirst(before).map(\.connectionID))
            #expect(mock.notifications.count == before + 40)
            #expect(light.count == 1, "a light load on one connection: \(light)")

            // That connection held at the fill load (unanswered streams): the next goes to the other.
            mock.addFault(.neverAnswer(count: ConnectionPool.fillLoad))
            let handles = (0..<ConnectionPool.fillLoad).map { _ in client.submit(request()) { _ in } }
            try await waitForStreams(client, ConnectionPool.fillLoad)
            #expect(try await client.send(request()).status == 200)
            let spilled = try #require(mock.notifications.last?.connectionID)
            #expect(!light.contains(spilled), "past the fill load, the other connection")
            for handle in handles { handle.cancel() }
            await client.shutdown()
        }
    }
}

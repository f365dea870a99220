import APNsMock
import Foundation
import TestSupport
import Testing

@testable import HTTP2Transport

/// Which connection a request goes out on: at a light load the first open one carries all (an
/// event's pushes in one write and one wake-up of one thread); with `ConnectionPool.fillLoad` in
/// flight there, the least loaded takes the next.
@Suite("HTTP/2 client, choice of connection", .timeLimit(.minutes(5)))
struct ConnectionPoolTests {
    @Test func aLightLoadTakesOneConnectionAndAHeavyOneSpills() async throws {
        try await withMock { mock in
            let client = try HTTP2Client(configuration: TransportFixtures.configuration(port: mock.port, connections: 2))
            #expect(try await client.send() == 200)
            #expect(await eventually(within: 60) { client.statistics.readyConnections == 2 })
            // A connection never takes more than its server allows, and the second one may still
            // be settling: the first light round may spread.
            #expect(try await client.sendConcurrently(count: 8).allSatisfy { $0 == 200 })

            // Rounds of 8 at once, below the fill load however slow the machine: one connection.
            let before = mock.notifications.count
            for _ in 0..<5 { #expect(try await client.sendConcurrently(count: 8).allSatisfy { $0 == 200 }) }
            let light = Set(mock.notifications.dropFirst(before).map(\.connectionID))
            #expect(mock.notifications.count == before + 40)
            #expect(light.count == 1, "a light load on one connection: \(light)")

            // That connection held at the fill load (unanswered streams): the next goes to the other.
            mock.addFault(.neverAnswer(count: ConnectionPool.fillLoad))
            let held = (0..<ConnectionPool.fillLoad).map { _ in
                client.submit(TransportFixtures.push(), deadline: .now + .seconds(600)) { _ in }
            }
            #expect(await eventually(within: 60) { client.statistics.streamsInFlight == ConnectionPool.fillLoad })
            #expect(try await client.send() == 200)
            let spilled = try #require(mock.notifications.last?.connectionID)
            #expect(!light.contains(spilled), "past the fill load, the other connection")
            for request in held { request.cancel() }
            await client.shutdown()
        }
    }
}

import ConnectionLiveness
import Foundation
import HMSMock
import Testing
import TestSupport

@testable import HMS

/// HMS's AsyncHTTPClient connections that stop answering are replaced (`PooledHTTPClient`'s
/// liveness handler), as the project's own HTTP/2 transport replaces its own.
@Suite(.timeLimit(.minutes(2))) struct HMSClientLivenessTests {
    /// Quick to give up, so the tests take seconds; what matters is that the connection is replaced.
    static let liveness = LivenessSettings(stallPingInterval: .milliseconds(300), pingTimeout: .seconds(2))

    static func withMock(_ body: (HMSMockServer, HMSClient) async throws -> Void) async throws {
        let server = try HMSMockServer(
            configuration: HMSMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
                appID: HMSClientTests.appID, clientSecret: HMSClientTests.secret))
        try await server.start()
        let endpoint = URL(string: "https://localhost:\(server.port)")!
        let client = try HMSClient(
            configuration: HMSClientConfiguration(
                appID: HMSClientTests.appID, clientSecret: HMSClientTests.secret, endpoint: endpoint,
                tokenURL: endpoint.appendingPathComponent("oauth2/v3/token"), caFile: Repository.devCert("ca.pem"),
                liveness: liveness))
        try await withTeardown {
            try await body(server, client)
        } teardown: {
            await client.shutdown()
            try await server.shutdown()
        }
    }

    /// The mock's `silent_connections` fault: the connection reads and sends nothing more, PING
    /// ACKs included. The request on it fails long before its own deadline, and the next one goes
    /// out on a new connection.
    @Test func aSilentConnectionIsReplacedAndTheNextSendGoesThrough() async throws {
        try await Self.withMock { server, client in
            let first = try await client.send(body: HMSClientTests.body(1))
            #expect(first.code == .success)
            server.arm(HMSMockFaults(silentConnections: 1))
            let started = ContinuousClock.now
            await #expect(throws: HMSError.self) { try await client.send(body: HMSClientTests.body(2), timeout: .seconds(60)) }
            let waited = ContinuousClock.now - started
            #expect(waited < .seconds(30), "the connection was given up, not the request's 60 s deadline: \(waited)")
            #expect(client.connectionsReplaced >= 1)
            let next = try await client.send(body: HMSClientTests.body(3))
            #expect(next.code == .success)
            #expect(server.stats.connectionsSilenced == 1)
            #expect(server.stats.connectionsAccepted >= 2)
        }
    }
}

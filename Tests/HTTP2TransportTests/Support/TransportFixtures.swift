import APNsMock
import Foundation
import HTTP2Transport
import Logging
import TestSupport

/// The transport against a stand-in on another HTTP/2 stack: apns-mock, with the development
/// client certificate (certs/dev, made by scripts/gen-dev-certs.py) as the credential, so that
/// no provider module is needed to build requests or sign tokens.
enum TransportFixtures {
    static func cert(_ name: String) -> String { Repository.devCert(name) }

    /// The development certificate's topic: the mock accepts pushes to it.
    static let topic = "com.example.pushrelay"
    static let deviceToken = String(repeating: "a1", count: 32)

    /// A validating mock on an ephemeral port that accepts the development client certificate.
    static func mockConfiguration() -> APNsMockConfiguration {
        var c = APNsMockConfiguration(tlsCertificatePath: cert("server.pem"), tlsKeyPath: cert("server.key"))
        c.port = 0
        c.recordInMemory = true
        c.clientCAPath = cert("ca.pem")
        c.requireClientCertificate = true
        return c
    }

    static func identity() throws -> TLSClientIdentity {
        try TLSClientIdentity.p12(path: cert("client.p12"), password: "secret")
    }

    static func configuration(port: Int, connections: Int = 1) throws -> TransportConfiguration {
        TransportConfiguration(
            endpoint: TransportEndpoint(host: "127.0.0.1", port: port), clientIdentity: try identity(),
            extraCAFile: cert("ca.pem"), trustSystemRoots: false, connections: connections,
            reconnectBackoff: (.milliseconds(20), .milliseconds(200)), requestIDHeader: "apns-id", eventHandler: nil,
            logger: Logger(label: "http2-transport-tests"), peerName: "mock")
    }

    /// A push as APNs (and the mock) takes it: `POST /3/device/<token>` with the apns-* headers.
    static func push(id: UUID = UUID()) -> HTTP2Request {
        HTTP2Request(path: "/3/device/" + deviceToken, body: Array(#"{"aps":{"alert":"hello"}}"#.utf8)) { h in
            h.add("apns-topic", topic)
            h.add("apns-push-type", "alert")
            h.add("apns-priority", "10")
            h.add("apns-id", id.uuidString.lowercased(), sensitive: true)
        }
    }
}

extension HTTP2Client {
    /// Sends `request` with a deadline far above any expected wait (a machine three times
    /// slower included), and returns the status or throws what the transport reported.
    func send(_ request: HTTP2Request = TransportFixtures.push(), within limit: Duration = .seconds(60)) async throws -> Int {
        switch await perform(request, deadline: .now + limit) {
        case .response(let answer, _, _): return answer.status
        case .failure(let error): throw error
        case .cancelled: throw CancellationError()
        }
    }
}

/// Runs `body` with a started mock and shuts it down afterwards.
func withMock<T>(
    _ configuration: APNsMockConfiguration = TransportFixtures.mockConfiguration(),
    _ body: (APNsMockServer) async throws -> T
) async throws -> T {
    let mock = APNsMockServer(configuration: configuration)
    try await mock.start()
    do {
        let result = try await body(mock)
        try await mock.shutdown()
        return result
    } catch {
        try? await mock.shutdown()
        throw error
    }
}

extension HTTP2Client {
    /// `count` pushes at once; their statuses.
    func sendConcurrently(count: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { try await self.send() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}

import ConnectionLiveness
import APNs
import APNsMock
import Foundation
import HTTP2Transport
import TestSupport

/// Paths of the development key material (certs/dev, made by scripts/gen-dev-certs.py).
enum Fixtures {
    static let repoRoot = Repository.root.path

    static func cert(_ name: String) -> String { repoRoot + "/certs/dev/" + name }

    static let keyID = "DEVKEY1234"
    static let teamID = "DEVTEAM123"
    static let topic = "com.example.pushrelay"
    static let deviceToken = String(repeating: "a1", count: 32)

    static func payload(_ text: String = "hello") -> [UInt8] {
        Array(#"{"aps":{"alert":"\#(text)","sound":"default"}}"#.utf8)
    }

    static func tokenCache(now: @escaping @Sendable () -> Date = Date.init) throws -> ProviderTokenCache {
        try ProviderTokenCache(
            key: APNsSigningKey(p8File: cert("AuthKey_DEVKEY1234.p8")), keyID: keyID,
            teamID: teamID, now: now)
    }

    /// A validating mock on an ephemeral port that trusts the dev JWT key (and, with
    /// `clientCertificates`, client certificates signed by the dev CA).
    static func mockConfiguration(clientCertificates: Bool = false, mode: APNsMockConfiguration.Mode = .validating)
        -> APNsMockConfiguration
    {
        var c = APNsMockConfiguration(tlsCertificatePath: cert("server.pem"), tlsKeyPath: cert("server.key"))
        c.port = 0
        c.mode = mode
        c.jwtKeys = [keyID: cert("AuthKey_DEVKEY1234.pub.pem")]
        c.teamID = teamID
        c.recordInMemory = true
        if clientCertificates {
            c.clientCAPath = cert("ca.pem")
            c.requireClientCertificate = true
        }
        return c
    }

    /// A mock in the test process can fall silent for seconds on a loaded machine (every suite
    /// runs at once): only the liveness tests (`ClientLivenessTests`) ask for the relay's quick
    /// defaults; the others must not lose a connection to a pause.
    static let patientLiveness = LivenessSettings(stallPingInterval: .seconds(60), pingTimeout: .seconds(60))

    static func clientConfiguration(
        port: Int, authentication: APNsAuthentication, connections: Int = 1,
        // Generous: hundreds of concurrent sends on a loaded machine three times
        // slower must not hit it; tests of deadlines pass their own.
        requestTimeout: Duration = .seconds(60),
        events: EventLog? = nil
    ) -> APNsClientConfiguration {
        var handler: (@Sendable (TransportEvent) -> Void)?
        if let events { handler = { events.append($0) } }
        return APNsClientConfiguration(
            endpoint: TransportEndpoint(host: "127.0.0.1", port: port), authentication: authentication,
            extraCAFile: cert("ca.pem"), trustSystemRoots: false, connections: connections,
            requestTimeout: requestTimeout, liveness: patientLiveness, reconnectBackoff: (.milliseconds(20), .milliseconds(200)),
            eventHandler: handler)
    }
}

/// Runs `body` with a started mock and shuts it down afterwards.
func withMock<T>(
    _ configuration: APNsMockConfiguration = Fixtures.mockConfiguration(),
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

/// Collects client events for assertions.
final class EventLog: Sendable {
    private let events = Mutex<[TransportEvent]>([])
    func append(_ e: TransportEvent) { events.withLock { $0.append(e) } }
    var all: [TransportEvent] { events.withLock { $0 } }
}

import Synchronization

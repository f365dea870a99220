import APNs
import APNsMock
import Foundation
import Testing

@Suite("APNs client, certificate auth, against APNsMock", .timeLimit(.minutes(5)))
struct ClientCertificateAuthTests {
    static let identities: [(String, @Sendable () throws -> APNsClientIdentity)] = [
        ("p12 with password", { try APNsClientIdentity.p12(path: Fixtures.cert("client.p12"), password: "secret") }),
        ("p12 without password", { try APNsClientIdentity.p12(path: Fixtures.cert("client-nopass.p12"), password: nil) }),
        (
            "PEM certificate and key",
            {
                try APNsClientIdentity.pem(certificatePath: Fixtures.cert("client.pem"), keyPath: Fixtures.cert("client.key"))
            }
        ),
    ]

    @Test(arguments: 0..<3)
    func deliversWithClientCertificateAndNoAuthorizationHeader(_ index: Int) async throws {
        let (name, load) = Self.identities[index]
        try await withMock(Fixtures.mockConfiguration(clientCertificates: true)) { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .certificate(try load())))
            let response = try await client.send(request())
            await client.shutdown()
            #expect(response.status == 200, "\(name)")
            let recorded = try #require(mock.notifications.first)
            #expect(recorded.headers["authorization"] == nil, "\(name)")
        }
    }

    @Test func connectionWithoutClientCertificateIsRejected() async throws {
        try await withMock(Fixtures.mockConfiguration(clientCertificates: true)) { mock in
            var config = Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache()))
            config.requestTimeout = .seconds(3)
            let client = try APNsClient(configuration: config)
            await #expect(throws: APNsError.self) { try await client.send(request()) }
            await client.shutdown()
            #expect(mock.notifications.isEmpty)
        }
    }
}

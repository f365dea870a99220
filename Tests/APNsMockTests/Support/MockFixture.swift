import APNsMock
import Foundation

/// Starts a mock on an ephemeral port with the dev certificates and key, runs `body`, shuts down.
enum MockFixture {
    static let token = String(repeating: "ab", count: 32)

    static func configuration(mode: APNsMockConfiguration.Mode = .validating) -> APNsMockConfiguration {
        APNsMockConfiguration(
            tlsCertificatePath: DevCertificates.serverPEM,
            tlsKeyPath: DevCertificates.serverKey,
            mode: mode,
            jwtKeys: [DevCertificates.keyID: DevCertificates.authKeyPublicPEM]
        )
    }

    static func withServer<Result>(
        mode: APNsMockConfiguration.Mode = .validating,
        _ configure: (inout APNsMockConfiguration) -> Void = { _ in },
        _ body: (APNsMockServer) async throws -> Result
    ) async throws -> Result {
        var configuration = Self.configuration(mode: mode)
        configure(&configuration)
        let server = APNsMockServer(configuration: configuration)
        try await server.start()
        do {
            let result = try await body(server)
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    /// A JWT fresh by the real clock.
    static var freshJWT: String { TestJWT.make(issuedAt: Date()) }
}

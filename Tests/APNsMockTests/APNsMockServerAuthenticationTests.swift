import APNsMock
import Crypto
import Foundation
import NIOHTTP2
import Testing

@Suite("APNsMockServer: provider tokens, certificates and the token-auth warm-up", .timeLimit(.minutes(5)))
struct APNsMockServerAuthenticationTests {
    /// A server on a hand-moved clock; JWTs are minted against the same clock.
    private func withClockedServer(
        _ configure: (inout APNsMockConfiguration) -> Void = { _ in },
        _ body: (APNsMockServer, TestClock) async throws -> Void
    ) async throws {
        let clock = TestClock()
        try await MockFixture.withServer({ configuration in
            configuration.now = { clock.now }
            configure(&configuration)
        }) { server in
            try await body(server, clock)
        }
    }

    @Test("tokens that are malformed, mis-signed, for an unknown key, not ES256, from another team or from the future are invalid")
    func invalidTokens() async throws {
        try await self.withClockedServer({ $0.teamID = DevCertificates.teamID }) { server, clock in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let now = clock.now
            let tokens: [(String, String)] = [
                ("garbage", "not.a.jwt"),
                ("two parts", "abc.def"),
                ("other key", TestJWT.make(issuedAt: now, key: P256.Signing.PrivateKey())),
                ("unknown kid", TestJWT.make(keyID: "OTHERKEY99", issuedAt: now)),
                ("HS256", TestJWT.make(issuedAt: now, algorithm: "HS256")),
                ("other team", TestJWT.make(teamID: "OTHERTEAM1", issuedAt: now)),
                ("short iss", TestJWT.make(teamID: "TEAM", issuedAt: now)),
                ("iat 6 minutes ahead", TestJWT.make(issuedAt: now.addingTimeInterval(360))),
            ]
            for (name, jwt) in tokens {
                let response = try await client.send(.apns(jwt: jwt))
                #expect(response.status == 403, "\(name)")
                #expect(response.reason == "InvalidProviderToken", "\(name)")
            }
            #expect(server.stats.distinctProviderTokensAccepted == 0)
            // A little skew is tolerated.
            let skewed = try await client.send(.apns(jwt: TestJWT.make(issuedAt: now.addingTimeInterval(240))))
            #expect(skewed.status == 200)
        }
    }

    @Test("a token issued more than an hour ago is ExpiredProviderToken")
    func expiredToken() async throws {
        try await self.withClockedServer { server, clock in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let old = TestJWT.make(issuedAt: clock.now.addingTimeInterval(-3601))
            let response = try await client.send(.apns(jwt: old))
            #expect(response.status == 403)
            #expect(response.reason == "ExpiredProviderToken")
        }
    }

    @Test("a token becomes expired as the clock passes one hour after its iat")
    func tokenAgesOut() async throws {
        try await self.withClockedServer { server, clock in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = TestJWT.make(issuedAt: clock.now)
            #expect(try await client.send(.apns(jwt: jwt)).status == 200)
            clock.advance(by: 3601)
            #expect(try await client.send(.apns(jwt: jwt)).reason == "ExpiredProviderToken")
        }
    }

    @Test("switching tokens within 20 minutes is TooManyProviderTokenUpdates; after 20 minutes it is allowed")
    func tokenChurn() async throws {
        try await self.withClockedServer { server, clock in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let first = TestJWT.make(issuedAt: clock.now)
            #expect(try await client.send(.apns(jwt: first)).status == 200)

            clock.advance(by: 60)
            let second = TestJWT.make(issuedAt: clock.now)
            let churned = try await client.send(.apns(jwt: second))
            #expect(churned.status == 429)
            #expect(churned.reason == "TooManyProviderTokenUpdates")
            // The first token is still the connection's token.
            #expect(try await client.send(.apns(jwt: first)).status == 200)

            // Another connection may start with the second token.
            let other = try await H2TestClient.connect(port: server.port)
            defer { Task { await other.close() } }
            #expect(try await other.send(.apns(jwt: second)).status == 200)

            clock.advance(by: 19 * 60 + 1)
            #expect(try await client.send(.apns(jwt: second)).status == 200)
            // Now the second is current, accepted just now: going back is churn again.
            #expect(try await client.send(.apns(jwt: first)).reason == "TooManyProviderTokenUpdates")
            #expect(server.stats.distinctProviderTokensAccepted == 2)
        }
    }

    @Test("once the current token was refused as expired, a new one is accepted at once")
    func replacingAnExpiredToken() async throws {
        try await self.withClockedServer { server, clock in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let aging = TestJWT.make(issuedAt: clock.now.addingTimeInterval(-50 * 60))
            #expect(try await client.send(.apns(jwt: aging)).status == 200)
            clock.advance(by: 11 * 60)
            #expect(try await client.send(.apns(jwt: aging)).reason == "ExpiredProviderToken")
            let fresh = TestJWT.make(issuedAt: clock.now)
            #expect(try await client.send(.apns(jwt: fresh)).status == 200)
        }
    }

    @Test("the expireProviderTokens fault expires every token accepted so far, not new ones")
    func expireProviderTokensFault() async throws {
        try await self.withClockedServer { server, clock in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let first = TestJWT.make(issuedAt: clock.now)
            #expect(try await client.send(.apns(jwt: first)).status == 200)
            server.addFault(.expireProviderTokens)
            #expect(try await client.send(.apns(jwt: first)).reason == "ExpiredProviderToken")
            clock.advance(by: 1)
            let second = TestJWT.make(issuedAt: clock.now)
            #expect(try await client.send(.apns(jwt: second)).status == 200)
            #expect(server.stats.distinctProviderTokensAccepted == 2)
        }
    }

    @Test("token-auth connections start at MAX_CONCURRENT_STREAMS 1 and are raised after a valid token")
    func tokenAuthWarmup() async throws {
        try await MockFixture.withServer({ $0.maxConcurrentStreams = 500 }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            try await client.maxConcurrentStreams(1)
            // An invalid token does not end the warm-up.
            #expect(try await client.send(.apns(jwt: "x.y.z")).status == 403)
            #expect(try await client.send(.apns(jwt: MockFixture.freshJWT, payload: "")).status == 400)
            try await client.maxConcurrentStreams(500)
            let settings = try await client.receivedSettings()
                .flatMap { $0 }
                .filter { $0.parameter == .maxConcurrentStreams }
                .map(\.value)
            #expect(settings == [1, 500])
        }
    }

    @Test("without the warm-up the first SETTINGS carry the full stream limit")
    func noWarmup() async throws {
        try await MockFixture.withServer({ $0.tokenAuthWarmup = false }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            try await client.maxConcurrentStreams(1000)
        }
    }

    @Test("a connection with a client certificate from clientCAPath needs no JWT and no warm-up")
    func certificateAuthentication() async throws {
        try await MockFixture.withServer({ $0.clientCAPath = DevCertificates.caPEM }) { server in
            let client = try await H2TestClient.connect(port: server.port, clientCertificate: .dev)
            defer { Task { await client.close() } }
            try await client.maxConcurrentStreams(1000)
            let response = try await client.send(.apns(jwt: nil))
            #expect(response.status == 200)
            // Authorization is ignored on certificate connections, even if it is garbage.
            #expect(try await client.send(.apns(jwt: "garbage")).status == 200)
            #expect(server.notifications.count == 2)
        }
    }

    @Test("with clientCAPath, a client certificate that does not verify (expired) fails the TLS handshake")
    func expiredCertificate() async throws {
        try await MockFixture.withServer({ $0.clientCAPath = DevCertificates.caPEM }) { server in
            do {
                let client = try await H2TestClient.connect(port: server.port, clientCertificate: .expired)
                #expect(try await client.send(.apns(jwt: MockFixture.freshJWT)).outcome == .unanswered)
            } catch {
                // The handshake failed at connect.
            }
            let stats = try await server.waitForStats(timeout: .seconds(60)) { $0.tlsHandshakesFailed == 1 }
            #expect(stats.responsesByStatus.isEmpty)
        }
    }

    /// With `clientCAPath` alone a certificate is optional: a connection without one is a token
    /// connection and is rejected with 403 MissingProviderToken unless it sends a JWT.
    @Test("with clientCAPath, a connection without a certificate falls back to token auth (403 without a JWT)")
    func noCertificateFallsBackToTokens() async throws {
        try await MockFixture.withServer({ $0.clientCAPath = DevCertificates.caPEM }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let response = try await client.send(.apns(jwt: nil))
            #expect(response.status == 403)
            #expect(response.reason == "MissingProviderToken")
            #expect(try await client.send(.apns(jwt: MockFixture.freshJWT)).status == 200)
        }
    }

    /// With `requireClientCertificate` the TLS handshake itself fails. Under TLS 1.3 the client
    /// may finish its side of the handshake before the server's alert arrives, so the failure
    /// shows either at connect or as the connection dying before any answer.
    @Test("with requireClientCertificate, a connection without a certificate fails the TLS handshake")
    func requiredCertificate() async throws {
        try await MockFixture.withServer({
            $0.clientCAPath = DevCertificates.caPEM
            $0.requireClientCertificate = true
        }) { server in
            do {
                let client = try await H2TestClient.connect(port: server.port)
                let response = try await client.send(.apns(jwt: MockFixture.freshJWT))
                #expect(response.outcome == .unanswered)
            } catch {
                // The handshake failed at connect.
            }
            let stats = try await server.waitForStats(timeout: .seconds(60)) { $0.tlsHandshakesFailed == 1 }
            #expect(stats.responsesByStatus.isEmpty)

            let withCertificate = try await H2TestClient.connect(port: server.port, clientCertificate: .dev)
            defer { Task { await withCertificate.close() } }
            #expect(try await withCertificate.send(.apns(jwt: nil)).status == 200)
        }
    }
}

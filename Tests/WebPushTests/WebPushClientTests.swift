import ConnectionLiveness
import Crypto
import Foundation
import PushSending
import Testing
import TestSupport
import WebPushMock

@testable import WebPush

/// The Web Push client against webpush-mock on loopback (swift-nio there, AsyncHTTPClient here),
/// over HTTP/2 and, with the mock offering only HTTP/1.1, over HTTP/1.1: each push answered once.
@Suite(.timeLimit(.minutes(5))) struct WebPushClientTests {
    static func withMock(http1Only: Bool = false, _ body: (WebPushMockServer, WebPushClient) async throws -> Void) async throws {
        let server = try WebPushMockServer(
            configuration: WebPushMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"), http1Only: http1Only))
        try await server.start()
        let client = try WebPushClient(
            configuration: WebPushClientConfiguration(
                vapidKey: try VAPIDKey(text: P256.Signing.PrivateKey().pemRepresentation), subject: "mailto:ops@example.org",
                navigateTemplate: "https://chat.example.com/c/{channel_url}", allowlist: try EndpointAllowlist([server.origin]),
                caFile: Repository.devCert("ca.pem"),
                // Not a liveness test: a pause of the in-process mock on a loaded machine must not cost a connection.
                liveness: LivenessSettings(stallPingInterval: .seconds(60), pingTimeout: .seconds(60))))
        try await withTeardown {
            try await body(server, client)
        } teardown: {
            await client.shutdown()
            try await server.shutdown()
        }
    }

    static func token(_ server: WebPushMockServer) throws -> (id: String, token: String) {
        let made = server.subscribe()
        let subscription = try WebPushSubscription(
            endpoint: try #require(URL(string: made.endpoint)), p256dh: try #require(Base64URL.decode(made.p256dh)),
            auth: try #require(Base64URL.decode(made.auth)))
        return (made.id, subscription.token)
    }

    static func payload(_ n: Int) -> [UInt8] {
        Array(
            #"{"aps":{"alert":"Jane: hi \#(n)"},"sendbird":{"message":"hi \#(n)","message_id":\#(n),"channel":{"channel_url":"c1"}}}"#.utf8)
    }

    /// Many pushes at once share a connection, and each is answered 201 exactly once: an answer
    /// without a body used to reach the client as an empty DATA frame, two in a row made NIO close
    /// the connection as a denial of service, and the pushes under way were sent again.
    @Test(arguments: [false, true]) func concurrentPushesAreEachAnsweredOnce(http1Only: Bool) async throws {
        try await Self.withMock(http1Only: http1Only) { server, client in
            let subscriptions = try (0..<5).map { _ in try Self.token(server) }
            let answers = try await withThrowingTaskGroup(of: WebPushAnswer.self) { group in
                for n in 0..<60 {
                    group.addTask {
                        try await client.send(
                            token: subscriptions[n % 5].token, payload: Self.payload(n), urgent: true, ttlSeconds: 60, timeout: .seconds(60)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 60)
            for answer in answers {
                guard case .answered(let status, let location, _, _) = answer else {
                    Issue.record("not answered: \(answer)")
                    continue
                }
                #expect(status == 201)
                #expect(location?.hasPrefix(server.origin) == true)
            }
            let messages = try await server.waitForMessages(count: 60, timeout: .seconds(60))
            #expect(messages.count == 60, "a push recorded twice was sent twice")
            #expect(Set(messages.map(\.httpVersion)) == [http1Only ? "http/1.1" : "h2"])
            #expect(Set(messages.map(\.urgency)) == ["high"])
            #expect(client.connectionsReplaced == 0)
        }
    }

    /// A subscription whose `expirationTime` has passed is not posted to; it is dead for good.
    @Test func anExpiredSubscriptionIsNotSentTo() async throws {
        try await Self.withMock { server, client in
            let made = server.subscribe()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let subscription = try WebPushSubscription(
                endpoint: try #require(URL(string: made.endpoint)), p256dh: try #require(Base64URL.decode(made.p256dh)),
                auth: try #require(Base64URL.decode(made.auth)), expiresAtMs: now - 1)
            let answer = try await client.send(
                token: subscription.token, payload: Self.payload(1), urgent: true, ttlSeconds: 60, timeout: .seconds(60))
            #expect(answer == .expired)
            #expect(answer.result(startedAtMs: now, latency: .zero).outcome == .tokenDead(.always))
            #expect(server.stats.messagesAccepted == 0 && server.messages.isEmpty)
        }
    }

    /// A subscription the push service dropped answers 410: the token is dead for registrations
    /// made before the send.
    @Test func aGoneSubscriptionIsDead() async throws {
        try await Self.withMock { server, client in
            let subscription = try Self.token(server)
            server.arm(WebPushMockFaults(gone: [subscription.id]))
            let answer = try await client.send(
                token: subscription.token, payload: Self.payload(1), urgent: false, ttlSeconds: 60, timeout: .seconds(60))
            #expect(answer.result(startedAtMs: 7, latency: .zero).outcome == .tokenDead(.registeredBefore(7)))
            #expect(server.messages.isEmpty)
        }
    }
}

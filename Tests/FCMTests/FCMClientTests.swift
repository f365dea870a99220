import ConnectionLiveness
import FCMMock
import Foundation
import HTTP2Transport
import Synchronization
import TestSupport
import Testing
@testable import FCM

/// `FCMClient` over the relay's own HTTP/2 transport against fcm-mock (swift-nio-http2): the
/// token exchange, access tokens shared, refreshed before expiry and replaced on a 401, and
/// every kind of FCM answer turned into its outcome.
@Suite(.timeLimit(.minutes(5))) struct FCMClientTests {
    static let serviceAccount = Repository.devCert("fcm-service-account.json")
    static let token = "device-1:APA91b" + String(repeating: "x", count: 140)

    /// A started mock and a client pointed at it; the client's clock is real time plus `skew`.
    struct Harness {
        let mock: FCMMockServer
        let client: FCMClient
        let skew = Skew()

        init(tokenLifetime: Int = 3599, projectID: String? = nil, serviceAccount: String = FCMClientTests.serviceAccount) async throws {
            mock = try FCMMockServer(
                configuration: FCMMockConfiguration(
                    tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
                    serviceAccountPath: FCMClientTests.serviceAccount, accessTokenLifetimeSeconds: tokenLifetime))
            try await mock.start()
            let skew = skew
            let account = try FCMServiceAccount(file: serviceAccount)
            client = try FCMClient(
                configuration: FCMClientConfiguration(
                    serviceAccount: account, serviceAccountSource: serviceAccount, projectID: projectID,
                    endpoint: TransportEndpoint(host: "127.0.0.1", port: mock.port),
                    tokenURL: URL(string: "https://127.0.0.1:\(mock.port)/token")!, extraCAFile: Repository.devCert("ca.pem"),
                    trustSystemRoots: false, connections: 1, requestTimeout: .seconds(30),
                    // Not the liveness tests': a pause of the in-process mock on a loaded machine must not cost a connection.
                    liveness: LivenessSettings(stallPingInterval: .seconds(60), pingTimeout: .seconds(60))),
                clock: { Int64(Date().timeIntervalSince1970) + skew.seconds.withLock { $0 } })
        }

        func stop() async throws {
            await client.shutdown()
            try await mock.shutdown()
        }
    }

    final class Skew: Sendable {
        let seconds = Mutex<Int64>(0)
    }

    static func body(token: String = token, message: String = "hello", validateOnly: Bool = false) -> [UInt8] {
        // The data map as the planner stores it: compact JSON, sorted keys.
        let data = #"{"message":"\#(message)","sendbird":"{\"message_id\":1}"}"#
        return FCMMessage.body(data: Array(data.utf8), token: token, ttlSeconds: 60, validateOnly: validateOnly)
    }

    @Test func concurrentSendsShareOneAccessTokenAndAreDelivered() async throws {
        let h = try await Harness()
        let responses = try await withThrowingTaskGroup(of: FCMResponse.self) { group in
            for i in 0..<20 { group.addTask { try await h.client.send(body: Self.body(message: "m\(i)")) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.allSatisfy { $0.status == 200 })
        #expect(responses.allSatisfy { $0.messageName?.hasPrefix("projects/pushrelay-dev/messages/") == true })
        let messages = try await h.mock.waitForMessages(count: 20, timeout: .seconds(60))
        #expect(Set(messages.map { $0.data["message"] ?? "" }) == Set((0..<20).map { "m\($0)" }))
        #expect(messages.allSatisfy { $0.android == RecordedMessage.Android(priority: "high", ttl: "60s") })
        #expect(h.mock.stats.tokensIssued == 1)
        try await h.stop()
    }

    @Test func anAccessTokenRevokedEarlyIsReplacedOnceForAllSends() async throws {
        let h = try await Harness()
        _ = try await h.client.send(body: Self.body())
        h.mock.expireAccessTokens()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await h.client.send(body: Self.body()).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(h.mock.stats.tokensIssued == 2)
        #expect(h.mock.stats.sendsUnauthenticated >= 1)
        try await h.stop()
    }

    @Test func anAccessTokenIsRenewedBeforeItExpires() async throws {
        // Tokens live 420 s; the client renews 5 minutes early, so 121 s on it needs a new one
        // (and a busy machine has two minutes for the first sends, not ten seconds).
        let h = try await Harness(tokenLifetime: 420)
        _ = try await h.client.send(body: Self.body())
        _ = try await h.client.send(body: Self.body())
        #expect(h.mock.stats.tokensIssued == 1)
        h.skew.seconds.withLock { $0 = 121 }
        #expect(try await h.client.send(body: Self.body()).status == 200)
        #expect(h.mock.stats.tokensIssued == 2)
        #expect(h.mock.stats.sendsUnauthenticated == 0, "renewed before FCM refused it")
        try await h.stop()
    }

    @Test func everyFCMAnswerBecomesItsOutcome() async throws {
        let h = try await Harness()
        let dead = "dead-device:APA91b" + String(repeating: "d", count: 140)
        h.mock.markUnregistered([dead])
        #expect(try await h.client.send(body: Self.body(token: dead)).outcome == .tokenInvalid(.unregistered))

        h.mock.arm(FCMMockFaults(quotaExceeded: .init(count: 1, retryAfter: 7)))
        #expect(try await h.client.send(body: Self.body()).outcome == .retryable(.quotaExceeded, after: .seconds(7)))
        h.mock.arm(FCMMockFaults(quotaExceeded: .init(count: 1)))
        #expect(try await h.client.send(body: Self.body()).outcome == .retryable(.quotaExceeded, after: .seconds(60)))
        h.mock.arm(FCMMockFaults(unavailable: 1))
        #expect(try await h.client.send(body: Self.body()).outcome == .retryable(.unavailable, after: .zero))
        h.mock.arm(FCMMockFaults(internal: 1))
        #expect(try await h.client.send(body: Self.body()).outcome == .retryable(.internal, after: .zero))
        h.mock.arm(FCMMockFaults(senderIDMismatch: 1))
        #expect(try await h.client.send(body: Self.body()).outcome == .credentialsRejected(.senderIDMismatch))
        h.mock.arm(FCMMockFaults(thirdPartyAuthError: 1))
        #expect(try await h.client.send(body: Self.body()).outcome == .credentialsRejected(.thirdPartyAuthError))

        // Over FCM's 4,096 data bytes: refused for good.
        let tooLarge = String(repeating: "é", count: 2100)
        #expect(try await h.client.send(body: Self.body(message: tooLarge)).outcome == .permanentFailure(.invalidArgument))
        #expect(try await h.client.send(body: Self.body()).outcome == .delivered(messageName: h.mock.messages.last?.name ?? "?"))
        #expect(h.mock.messages.count == 1)
        try await h.stop()
    }

    @Test func aProjectTheAccountCannotSendToIsACredentialError() async throws {
        let h = try await Harness(projectID: "someone-elses-project")
        #expect(try await h.client.send(body: Self.body()).outcome == .credentialsRejected(.senderIDMismatch))
        try await h.stop()
    }

    @Test func aValidateOnlySendIsAnsweredAndNotDelivered() async throws {
        let h = try await Harness()
        let response = try await h.client.send(body: Self.body(validateOnly: true))
        #expect(response.status == 200)
        #expect(h.mock.messages.isEmpty)
        #expect(h.mock.stats.messagesValidated == 1)
        try await h.stop()
    }

    @Test func aDroppedConnectionIsARetryableTransportErrorAndTheNextSendReconnects() async throws {
        let h = try await Harness()
        _ = try await h.client.send(body: Self.body())
        h.mock.arm(FCMMockFaults(dropConnections: 1))
        do {
            _ = try await h.client.send(body: Self.body())
            Issue.record("a send on a dropped connection answered")
        } catch let error as FCMError {
            #expect(error.isRetryable, "\(error)")
        }
        #expect(try await h.client.send(body: Self.body()).status == 200)
        #expect(h.mock.stats.connectionsAccepted >= 3, "the token endpoint's, the dropped one, a new one")
        try await h.stop()
    }

    @Test func aKeyTheTokenEndpointDoesNotKnowIsRefusedWithoutShowingTheKey() async throws {
        let directory = try TemporaryDirectory()
        let keyFile = directory.path("other.pem")
        try FCMAccessTokenTests.run(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile])
        var fields =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.serviceAccount))) as! [String: Any]
        let otherKey = try String(contentsOfFile: keyFile, encoding: .utf8)
        fields["private_key"] = otherKey
        let file = try directory.write("other.json", String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self))
        let h = try await Harness(serviceAccount: file)
        do {
            _ = try await h.client.send(body: Self.body())
            Issue.record("a send with an unknown key answered")
        } catch let error as FCMError {
            guard case .accessTokenRefused(400, let reason) = error else {
                Issue.record("\(error)")
                try await h.stop()
                return
            }
            #expect(reason.contains("invalid_grant"))
            #expect(error.isCredentialError && !error.isRetryable)
            let keyBody = otherKey.split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
            #expect(!"\(error)".contains(keyBody))
        }
        #expect(h.mock.messages.isEmpty)
        try await h.stop()
    }
}

/// A connection to FCM that goes silent (no answer, no PING ACK) is replaced: the send on it fails
/// as retryable well before its deadline and the next one goes out on a new connection.
@Suite(.timeLimit(.minutes(2))) struct FCMClientLivenessTests {
    @Test func aSilentConnectionIsReplacedAndTheNextSendGoesThrough() async throws {
        let mock = try FCMMockServer(
            configuration: FCMMockConfiguration(
                tlsCertificatePath: Repository.devCert("server.pem"), tlsKeyPath: Repository.devCert("server.key"),
                serviceAccountPath: FCMClientTests.serviceAccount))
        try await mock.start()
        let client = try FCMClient(
            configuration: FCMClientConfiguration(
                serviceAccount: try FCMServiceAccount(file: FCMClientTests.serviceAccount),
                serviceAccountSource: FCMClientTests.serviceAccount, endpoint: TransportEndpoint(host: "127.0.0.1", port: mock.port),
                tokenURL: URL(string: "https://127.0.0.1:\(mock.port)/token")!, extraCAFile: Repository.devCert("ca.pem"),
                trustSystemRoots: false, connections: 1, requestTimeout: .seconds(60),
                liveness: LivenessSettings(stallPingInterval: .milliseconds(300), pingTimeout: .seconds(2))))
        #expect(try await client.send(body: FCMClientTests.body()).status == 200)
        mock.arm(FCMMockFaults(silentConnections: 1))
        let started = ContinuousClock.now
        do {
            _ = try await client.send(body: FCMClientTests.body())
            Issue.record("a send on a silent connection was answered")
        } catch let error as FCMError {
            #expect(error.isRetryable, "\(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(30), "the connection was given up, not the 60 s deadline")
        #expect(try await client.send(body: FCMClientTests.body()).status == 200)
        #expect(mock.stats.connectionsSilenced == 1)
        await client.shutdown()
        try await mock.shutdown()
    }
}

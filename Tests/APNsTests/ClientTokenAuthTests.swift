import APNsMock
import Foundation
import TestSupport
import Testing

@testable import APNs
@testable import HTTP2Transport

@Suite("APNs client, token auth, against APNsMock", .timeLimit(.minutes(5)))
struct ClientTokenAuthTests {
    @Test func deliversWithExactHeadersAndPayload() async throws {
        try await withMock { mock in
            let cache = try Fixtures.tokenCache()
            let client = try APNsClient(configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(cache)))
            let id = APNsID.random()
            let request = APNsRequest(
                deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: Fixtures.payload("hi ✓"),
                pushType: .alert, priority: .low, expiration: .at(Date(timeIntervalSince1970: 2_000_000_000)),
                collapseID: "chat-42", apnsID: id)
            let response = try await client.send(request)
            await client.shutdown()
            #expect(response.status == 200)
            #expect(response.apnsID == id)
            #expect(response.outcome == .delivered)
            let recorded = try #require(mock.notifications.first)
            #expect(recorded.deviceToken == Fixtures.deviceToken)
            #expect(recorded.headers["apns-topic"] == Fixtures.topic)
            #expect(recorded.headers["apns-push-type"] == "alert")
            #expect(recorded.headers["apns-priority"] == "5")
            #expect(recorded.headers["apns-expiration"] == "2000000000")
            #expect(recorded.headers["apns-collapse-id"] == "chat-42")
            #expect(recorded.headers["apns-id"] == id.uuidString.lowercased())
            #expect(recorded.headers["authorization"] == "bearer " + (try cache.current().jwt))
            #expect(Array(recorded.payload) == Fixtures.payload("hi ✓"))
        }
    }

    @Test func fiveHundredConcurrentSendsShareOneConnection() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), connections: 1))
            let statuses = try await sendConcurrently(client, count: 600)
            await client.shutdown()
            #expect(statuses.filter { $0 == 200 }.count == 600)
            #expect(mock.stats.connectionsAccepted == 1)
            #expect(mock.stats.maxStreamsConcurrentlyOpenSeen > 1, "requests were multiplexed")
            #expect(Set(mock.notifications.map { $0.headers["apns-id"]! }).count == 600)
        }
    }

    @Test func burstOfExpiredProviderTokenMintsExactlyOneNewToken() async throws {
        try await withMock { mock in
            let cache = try Fixtures.tokenCache()
            let client = try APNsClient(configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(cache)))
            #expect(try await client.send(request()).status == 200)
            #expect(cache.mintedCount == 1)
            mock.addFault(.expireProviderTokens)
            let statuses = try await sendConcurrently(client, count: 200)
            await client.shutdown()
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(cache.mintedCount == 2, "200 ExpiredProviderToken answers must mint one token, not many")
            #expect(mock.stats.distinctProviderTokensAccepted == 2)
            #expect((mock.stats.responsesByStatus[403] ?? 0) >= 1)
        }
    }

    /// APNs holds each connection to the token it first accepted there (for 20 minutes, unless
    /// that token was refused as expired on it). After a renewal seen on one connection, another
    /// that never saw its token expire refuses the new one with 429 `TooManyProviderTokenUpdates`:
    /// that connection is retired and the request goes once more, on another, so no send fails
    /// and no further token is minted.
    @Test func aConnectionRefusingTheRenewedTokenIsReplaced() async throws {
        try await withMock { mock in
            let cache = try Fixtures.tokenCache()
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(cache), connections: 2))
            // Both connections up, then each carries the first token: a light load goes out on
            // the first (`ConnectionPool.fillLoad`), so the second gets a request only while the
            // first is held at that load by unanswered streams.
            #expect(try await sendConcurrently(client, count: 20).allSatisfy { $0 == 200 })
            #expect(await eventually(within: 60) { client.statistics.readyConnections == 2 })
            func sendOnTheSecond() async throws -> Int {
                mock.addFault(.neverAnswer(count: ConnectionPool.fillLoad))
                let held = (0..<ConnectionPool.fillLoad).map { _ in client.submit(request()) { _ in } }
                try await waitForStreams(client, ConnectionPool.fillLoad)
                defer { for handle in held { handle.cancel() } }
                return try await client.send(request()).status
            }
            var statuses = [try await sendOnTheSecond()]
            #expect(await eventually(within: 60) { client.statistics.streamsInFlight == 0 })
            mock.addFault(.expireProviderTokens)
            // The first connection meets the expired token and renews it; the second, which never
            // saw its token expire, is then offered the renewed one.
            statuses.append(try await client.send(request()).status)
            statuses.append(try await sendOnTheSecond())
            await client.shutdown()
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(cache.mintedCount == 2, "one new token")
            #expect((mock.stats.responsesByStatus[429] ?? 0) >= 1, "a connection refused the renewed token")
        }
    }

    /// A connection that refuses the token it started on is not retired: a new one would fare no
    /// better, and it would open a connection per refusal. APNs' answer comes back as it is.
    @Test func aConnectionRefusingItsFirstTokenIsKept() async throws {
        try await withMock { mock in
            let events = EventLog()
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), events: events))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.status(code: 429, reason: "TooManyProviderTokenUpdates", count: 3, retryAfterSeconds: nil))
            for _ in 0..<3 {
                let response = try await client.send(request())
                #expect(response.status == 429 && response.reason == .tooManyProviderTokenUpdates)
            }
            #expect(try await client.send(request()).status == 200)
            await client.shutdown()
            let connects = events.all.filter { if case .connected = $0 { true } else { false } }
            #expect(connects.count == 1, "no connection opened for the refusals")
        }
    }

    @Test func expiredTokenIsRenewedAndRetriedOnce() async throws {
        try await withMock { mock in
            // A clock two hours behind makes the first token too old for APNs.
            let skew = Mutex<TimeInterval>(-7200)
            let cache = try Fixtures.tokenCache(now: { Date().addingTimeInterval(skew.withLock { $0 }) })
            let client = try APNsClient(configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(cache)))
            let response = try await client.send(request())
            // Still skewed: the renewed token is old too, so the single retry also fails.
            #expect(response.status == 403)
            #expect(response.reason == .expiredProviderToken)
            #expect(cache.mintedCount == 2)
            skew.withLock { $0 = 0 }
            _ = try cache.invalidate(generation: cache.current().generation)
            #expect(try await client.send(request()).status == 200)
            await client.shutdown()
        }
    }

    @Test func invalidRequestsAreRefusedBeforeSending() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            let bad: [(APNsRequest, APNsRequestError)] = [
                (request(token: "xyz1"), .invalidDeviceToken(redacted: "••••")),
                (request(token: "abc"), .invalidDeviceToken(redacted: "••••")),
                (request(token: ""), .emptyDeviceToken),
                (APNsRequest(deviceToken: Fixtures.deviceToken, topic: "", payload: Fixtures.payload()), .emptyTopic),
                (
                    APNsRequest(
                        deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: Fixtures.payload(),
                        collapseID: String(repeating: "c", count: 65)), .collapseIDTooLong(bytes: 65)
                ),
                (
                    APNsRequest(deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: [UInt8](repeating: 32, count: 4097)),
                    .payloadTooLarge(bytes: 4097, limit: 4096)
                ),
                (APNsRequest(deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: []), .emptyPayload),
                (
                    APNsRequest(
                        deviceToken: Fixtures.deviceToken, topic: Fixtures.topic, payload: Fixtures.payload(),
                        pushType: .background, priority: .immediate), .backgroundWithImmediatePriority
                ),
            ]
            for (r, expected) in bad {
                await #expect(throws: APNsError.invalidRequest(expected)) { try await client.send(r) }
            }
            // VoIP may use 5120 bytes.
            var voip = APNsRequest(
                deviceToken: Fixtures.deviceToken, topic: Fixtures.topic + ".voip",
                payload: Array(#"{"aps":{},"x":""#.utf8) + [UInt8](repeating: 120, count: 5000) + Array(#""}"#.utf8),
                pushType: .voip)
            #expect(voip.payload.count <= 5120)
            #expect(try await client.send(voip).status == 200)
            voip.payload += [UInt8](repeating: 32, count: 200)
            await #expect(throws: APNsError.self) { try await client.send(voip) }
            await client.shutdown()
            #expect(mock.notifications.count == 1)
        }
    }
}

func request(token: String = Fixtures.deviceToken, id: UUID = APNsID.random()) -> APNsRequest {
    APNsRequest(deviceToken: token, topic: Fixtures.topic, payload: Fixtures.payload(), apnsID: id)
}

/// Sends `count` requests at once; returns each status (or -1 for a thrown retryable error).
func sendConcurrently(_ client: APNsClient, count: Int, token: String = Fixtures.deviceToken) async throws -> [Int] {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<count {
            group.addTask {
                do {
                    return try await client.send(request(token: token)).status
                } catch let error as APNsError where error.isRetryable {
                    return -1
                }
            }
        }
        var statuses: [Int] = []
        for try await s in group { statuses.append(s) }
        return statuses
    }
}

/// Sends `count` requests at once; returns the error of each (nil for an answer).
func sendCollectingErrors(_ client: APNsClient, count: Int) async -> [APNsError?] {
    await withTaskGroup(of: APNsError?.self) { group in
        for _ in 0..<count {
            group.addTask {
                do {
                    _ = try await client.send(request())
                    return nil
                } catch {
                    return error as? APNsError
                }
            }
        }
        return await group.reduce(into: []) { $0.append($1) }
    }
}

import Synchronization

import APNs
import APNsMock
import Foundation
import Testing

/// The failure modes every other APNs client got wrong (anchors §9): hangs, GOAWAY, stream
/// limits, dead connections.
@Suite("APNs client under APNs-side faults", .timeLimit(.minutes(5)))
struct ClientFaultTests {
    @Test func maxStreamsLoweredToOneMidRunLosesNothing() async throws {
        try await withMock { mock in
            let events = EventLog()
            // A generous deadline: a request may wait its turn behind 1,000 others on a loaded
            // machine, and these tests are about nothing being lost, not about deadlines.
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), requestTimeout: .seconds(120), events: events))
            #expect(try await client.send(request()).status == 200)
            async let statuses = sendConcurrently(client, count: 1000)
            _ = try await mock.waitForNotifications(count: 200, timeout: .seconds(60))
            mock.addFault(.maxConcurrentStreams(1))
            let results = try await statuses
            #expect(results.count == 1000)
            #expect(results.allSatisfy { $0 == 200 }, "every request answered 200")
            // The mock sent SETTINGS before answering this one, so the client has seen it now.
            #expect(try await client.send(request()).status == 200)
            #expect(Set(mock.notifications.map { $0.headers["apns-id"]! }).count == 1002)
            #expect(events.all.contains(.maxConcurrentStreamsChanged(connection: 1, value: 1)))
            #expect(client.statistics.maxConcurrentStreams == [1])
            await client.shutdown()
        }
    }

    @Test func goAwayMidRunResendsOnlyUnprocessedStreams() async throws {
        try await withMock { mock in
            let events = EventLog()
            // A generous deadline: a request may wait its turn behind 1,000 others on a loaded
            // machine, and these tests are about nothing being lost, not about deadlines.
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), requestTimeout: .seconds(120), events: events))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.goAway(afterStreams: 300, reason: "Shutdown"))
            let results = try await sendConcurrently(client, count: 1000)
            await client.shutdown()
            #expect(results.allSatisfy { $0 == 200 }, "nothing lost: \(results.filter { $0 != 200 }.count) failed")
            let ids = mock.notifications.map { $0.headers["apns-id"]! }
            #expect(ids.count == 1001, "nothing below last-stream-id sent twice")
            #expect(Set(ids).count == 1001)
            #expect(mock.stats.connectionsAccepted >= 2)
            let goAway = events.all.first { if case .goAway = $0 { true } else { false } }
            guard case .goAway(_, let lastStreamID, _, let reason)? = goAway else {
                Issue.record("no GOAWAY event")
                return
            }
            #expect(reason == "Shutdown")
            #expect(lastStreamID > 0)
        }
    }

    @Test func refusedStreamsAreResentTransparently() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.refuseStreams(count: 20))
            let results = try await sendConcurrently(client, count: 100)
            await client.shutdown()
            #expect(results.allSatisfy { $0 == 200 })
            #expect(mock.notifications.count == 101)
        }
    }

    @Test func neverAnsweringStreamFailsAtItsDeadline() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.neverAnswer(count: 1))
            let start = ContinuousClock.now
            await #expect(throws: APNsError.transport(.timedOut)) {
                try await client.send(request(), timeout: .milliseconds(500))
            }
            let waited = ContinuousClock.now - start
            // Without the deadline it would never end; the upper bound only has to be finite and generous.
            #expect(waited >= .milliseconds(500) && waited < .seconds(120))
            #expect(APNsError.transport(.timedOut).isRetryable)
            // The connection itself is fine and keeps serving.
            #expect(try await client.send(request()).status == 200)
            #expect(mock.stats.connectionsAccepted == 1)
            await client.shutdown()
        }
    }

    /// A server may allow no streams for a while (SETTINGS_MAX_CONCURRENT_STREAMS = 0). A request
    /// queued then still fails at its own deadline: the idle connection is woken for it and keeps
    /// checking, rather than sleeping until its next PING.
    @Test func requestQueuedWhileNoStreamIsAllowedFailsAtItsDeadline() async throws {
        try await withMock { mock in
            let events = EventLog()
            // The warm-up keeps the generous default deadline (a loaded machine may take seconds
            // to connect); only the request under test gets 1 s.
            var configuration = Fixtures.clientConfiguration(
                port: mock.port, authentication: .token(try Fixtures.tokenCache()), events: events)
            configuration.liveness.idlePingInterval = .seconds(3600)
            let client = try APNsClient(configuration: configuration)
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.maxConcurrentStreams(0))
            let giveUp = ContinuousClock.now + .seconds(60)
            while !events.all.contains(.maxConcurrentStreamsChanged(connection: 1, value: 0)), ContinuousClock.now < giveUp {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(client.statistics.maxConcurrentStreams == [0])
            let outcome = await sendBounded(client, request(), timeout: .seconds(1))
            guard case .failure(let error) = outcome else {
                Issue.record("sent although no stream was allowed: \(outcome)")
                return
            }
            #expect(error as? APNsError == .transport(.timedOut), "\(error)")
            await client.shutdown()
        }
    }

    @Test func droppedConnectionFailsInFlightAsRetryableAndPoolRecovers() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            #expect(try await client.send(request()).status == 200)
            mock.addFault(.dropConnection(afterStreams: 50))
            let errors = await sendCollectingErrors(client, count: 200).compactMap { $0 }
            #expect(!errors.isEmpty, "requests in flight at the drop fail")
            #expect(errors.allSatisfy { $0.isRetryable })
            #expect(errors.allSatisfy { if case .transport(.connectionLost) = $0 { true } else { false } })
            // The pool reconnects by itself.
            #expect(try await client.send(request()).status == 200)
            #expect(mock.stats.connectionsAccepted >= 2)
            await client.shutdown()
        }
    }

    @Test func statusFaultsAreClassified() async throws {
        try await withMock { mock in
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache())))
            mock.addFault(.status(code: 429, reason: "TooManyRequests", count: 1, retryAfterSeconds: 7))
            let r429 = try await client.send(request())
            #expect(r429.status == 429)
            #expect(r429.outcome == .retryable(.tooManyRequests, after: .seconds(7)))
            mock.addFault(.status(code: 503, reason: "ServiceUnavailable", count: 1, retryAfterSeconds: nil))
            let r503 = try await client.send(request())
            #expect(r503.outcome == .retryable(.serviceUnavailable, after: .seconds(1)))
            mock.addFault(.status(code: 500, reason: "InternalServerError", count: 1, retryAfterSeconds: nil))
            #expect(try await client.send(request()).outcome == .retryable(.internalServerError, after: .seconds(1)))

            let gone = String(repeating: "0f", count: 32)
            let at = Date(timeIntervalSince1970: 1_700_000_000.123)
            mock.markUnregistered(token: gone, at: at)
            let r410 = try await client.send(request(token: gone))
            #expect(r410.status == 410)
            #expect(r410.reason == .unregistered)
            #expect(abs((r410.timestamp?.timeIntervalSince1970 ?? 0) - at.timeIntervalSince1970) < 0.002)
            #expect(r410.outcome == .tokenInvalid(.unregistered, unregisteredAt: r410.timestamp))

            let bad = String(repeating: "0e", count: 32)
            mock.markBadToken(bad)
            let r400 = try await client.send(request(token: bad))
            #expect(r400.outcome == .tokenInvalid(.badDeviceToken, unregisteredAt: nil))
            await client.shutdown()
        }
    }

    @Test func tlsHandshakeFailureIsRetriedWithBackoff() async throws {
        try await withMock { mock in
            mock.addFault(.tlsHandshakeFailure(count: 1))
            let events = EventLog()
            let client = try APNsClient(
                configuration: Fixtures.clientConfiguration(
                    port: mock.port, authentication: .token(try Fixtures.tokenCache()), events: events))
            #expect(try await client.send(request()).status == 200)
            #expect(events.all.contains { if case .connectFailed = $0 { true } else { false } })
            await client.shutdown()
        }
    }

    @Test func untrustedServerCertificateIsAClearConnectError() async throws {
        try await withMock { mock in
            var config = Fixtures.clientConfiguration(port: mock.port, authentication: .token(try Fixtures.tokenCache()))
            config.extraCAFile = nil
            let client = try APNsClient(configuration: config)
            do {
                _ = try await client.send(request())
                Issue.record("expected a TLS failure")
            } catch let APNsError.transport(.connectFailed(message)) {
                #expect(message.contains("not trusted"), "\(message)")
            }
            await client.shutdown()
            #expect(mock.notifications.isEmpty)
        }
    }
}

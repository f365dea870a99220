import APNsMock
import Foundation
import NIOHTTP2
import Testing

@Suite("APNsMockServer: scripted faults", .timeLimit(.minutes(5)))
struct APNsMockServerFaultTests {
    static func sinkRequests(_ count: Int) -> [TestRequest] {
        (0..<count).map { _ in TestRequest(path: "/3/device/\(MockFixture.token)", body: Data(#"{"aps":{}}"#.utf8)) }
    }

    @Test("goAway: GOAWAY with lastStreamID and debug data, streams up to it answered, higher ones not, then close")
    func goAway() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.goAway(afterStreams: 3, reason: "Shutdown"))
            let client = try await H2TestClient.connect(port: server.port)
            let responses = try await client.sendAll(Self.sinkRequests(5))
            #expect(responses.map(\.streamID) == [1, 3, 5, 7, 9])
            #expect(responses.map(\.status) == [200, 200, 200, nil, nil])
            #expect(responses.suffix(2).allSatisfy { $0.outcome == .unanswered })

            let goAway = try await client.goAway()
            #expect(goAway.lastStreamID == 5)
            #expect(goAway.errorCode == .noError)
            #expect(goAway.debugData == #"{"reason":"Shutdown"}"#)
            try await client.closed()
            #expect(server.stats.goAwaysSent == 1)
            #expect(server.activeFaults.isEmpty)

            // It fired once: a new connection is served normally.
            let next = try await H2TestClient.connect(port: server.port)
            defer { Task { await next.close() } }
            #expect(try await next.sendAll(Self.sinkRequests(4)).allSatisfy { $0.status == 200 })
        }
    }

    @Test("goAway(afterStreams: 0) leaves the next stream itself unanswered")
    func goAwayBeforeNextStream() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            let client = try await H2TestClient.connect(port: server.port)
            #expect(try await client.send(Self.sinkRequests(1)[0]).status == 200)
            server.addFault(.goAway(afterStreams: 0, reason: "IdleTimeout"))
            let response = try await client.send(Self.sinkRequests(1)[0])
            #expect(response.outcome == .unanswered)
            let goAway = try await client.goAway()
            #expect(goAway.lastStreamID == 1)
            #expect(goAway.debugData == #"{"reason":"IdleTimeout"}"#)
            try await client.closed()
        }
    }

    @Test("maxConcurrentStreams: SETTINGS on open connections, used for new ones, withdrawn when cleared")
    func maxConcurrentStreams() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            try await client.maxConcurrentStreams(1000)
            server.addFault(.maxConcurrentStreams(2))
            try await client.maxConcurrentStreams(2)

            let later = try await H2TestClient.connect(port: server.port)
            defer { Task { await later.close() } }
            let initial = try await later.settings { $0.contains { $0.parameter == .maxConcurrentStreams } }
            #expect(initial.first { $0.parameter == .maxConcurrentStreams }?.value == 2)
            // The client honours the new limit: ten requests still all complete.
            #expect(try await later.sendAll(Self.sinkRequests(10)).allSatisfy { $0.status == 200 })
            #expect(server.stats.maxStreamsConcurrentlyOpenOnOneConnection <= 2)

            server.clearFaults()
            _ = try await client.settings { settings in
                settings.contains { $0.parameter == .maxConcurrentStreams && $0.value == 1000 }
            }
            try await later.maxConcurrentStreams(1000)
        }
    }

    @Test("refuseStreams: the next N streams get RST_STREAM(REFUSED_STREAM)")
    func refuseStreams() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.refuseStreams(count: 2))
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            var outcomes: [TestResponse.Outcome] = []
            for request in Self.sinkRequests(3) {
                outcomes.append(try await client.send(request).outcome)
            }
            #expect(outcomes == [.reset(.refusedStream), .reset(.refusedStream), .answered])
            let stats = server.stats
            #expect(stats.streamsRefused == 2)
            #expect(stats.requestsReceived == 3)
            #expect(stats.responsesByStatus == [200: 1])
            #expect(stats.streamsOpen == 0)
        }
    }

    @Test("neverAnswer: the stream stays open without answer while others are served")
    func neverAnswer() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.neverAnswer(count: 1))
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let held = try await client.start(Self.sinkRequests(1))[0]
            _ = try await server.waitForStats(timeout: .seconds(60)) { $0.streamsOpen == 1 }
            #expect(try await client.send(Self.sinkRequests(1)[0]).status == 200)
            #expect(server.stats.streamsOpen == 1)
            try await client.cancel(streamID: 1)
            #expect(try await held.get().outcome == .reset(.cancel))
            _ = try await server.waitForStats(timeout: .seconds(60)) { $0.streamsOpen == 0 }
        }
    }

    @Test("dropConnection: after N requests the connection is reset with that request unanswered")
    func dropConnection() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.dropConnection(afterStreams: 2))
            let client = try await H2TestClient.connect(port: server.port)
            #expect(try await client.send(Self.sinkRequests(1)[0]).status == 200)
            let dropped = try await client.send(Self.sinkRequests(1)[0])
            #expect(dropped.outcome == .unanswered)
            try await client.closed()
            let stats = try await server.waitForStats(timeout: .seconds(60)) { $0.connectionsOpen == 0 }
            #expect(stats.connectionsDropped == 1)
            #expect(stats.goAwaysSent == 0)
            #expect(stats.streamsOpen == 0)
        }
    }

    @Test("status: 429 TooManyRequests with retry-after for N requests, then normal answers")
    func statusFault() async throws {
        try await MockFixture.withServer { server in
            server.addFault(.status(code: 429, reason: "TooManyRequests", count: 2, retryAfterSeconds: 30))
            server.addFault(.status(code: 503, reason: "ServiceUnavailable", count: 1, retryAfterSeconds: nil))
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            var responses: [TestResponse] = []
            for _ in 0..<4 { responses.append(try await client.send(.apns(jwt: jwt))) }
            #expect(responses.map(\.status) == [429, 429, 503, 200])
            #expect(responses[0].reason == "TooManyRequests")
            #expect(responses[0].header("retry-after") == "30")
            #expect(responses[2].reason == "ServiceUnavailable")
            #expect(responses[2].header("retry-after") == nil)
            #expect(server.notifications.count == 1)
            #expect(server.stats.responsesByStatus == [429: 2, 503: 1, 200: 1])
        }
    }

    @Test("tlsHandshakeFailure: the next N connections are closed before the handshake")
    func tlsHandshakeFailure() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.tlsHandshakeFailure(count: 1))
            await #expect(throws: (any Error).self) { _ = try await H2TestClient.connect(port: server.port) }
            #expect(server.stats.tlsHandshakesFailed == 1)
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            #expect(try await client.send(Self.sinkRequests(1)[0]).status == 200)
            #expect(server.stats.connectionsAccepted == 2)
        }
    }

    @Test("delay: answers wait at least that long while armed")
    func delay() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.delay(milliseconds: 200))
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let clock = ContinuousClock()
            let started = clock.now
            let responses = try await client.sendAll(Self.sinkRequests(3))
            #expect(clock.now - started >= .milliseconds(200))
            #expect(responses.allSatisfy { $0.status == 200 })
            #expect(server.activeFaults == [.delay(milliseconds: 200)])
            server.clearFaults()
            #expect(server.activeFaults.isEmpty)
        }
    }

    @Test("activeFaults lists what is armed with the counts left")
    func activeFaults() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            server.addFault(.refuseStreams(count: 2))
            server.addFault(.status(code: 500, reason: "InternalServerError", count: 3, retryAfterSeconds: nil))
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            _ = try await client.send(Self.sinkRequests(1)[0])
            _ = try await client.send(Self.sinkRequests(1)[0])
            #expect(try await client.send(Self.sinkRequests(1)[0]).status == 500)
            #expect(server.activeFaults == [.status(code: 500, reason: "InternalServerError", count: 2, retryAfterSeconds: nil)])
        }
    }
}

import APNsMock
import Foundation
import NIOHTTP2
import Testing

@Suite("APNsMockServer: serving, recording, sink mode", .timeLimit(.minutes(5)))
struct APNsMockServerTests {
    @Test("a valid token-auth request is answered 200 and recorded with headers and payload")
    func validRequestIsRecorded() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let apnsID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
            let response = try await client.send(
                .apns(
                    jwt: MockFixture.freshJWT,
                    extraHeaders: [("apns-id", apnsID), ("apns-priority", "10"), ("apns-collapse-id", "c1")],
                    payload: #"{"aps":{"alert":"hello"},"custom":1}"#
                )
            )
            #expect(response.outcome == .answered)
            #expect(response.status == 200)
            #expect(response.header("apns-id") == apnsID)
            #expect(response.body.isEmpty)

            let recorded = try await server.waitForNotifications(count: 1, timeout: .seconds(60))
            let notification = try #require(recorded.first)
            #expect(notification.deviceToken == MockFixture.token)
            #expect(notification.streamID == 1)
            #expect(notification.connectionID == 1)
            #expect(notification.headers["apns-topic"] == "com.example.app")
            #expect(notification.headers["apns-push-type"] == "alert")
            #expect(notification.headers["apns-collapse-id"] == "c1")
            #expect(notification.headers["apns-id"] == apnsID)
            #expect(notification.headers[":path"] == nil)
            #expect(notification.payloadString == #"{"aps":{"alert":"hello"},"custom":1}"#)
            #expect(server.stats.responsesByStatus == [200: 1])
            #expect(server.stats.distinctProviderTokensAccepted == 1)
        }
    }

    @Test("without apns-id the mock generates a lowercase UUID and records it")
    func generatedAPNsID() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let response = try await client.send(.apns(jwt: MockFixture.freshJWT))
            let apnsID = try #require(response.header("apns-id"))
            #expect(UUID(uuidString: apnsID) != nil)
            #expect(apnsID == apnsID.lowercased())
            #expect(server.notifications.first?.headers["apns-id"] == apnsID)
        }
    }

    @Test("waitForNotifications resumes when a later request arrives, and times out when none does")
    func waitForNotifications() async throws {
        try await MockFixture.withServer { server in
            await #expect(throws: APNsMockError.self) {
                _ = try await server.waitForNotifications(count: 1, timeout: .milliseconds(50))
            }
            async let waited = server.waitForNotifications(count: 2, timeout: .seconds(60))
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            _ = try await client.send(.apns(jwt: jwt))
            _ = try await client.send(.apns(jwt: jwt))
            #expect(try await waited.count == 2)
        }
    }

    @Test("sink mode answers anything well framed with 200 and records only when asked")
    func sinkMode() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            // Not even a valid APNs request: no auth, GET, odd path.
            let responses = try await client.sendAll(
                (0..<20).map { _ in TestRequest(method: "GET", path: "/whatever", body: Data("x".utf8)) }
            )
            #expect(responses.allSatisfy { $0.status == 200 && $0.header("apns-id") != nil })
            #expect(Set(responses.compactMap { $0.header("apns-id") }).count == 20)
            #expect(server.notifications.isEmpty)
            let stats = server.stats
            #expect(stats.requestsReceived == 20)
            #expect(stats.responsesByStatus == [200: 20])
            #expect(stats.streamsOpen == 0)
        }
        try await MockFixture.withServer(mode: .sink, { $0.recordInMemory = true }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            _ = try await client.send(.apns(jwt: nil, payload: "not json"))
            let recorded = try await server.waitForNotifications(count: 1, timeout: .seconds(60))
            #expect(recorded.first?.payloadString == "not json")
            #expect(recorded.first?.deviceToken == MockFixture.token)
        }
    }

    @Test("sink mode opens connections with the full stream limit (no warm-up)")
    func sinkModeHasNoWarmup() async throws {
        try await MockFixture.withServer(mode: .sink, { $0.maxConcurrentStreams = 321 }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            try await client.maxConcurrentStreams(321)
        }
    }

    @Test("recordFile gets one JSON line per accepted notification, with the JWT redacted")
    func recordFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await MockFixture.withServer({ $0.recordFile = path }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            _ = try await client.send(.apns(jwt: jwt))
            _ = try await client.send(.apns(jwt: jwt, payload: ""))  // 400, not recorded
            _ = try await client.send(.apns(jwt: jwt, payload: #"{"aps":{"badge":2}}"#))
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let second = try JSONDecoder().decode(RecordedNotification.self, from: Data(lines[1].utf8))
        #expect(second.payloadString == #"{"aps":{"badge":2}}"#)
        #expect(second.streamID == 5)
        let authorization = try #require(second.headers["authorization"])
        #expect(authorization.hasSuffix("…"))
        #expect(authorization.count == 5)
    }

    @Test("bodies beyond the stream window are received (flow control credit) and rejected as too large")
    func largeBodyFlowControl() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let big = String(repeating: "x", count: 300_000)
            let response = try await client.send(.apns(jwt: MockFixture.freshJWT, payload: big))
            #expect(response.status == 413)
            #expect(response.reason == "PayloadTooLarge")
        }
    }

    @Test("reset forgets notifications, marks and counters")
    func reset() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            server.markBadToken(MockFixture.token)
            #expect(try await client.send(.apns(jwt: jwt)).status == 400)
            server.reset()
            #expect(server.stats.requestsReceived == 0)
            #expect(server.stats.connectionsOpen == 1)
            #expect(try await client.send(.apns(jwt: jwt)).status == 200)
            #expect(server.notifications.count == 1)
            #expect(server.stats.responsesByStatus == [200: 1])
        }
    }

    @Test("stats count connections and the streams open at once")
    func connectionAndStreamStats() async throws {
        try await MockFixture.withServer(mode: .sink) { server in
            let first = try await H2TestClient.connect(port: server.port)
            let second = try await H2TestClient.connect(port: server.port)
            _ = try await first.send(TestRequest(path: "/3/device/aa"))
            _ = try await second.send(TestRequest(path: "/3/device/aa"))
            #expect(server.stats.connectionsAccepted == 2)
            #expect(server.stats.connectionsOpen == 2)
            await first.close()
            await second.close()
            let stats = try await server.waitForStats(timeout: .seconds(60)) { $0.connectionsOpen == 0 }
            #expect(stats.connectionsAccepted == 2)
            #expect(stats.tlsHandshakesFailed == 0)
        }
    }

    @Test("a second start is refused; shutdown fails pending waits")
    func lifecycle() async throws {
        let server = APNsMockServer(configuration: MockFixture.configuration())
        try await server.start()
        await #expect(throws: APNsMockError.alreadyStarted) { try await server.start() }
        let waiting = Task { try await server.waitForNotifications(count: 1, timeout: .seconds(30)) }
        try await server.shutdown()
        await #expect(throws: (any Error).self) { _ = try await waiting.value }
    }

    @Test("a missing certificate file is reported by start()")
    func badTLSMaterial() async throws {
        var configuration = MockFixture.configuration()
        configuration.tlsCertificatePath = "/nonexistent/server.pem"
        let server = APNsMockServer(configuration: configuration)
        await #expect(throws: APNsMockError.self) { try await server.start() }
    }
}

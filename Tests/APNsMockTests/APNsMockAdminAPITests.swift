import APNsMock
import Foundation
import Testing

@Suite("APNsMockAdminAPI over HTTP/1.1", .timeLimit(.minutes(5)))
struct APNsMockAdminAPITests {
    private func withAdmin(_ body: (APNsMockServer, Int) async throws -> Void) async throws {
        try await MockFixture.withServer({ $0.adminPort = 0 }) { server in
            let adminPort = try #require(server.adminPort)
            try await body(server, adminPort)
        }
    }

    @Test("GET /stats and GET /notifications?since=N report what the server saw")
    func statsAndNotifications() async throws {
        try await self.withAdmin { server, admin in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            _ = try await client.send(.apns(jwt: jwt, payload: #"{"aps":{"alert":"one"}}"#))
            _ = try await client.send(.apns(jwt: jwt, payload: #"{"aps":{"alert":"two"}}"#))
            _ = try await client.send(.apns(jwt: nil))

            let stats = try await AdminClient.request("GET", "/stats", port: admin)
            #expect(stats.status == 200)
            let decoded = try JSONDecoder().decode(APNsMockStats.self, from: stats.body)
            #expect(decoded.responsesByStatus == [200: 2, 403: 1])
            #expect(decoded.requestsReceived == 3)
            let raw = try #require(stats.json as? [String: Any])
            #expect((raw["responsesByStatus"] as? [String: Int])?["403"] == 1)

            let all = try await AdminClient.request("GET", "/notifications", port: admin)
            let notifications = try #require(all.json as? [[String: Any]])
            #expect(notifications.count == 2)
            #expect(notifications.first?["payload"] as? String == #"{"aps":{"alert":"one"}}"#)
            #expect(notifications.first?["deviceToken"] as? String == MockFixture.token)

            let since = try await AdminClient.request("GET", "/notifications?since=1", port: admin)
            let later = try JSONDecoder().decode([RecordedNotification].self, from: since.body)
            #expect(later.map(\.payloadString) == [#"{"aps":{"alert":"two"}}"#])
        }
    }

    @Test("POST /faults arms a fault, GET /faults lists it, DELETE /faults clears it")
    func faults() async throws {
        try await self.withAdmin { server, admin in
            let armed = try await AdminClient.request(
                "POST",
                "/faults",
                body: #"{"kind":"status","code":500,"reason":"InternalServerError","count":1}"#,
                port: admin
            )
            #expect(armed.status == 204)
            #expect(server.activeFaults == [.status(code: 500, reason: "InternalServerError", count: 1, retryAfterSeconds: nil)])
            let listed = try await AdminClient.request("GET", "/faults", port: admin)
            #expect(try JSONDecoder().decode([APNsMockFault].self, from: listed.body) == server.activeFaults)

            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            #expect(try await client.send(.apns(jwt: MockFixture.freshJWT)).status == 500)

            _ = try await AdminClient.request("POST", "/faults", body: #"{"kind":"refuseStreams","count":5}"#, port: admin)
            #expect(try await AdminClient.request("DELETE", "/faults", port: admin).status == 204)
            #expect(server.activeFaults.isEmpty)

            let bad = try await AdminClient.request("POST", "/faults", body: #"{"kind":"explode"}"#, port: admin)
            #expect(bad.status == 400)
            let message = (bad.json as? [String: String])?["error"] ?? ""
            #expect(message.contains("explode"))
        }
    }

    @Test("POST /unregister and POST /bad-token mark device tokens; POST /reset forgets everything")
    func tokensAndReset() async throws {
        try await self.withAdmin { server, admin in
            let gone = String(repeating: "12", count: 32)
            let unregistered = try await AdminClient.request(
                "POST",
                "/unregister",
                body: #"{"token":"\#(gone)","timestamp_ms":1700000000000}"#,
                port: admin
            )
            #expect(unregistered.status == 204)
            let bad = String(repeating: "34", count: 32)
            #expect(try await AdminClient.request("POST", "/bad-token", body: #"{"token":"\#(bad)"}"#, port: admin).status == 204)

            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            let goneResponse = try await client.send(.apns(token: gone, jwt: jwt))
            #expect(goneResponse.status == 410)
            #expect((goneResponse.json?["timestamp"] as? NSNumber)?.int64Value == 1_700_000_000_000)
            #expect(try await client.send(.apns(token: bad, jwt: jwt)).status == 400)
            #expect(try await client.send(.apns(jwt: jwt)).status == 200)

            #expect(try await AdminClient.request("POST", "/reset", port: admin).status == 204)
            #expect(server.notifications.isEmpty)
            #expect(try await client.send(.apns(token: gone, jwt: jwt)).status == 200)
        }
    }

    @Test("unknown paths are 404, wrong methods 405, bad bodies 400")
    func errors() async throws {
        try await self.withAdmin { _, admin in
            let notFound = try await AdminClient.request("GET", "/nope", port: admin)
            let wrongMethod = try await AdminClient.request("PUT", "/stats", port: admin)
            let badBody = try await AdminClient.request("POST", "/unregister", body: "{}", port: admin)
            let badQuery = try await AdminClient.request("GET", "/notifications?since=x", port: admin)
            #expect(notFound.status == 404)
            #expect(wrongMethod.status == 405)
            #expect(badBody.status == 400)
            #expect(badQuery.status == 400)
        }
    }
}

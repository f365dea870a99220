import APNsMock
import Foundation
import Testing

@Suite("APNsMockServer: Apple's request validation", .timeLimit(.minutes(5)))
struct APNsMockServerValidationTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let request: @Sendable (String) -> TestRequest
        let status: Int
        let reason: String
        var description: String { self.name }
    }

    static let token = MockFixture.token

    static let cases: [Case] = [
        Case(
            name: "GET",
            request: { jwt in
                var request = TestRequest.apns(jwt: jwt)
                request.method = "GET"
                return request
            }, status: 405, reason: "MethodNotAllowed"),
        Case(
            name: "path not /3/device",
            request: { jwt in
                var request = TestRequest.apns(jwt: jwt)
                request.path = "/2/device/\(token)"
                return request
            }, status: 404, reason: "BadPath"),
        Case(
            name: "empty token",
            request: { jwt in
                var request = TestRequest.apns(jwt: jwt)
                request.path = "/3/device/"
                return request
            }, status: 400, reason: "MissingDeviceToken"),
        Case(name: "odd-length token", request: { jwt in .apns(token: "abc", jwt: jwt) }, status: 400, reason: "BadDeviceToken"),
        Case(name: "non-hex token", request: { jwt in .apns(token: "zz11", jwt: jwt) }, status: 400, reason: "BadDeviceToken"),
        Case(
            name: "missing topic",
            request: { jwt in
                TestRequest(
                    path: "/3/device/\(token)",
                    headers: [("authorization", "bearer \(jwt)")],
                    body: Data(#"{"aps":{}}"#.utf8)
                )
            }, status: 400, reason: "MissingTopic"),
        Case(
            name: "unknown push type",
            request: { jwt in
                TestRequest(
                    path: "/3/device/\(token)",
                    headers: [("apns-topic", "t"), ("apns-push-type", "banner"), ("authorization", "bearer \(jwt)")],
                    body: Data(#"{"aps":{}}"#.utf8)
                )
            }, status: 400, reason: "InvalidPushType"),
        Case(
            name: "priority 7", request: { jwt in .apns(jwt: jwt, extraHeaders: [("apns-priority", "7")]) },
            status: 400, reason: "BadPriority"),
        Case(
            name: "background with priority 10",
            request: { jwt in
                TestRequest(
                    path: "/3/device/\(token)",
                    headers: [
                        ("apns-topic", "t"), ("apns-push-type", "background"), ("apns-priority", "10"),
                        ("authorization", "bearer \(jwt)"),
                    ],
                    body: Data(#"{"aps":{"content-available":1}}"#.utf8)
                )
            }, status: 400, reason: "BadPriority"),
        Case(
            name: "non-integer expiration", request: { jwt in .apns(jwt: jwt, extraHeaders: [("apns-expiration", "soon")]) },
            status: 400, reason: "BadExpirationDate"),
        Case(
            name: "apns-id not a UUID", request: { jwt in .apns(jwt: jwt, extraHeaders: [("apns-id", "1234")]) },
            status: 400, reason: "BadMessageId"),
        Case(
            name: "collapse id of 65 bytes",
            request: { jwt in
                .apns(jwt: jwt, extraHeaders: [("apns-collapse-id", String(repeating: "c", count: 65))])
            }, status: 400, reason: "BadCollapseId"),
        Case(
            name: "topic twice", request: { jwt in .apns(jwt: jwt, extraHeaders: [("apns-topic", "other")]) },
            status: 400, reason: "DuplicateHeaders"),
        Case(name: "empty body", request: { jwt in .apns(jwt: jwt, payload: "") }, status: 400, reason: "PayloadEmpty"),
        Case(
            name: "4097-byte body", request: { jwt in .apns(jwt: jwt, payload: Self.payload(ofSize: 4097)) },
            status: 413, reason: "PayloadTooLarge"),
        Case(
            name: "5121-byte voip body",
            request: { jwt in
                TestRequest(
                    path: "/3/device/\(token)",
                    headers: [("apns-topic", "t.voip"), ("apns-push-type", "voip"), ("authorization", "bearer \(jwt)")],
                    body: Data(Self.payload(ofSize: 5121).utf8)
                )
            }, status: 413, reason: "PayloadTooLarge"),
        Case(name: "body not JSON", request: { jwt in .apns(jwt: jwt, payload: "hello") }, status: 400, reason: "InvalidPayload"),
        Case(
            name: "JSON without aps", request: { jwt in .apns(jwt: jwt, payload: #"{"alert":"x"}"#) },
            status: 400, reason: "InvalidPayload"),
        Case(
            name: "aps not an object", request: { jwt in .apns(jwt: jwt, payload: #"{"aps":"x"}"#) },
            status: 400, reason: "InvalidPayload"),
        Case(name: "no authorization", request: { _ in .apns(jwt: nil) }, status: 403, reason: "MissingProviderToken"),
        Case(
            name: "authorization not bearer",
            request: { jwt in
                TestRequest(
                    path: "/3/device/\(token)",
                    headers: [("apns-topic", "t"), ("authorization", "basic \(jwt)")],
                    body: Data(#"{"aps":{}}"#.utf8)
                )
            }, status: 403, reason: "InvalidProviderToken"),
    ]

    /// A JSON object with an `aps` dictionary, padded to exactly `size` bytes.
    static func payload(ofSize size: Int) -> String {
        let skeleton = #"{"aps":{"alert":""}}"#
        return #"{"aps":{"alert":""# + String(repeating: "x", count: size - skeleton.utf8.count) + #""}}"#
    }

    @Test("each malformed request gets Apple's status and reason", arguments: Self.cases)
    func malformedRequest(_ testCase: Case) async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let response = try await client.send(testCase.request(MockFixture.freshJWT))
            #expect(response.status == testCase.status, "\(testCase.name)")
            #expect(response.reason == testCase.reason, "\(testCase.name)")
            #expect(response.header("apns-id") != nil)
            #expect(server.notifications.isEmpty)
            #expect(server.stats.responsesByStatus == [testCase.status: 1])
        }
    }

    @Test("the limits themselves pass: 4096-byte body, 5120-byte voip body, 64-byte collapse id, uppercase apns-id")
    func limitsAreInclusive() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            let requests: [TestRequest] = [
                .apns(jwt: jwt, payload: Self.payload(ofSize: 4096)),
                TestRequest(
                    path: "/3/device/\(Self.token)",
                    headers: [("apns-topic", "t.voip"), ("apns-push-type", "voip"), ("authorization", "bearer \(jwt)")],
                    body: Data(Self.payload(ofSize: 5120).utf8)
                ),
                .apns(jwt: jwt, extraHeaders: [("apns-collapse-id", String(repeating: "c", count: 64))]),
                .apns(
                    jwt: jwt,
                    extraHeaders: [
                        ("apns-id", "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D"), ("apns-expiration", "0"),
                        ("apns-priority", "5"),
                    ]),
            ]
            for request in requests {
                let response = try await client.send(request)
                #expect(response.status == 200, "\(request.headers) → \(response.reason ?? "")")
            }
            #expect(server.notifications.count == 4)
        }
    }

    @Test("a token marked unregistered gets 410 with its timestamp; a token marked bad gets 400")
    func markedTokens() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            let gone = String(repeating: "cd", count: 32)
            let bad = String(repeating: "ef", count: 32)
            server.markUnregistered(token: gone.uppercased(), at: Date(timeIntervalSince1970: 1_700_000_000.123))
            server.markBadToken(bad)

            let unregistered = try await client.send(.apns(token: gone, jwt: jwt))
            #expect(unregistered.status == 410)
            #expect(unregistered.reason == "Unregistered")
            #expect((unregistered.json?["timestamp"] as? NSNumber)?.int64Value == 1_700_000_000_123)

            let badToken = try await client.send(.apns(token: bad, jwt: jwt))
            #expect(badToken.status == 400)
            #expect(badToken.reason == "BadDeviceToken")

            #expect(try await client.send(.apns(jwt: jwt)).status == 200)
            #expect(server.notifications.map(\.deviceToken) == [MockFixture.token])
        }
    }

    /// A debug build's token (development) sent to production answers `BadDeviceToken`, and a
    /// release build's to the sandbox; each is accepted by its own environment, and a token of no
    /// known environment by both.
    @Test(arguments: [APNsMockConfiguration.Environment.production, .development])
    func aTokenOfTheOtherEnvironmentIsABadDeviceToken(environment: APNsMockConfiguration.Environment) async throws {
        try await MockFixture.withServer({ $0.environment = environment }) { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            let debug = String(repeating: "d1", count: 32)
            let release = String(repeating: "e1", count: 32)
            server.markEnvironment(of: debug, .development)
            server.markEnvironment(of: release.uppercased(), .production)
            let own = environment == .development ? debug : release
            let other = environment == .development ? release : debug
            #expect(try await client.send(.apns(token: own, jwt: jwt)).status == 200)
            let refused = try await client.send(.apns(token: other, jwt: jwt))
            #expect(refused.status == 400 && refused.reason == "BadDeviceToken")
            #expect(try await client.send(.apns(jwt: jwt)).status == 200)
            #expect(server.notifications.map(\.deviceToken) == [own, MockFixture.token])
        }
    }

    /// A push-to-start token takes only a start, an activity's update token only updates and the
    /// end, and neither an ordinary push; unmarked tokens take anything well-formed.
    @Test func aLiveActivityTokenTakesOnlyItsKindOfPush() async throws {
        try await MockFixture.withServer { server in
            let client = try await H2TestClient.connect(port: server.port)
            defer { Task { await client.close() } }
            let jwt = MockFixture.freshJWT
            let start = String(repeating: "a1", count: 32)
            let update = String(repeating: "b2", count: 32)
            server.markLiveActivityToken(start, .start)
            server.markLiveActivityToken(update.uppercased(), .update)
            func live(_ token: String, _ event: String) -> TestRequest {
                let state = event == "end" ? "" : #","content-state":{}"#
                let starting = event == "start" ? #","attributes-type":"T","attributes":{}"# : ""
                return TestRequest(
                    path: "/3/device/\(token)",
                    headers: [
                        ("apns-topic", "com.example.app.push-type.liveactivity"), ("apns-push-type", "liveactivity"),
                        ("authorization", "bearer \(jwt)"),
                    ],
                    body: Data(#"{"aps":{"event":"\#(event)","timestamp":1\#(state)\#(starting)}}"#.utf8))
            }
            for (token, event, status) in [
                (start, "start", 200), (start, "update", 400), (update, "update", 200), (update, "end", 200), (update, "start", 400),
                (MockFixture.token, "update", 200),
            ] {
                let answer = try await client.send(live(token, event))
                #expect(answer.status == status, "\(event) to \(token.prefix(4))")
                if status == 400 { #expect(answer.reason == "BadDeviceToken") }
            }
            #expect(try await client.send(.apns(token: start, jwt: jwt)).reason == "BadDeviceToken")
        }
    }
}

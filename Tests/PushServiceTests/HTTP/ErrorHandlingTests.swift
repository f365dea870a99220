import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ErrorHandlingTests {
    @Test func missingOrWrongAPITokenIs401() async throws {
        try await LiveRelay.run { relay async throws in
            let expected = json(#"{"message": "Invalid value: \"Api-Token\".", "code": 400401, "error": true}"#)
            let missing = try await relay.request(.get, "/v3/applications/push/message_templates", app: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.body == expected)
            let wrong = try await relay.request(
                .get, "/v3/applications/push/message_templates", apiToken: "token-A-0123456789abcdef0123456789abcdeX")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.body == expected)
            // Nothing is written without authentication.
            let write = try await relay.request(.put, "/v3/users/alice/push_preference", body: "{}", apiToken: "nope")
            #expect(write.status == .unauthorized)
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false)
        }
    }

    @Test func eachTokenSelectsItsApp() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.put, "/v3/users/alice/push/template", body: #"{"name": "alternative"}"#, app: TestApps.b)
            #expect(try await relay.store.pushTemplateName(app: TestApps.b.appID, user: "alice") == .alternative)
            #expect(try await relay.store.pushTemplateName(app: TestApps.a.appID, user: "alice") == nil)
        }
    }

    @Test func bodiesOverTheLimitAre413() async throws {
        try await LiveRelay.run(maxBodyBytes: 1024) { relay async throws in
            let big = #"{"push_sound": "\#(String(repeating: "x", count: 2000))"}"#
            let r = try await relay.request(.put, "/v3/users/alice/push_preference", body: big)
            #expect(r.status == .contentTooLarge)
            #expect(r.body == json(#"{"message": "Request body is larger than 1024 bytes.", "code": 400110, "error": true}"#))
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false)
            // Just under the limit is fine.
            let fits = try await relay.request(
                .put, "/v3/users/alice/push_preference", body: #"{"push_sound": "\#(String(repeating: "x", count: 200))"}"#)
            #expect(fits.status == .ok)
        }
    }

    @Test func chunkedBodiesOverTheLimitAre413Too() async throws {
        try await LiveRelay.run(maxBodyBytes: 1024) { relay async throws in
            let port = try #require(relay.client.port)
            let chunk = String(repeating: "x", count: 1500)
            let request =
                "PUT /v3/users/alice/push_preference HTTP/1.1\r\nHost: localhost\r\nApi-Token: \(TestApps.a.apiToken.value)\r\n"
                + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n"
            let response = try await RawHTTP.exchange(port: port, Array(request.utf8))
            #expect(response.hasPrefix("HTTP/1.1 413"), "\(response)")
            #expect(response.contains(#""code":400110"#))
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false)
        }
    }

    @Test func deeplyNestedJSONIsABadRequestNotACrash() async throws {
        try await LiveRelay.run { relay async throws in
            let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
            #expect(try await relay.request(.put, "/v3/users/alice/push_preference", body: deep).code == 400403)
            let objects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
            #expect(try await relay.request(.put, "/v3/users/alice/push_preference", body: objects).code == 400403)
            // Still serving.
            #expect(try await relay.request(.put, "/v3/users/alice/push_preference", body: "{}").status == .ok)
        }
    }

    @Test func unknownPathsAre404AndUnknownMethods405WithASendbirdBody() async throws {
        try await LiveRelay.run { relay async throws in
            let path = try await relay.request(.get, "/v3/nothing/here")
            #expect(path.status == .notFound)
            #expect(path.code == 400201)
            let method = try await relay.request(.patch, "/v3/users/alice/push_preference", body: "{}")
            #expect(method.status == .methodNotAllowed)
            #expect(method.code == 400111)
            #expect(method.headers[.allow] == "DELETE, GET, PUT")
            // The most specific route decides: …/push/template, not …/push/{token_type}.
            let template = try await relay.request(.post, "/v3/users/alice/push/template", body: "{}")
            #expect(template.status == .methodNotAllowed)
            #expect(template.headers[.allow] == "GET, PUT")
            #expect(try await relay.request(.delete, "/health", app: nil).headers[.allow] == "GET")
            // A known method on a path with an extra segment is still unknown.
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference/c1/extra").status == .notFound)
        }
    }

    @Test func emptyBodiesAreEmptyObjects() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.post, "/v3/users/alice/push/apns", body: "").code == 400105)
            #expect(try await relay.request(.put, "/v3/users/alice/push_preference").status == .ok)
        }
    }
}

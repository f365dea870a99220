import Foundation
import HTTPTypes
import Synchronization
import Testing
import PushCore
@testable import PushService
@testable import PushStore
@testable import StoreContract

/// Secondary API tokens over the live HTTP server and a real SQLite file.
@Suite(.timeLimit(.minutes(5))) struct APITokenRoutesTests {
    func create(_ relay: LiveRelay, app: AppConfiguration = TestApps.a) async throws -> String {
        let r = try await relay.request(.post, "/v3/applications/api_tokens", app: app)
        guard r.status == .ok, case .string(let token)? = r.body["token"] else {
            throw TestFailure("creating an API token failed: \(r.status) \(r.text)")
        }
        return token
    }

    @Test func createdListedUsedAndRevoked() async throws {
        try await LiveRelay.run { relay async throws in
            let created = try await relay.request(.post, "/v3/applications/api_tokens")
            #expect(created.status == .ok)
            guard case .object(let fields) = created.body, case .string(let token)? = fields["token"],
                case .int(let createdAt)? = fields["created_at"]
            else { Issue.record("unexpected body \(created.text)"); return }
            #expect(Set(fields.keys) == ["token", "created_at"])
            #expect(token.count == 64 && token.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(createdAt > 1_700_000_000_000)

            // Listed redacted: the full token is shown once, at creation.
            let list = try await relay.request(.get, "/v3/applications/api_tokens")
            #expect(list.body == json(#"{"api_tokens": [{"token": "\#(token.prefix(4))…", "created_at": \#(createdAt)}]}"#))

            // Authenticates every other call like the master token, within its app.
            #expect(
                try await relay.request(
                    .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#,
                    apiToken: token
                ).status == .ok)
            #expect(
                try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(1))", apiToken: token).body
                    == json(#"[{"user_id": "alice"}]"#))
            #expect(try await relay.request(.get, "/v3/applications/push/message_templates", apiToken: token).status == .ok)
            #expect(try await relay.request(.post, "/v3/users/alice/token", apiToken: token).status == .ok)
            #expect(try await relay.store.tokens(app: TestApps.a.appID, user: "alice")?.map(\.token) == [apnsToken(1)])
            let otherApp = try await relay.request(.get, "/v3/users/alice/push/apns", app: TestApps.b, apiToken: token)
            #expect(otherApp.body["tokens"] == json(#"["\#(apnsToken(1))"]"#), "the token selects app A whatever else is said")
            #expect(try await relay.store.userExists(app: TestApps.b.appID, user: "alice") == false)

            let revoked = try await relay.request(.delete, "/v3/applications/api_tokens/\(token)")
            #expect(revoked.status == .ok)
            #expect(revoked.body == json(#"{"token": "\#(token.prefix(4))…", "created_at": \#(createdAt)}"#))
            let refused = try await relay.request(.get, "/v3/users/alice/push/apns", apiToken: token)
            #expect(refused.status == .unauthorized)
            #expect(refused.code == 400401)
            #expect(try await relay.request(.get, "/v3/applications/api_tokens").body == json(#"{"api_tokens": []}"#))
        }
    }

    @Test func aSecondaryTokenCannotManageAPITokens() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await create(relay)
            for (method, path) in [
                (HTTPRequest.Method.post, "/v3/applications/api_tokens"), (.get, "/v3/applications/api_tokens"),
                (.delete, "/v3/applications/api_tokens/\(token)"),
            ] {
                let r = try await relay.request(method, path, apiToken: token)
                #expect(r.status == .forbidden, "\(method) \(path) -> \(r.text)")
                #expect(r.code == 400108)
            }
            // It is still there and still works.
            #expect(try await relay.request(.get, "/v3/applications/push/message_templates", apiToken: token).status == .ok)
            #expect(try await relay.store.apiTokens(app: TestApps.a.appID).count == 1)
        }
    }

    @Test func revokingByTheListedFormOrAnUnknownToken() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await create(relay)
            let unknown = try await relay.request(.delete, "/v3/applications/api_tokens/\(String(repeating: "0", count: 64))")
            #expect(unknown.status == .badRequest)
            #expect(unknown.code == 400201)
            let listed = "\(token.prefix(4))…".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
            #expect(try await relay.request(.delete, "/v3/applications/api_tokens/\(listed)").status == .ok)
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns", apiToken: token).status == .unauthorized)
            // Another app's master token cannot touch app A's tokens.
            let again = try await create(relay)
            #expect(try await relay.request(.delete, "/v3/applications/api_tokens/\(again)", app: TestApps.b).code == 400201)
            #expect(try await relay.request(.get, "/v3/applications/push/message_templates", apiToken: again).status == .ok)
        }
    }

    @Test func atMostTwentyPerApp() async throws {
        try await LiveRelay.run { relay async throws in
            for _ in 0..<RESTAPI.maximumAPITokensPerApp { _ = try await create(relay) }
            let r = try await relay.request(.post, "/v3/applications/api_tokens")
            #expect(r.status == .badRequest)
            #expect(r.code == 400111)
            #expect(try await relay.store.apiTokens(app: TestApps.a.appID).count == RESTAPI.maximumAPITokensPerApp)
            #expect(try await relay.request(.post, "/v3/applications/api_tokens", app: TestApps.b).status == .ok)
        }
    }

    @Test func badBodiesAreRefusedAndStoreNothing() async throws {
        try await LiveRelay.run { relay async throws in
            for body in ["nope", "[]", "3"] {
                let r = try await relay.request(.post, "/v3/applications/api_tokens", body: body)
                #expect(r.status == .badRequest)
                #expect(r.code == 400403)
            }
            #expect(try await relay.store.apiTokens(app: TestApps.a.appID).isEmpty)
        }
    }

    /// Tokens survive a restart (loaded into memory at start), and only their digests are in
    /// the database.
    @Test func tokensSurviveARestartAndAreStoredAsDigests() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("APITokenRoutesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("relay.sqlite").path
        let kept = Locked<String?>(nil)
        try await LiveRelay.run(databasePath: path) { relay async throws in
            let token = try await create(relay)
            kept.set(token)
            let bytes = try relay.databaseBytes()
            #expect(bytes.range(of: Data(token.utf8)) == nil)
            #expect(bytes.range(of: Data(token.prefix(16).utf8)) == nil)
        }
        let token = try #require(kept.get())
        try await LiveRelay.run(databasePath: path) { relay async throws in
            #expect(try await relay.request(.get, "/v3/applications/push/message_templates", apiToken: token).status == .ok)
        }
    }
}

/// A value handed out of a `@Sendable` test closure.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func get() -> Value { value.withLock { $0 } }
}

/// The new paths answer other methods with 405 and `Allow`, read from the OpenAPI document.
@Suite(.timeLimit(.minutes(5))) struct CredentialPathMethodsTests {
    @Test(arguments: [
        ("/v3/users/alice/token", HTTPRequest.Method.put, "DELETE, POST"),
        ("/v3/applications/api_tokens", .delete, "GET, POST"),
        ("/v3/applications/api_tokens/abcd", .get, "DELETE"),
    ])
    func otherMethodsAre405(path: String, method: HTTPRequest.Method, allow: String) async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(method, path, body: "{}")
            #expect(r.status == .methodNotAllowed, "\(r.text)")
            #expect(r.headers[.allow] == allow)
            #expect(r.code == 400111)
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct LoggablePathTests {
    @Test func aSecondaryTokenInThePathIsCutToItsListedForm() {
        let token = String(repeating: "3f9a", count: 16)
        #expect(LoggablePath.of("/v3/applications/api_tokens/\(token)") == "/v3/applications/api_tokens/3f9a…")
        #expect(LoggablePath.of("/v3/users/alice/push/apns") == "/v3/users/alice/push/apns")
        // Whatever is there, as `Redaction` shows any secret: a short one shows nothing.
        #expect(LoggablePath.of("/v3/applications/api_tokens/3f9a9") == "/v3/applications/api_tokens/••••")
    }
}

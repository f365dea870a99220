import Crypto
import Foundation
import GRDB
import HTTPTypes
import Logging
import Testing
import PushCore
@testable import PushService
@testable import PushStore
@testable import StoreContract

/// Session tokens over the live HTTP server and a real SQLite file: issued by a server
/// credential, they reach their own user's device tokens, preferences and template choice and
/// nothing else.
@Suite(.timeLimit(.minutes(5))) struct SessionTokenRoutesTests {
    static func nowMs() -> Int64 { WallClock.milliseconds() }

    @Test func issuedAsSendbirdAnswersWithAWeekByDefault() async throws {
        try await LiveRelay.run { relay async throws in
            let before = Self.nowMs()
            let r = try await relay.request(.post, "/v3/users/alice/token")
            #expect(r.status == .ok)
            guard case .object(let fields) = r.body, case .string(let token)? = fields["token"],
                case .int(let expiresAt)? = fields["expires_at"]
            else { Issue.record("unexpected body \(r.text)"); return }
            #expect(Set(fields.keys) == ["user_id", "token", "expires_at"])
            #expect(fields["user_id"] == .string("alice"))
            #expect(token.count == 80 && token.allSatisfy { "0123456789abcdef".contains($0) }, "64 random and 16 of tag")
            let week: Int64 = 7 * 24 * 3600 * 1000
            #expect((before + week...Self.nowMs() + week).contains(expiresAt))

            // An explicit expiry is kept exactly; two tokens are never the same.
            let later = Self.nowMs() + 60_000
            let custom = try await relay.request(.post, "/v3/users/alice/token", body: #"{"expires_at": \#(later)}"#)
            #expect(custom.body["expires_at"] == .int(later))
            #expect(custom.body["token"] != .string(token))
        }
    }

    @Test func aSessionTokenManagesItsOwnUsersPushSettings() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await relay.issueSessionToken(for: "alice")
            let registered = try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#, sessionToken: token)
            #expect(registered.status == .ok, "\(registered.text)")
            #expect(
                try await relay.request(.get, "/v3/users/alice/push/apns", sessionToken: token).body["tokens"]
                    == json(#"["\#(apnsToken(1))"]"#))
            #expect(
                try await relay.request(
                    .put, "/v3/users/alice/push_preference", body: #"{"push_trigger_option": "mention_only"}"#, sessionToken: token
                ).status == .ok)
            #expect(
                try await relay.request(.get, "/v3/users/alice/push_preference", sessionToken: token).body["push_trigger_option"]
                    == .string("mention_only"))
            #expect(
                try await relay.request(
                    .put, "/v3/users/alice/push_preference/c1", body: #"{"push_trigger_option": "off"}"#, sessionToken: token
                ).status == .ok)
            #expect(
                try await relay.request(.get, "/v3/users/alice/push_preference/c1", sessionToken: token).body["push_trigger_option"]
                    == .string("off"))
            #expect(
                try await relay.request(.put, "/v3/users/alice/push/template", body: #"{"name": "alternative"}"#, sessionToken: token)
                    .status == .ok)
            #expect(
                try await relay.request(.get, "/v3/users/alice/push/template", sessionToken: token).body
                    == json(#"{"name": "alternative"}"#))
            #expect(try await relay.request(.delete, "/v3/users/alice/push_preference", sessionToken: token).status == .ok)
            #expect(try await relay.request(.delete, "/v3/users/alice/push/apns/\(apnsToken(1))", sessionToken: token).status == .ok)
            #expect(try await relay.request(.delete, "/v3/users/alice/push", sessionToken: token).status == .ok)
            // The server sees what the device did.
            #expect(try await relay.store.pushTemplateName(app: TestApps.a.appID, user: "alice") == .alternative)
        }
    }

    /// A user id that needs percent-encoding is matched after decoding, exactly.
    @Test func theUserIsComparedDecodedAndExactly() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await relay.issueSessionToken(for: "a%20b%40example.com")
            #expect(
                try await relay.request(
                    .put, "/v3/users/a%20b%40example.com/push/template", body: #"{"name": "default"}"#, sessionToken: token
                ).status == .ok)
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "a b@example.com"))
            let other = try await relay.request(
                .put, "/v3/users/A%20b%40example.com/push/template", body: #"{"name": "default"}"#, sessionToken: token)
            #expect(other.status == .forbidden)
            #expect(other.code == 400108)
        }
    }

    /// Everything outside the user's own push settings is 403 with Sendbird's body, and a
    /// refused write stores nothing.
    @Test(arguments: [
        (HTTPRequest.Method.get, "/v3/users/bob/push/apns", nil as String?),
        (.post, "/v3/users/bob/push/apns", #"{"apns_device_token": "\#(apnsToken(9))"}"#),
        (.delete, "/v3/users/bob/push", nil),
        (.put, "/v3/users/bob/push_preference", #"{"push_trigger_option": "off"}"#),
        (.put, "/v3/users/bob/push_preference/c1", #"{"push_trigger_option": "off"}"#),
        (.put, "/v3/users/bob/push/template", #"{"name": "alternative"}"#),
        (.get, "/v3/push/device_tokens/apns/\(apnsToken(1))", nil),
        (.delete, "/v3/push/device_tokens/apns/\(apnsToken(1))", nil),
        (.get, "/v3/push/deliveries?message_id=1&user_id=alice", nil),
        (.get, "/v3/users/alice/push/deliveries", nil),
        (.post, "/v3/push/test", #"{"user_id": "alice"}"#),
        (.get, "/v3/applications/push/message_templates", nil),
        (.put, "/v3/applications/push/message_templates/default", #"{"template": {"MESG": "pwned"}}"#),
        (.post, "/v3/users/alice/token", nil),
        (.post, "/v3/users/bob/token", nil),
        (.delete, "/v3/users/alice/token", nil),
        (.get, "/v3/applications/api_tokens", nil),
        (.post, "/v3/applications/api_tokens", nil),
    ])
    func everythingElseIsForbidden(method: HTTPRequest.Method, path: String, body: String?) async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            let token = try await relay.issueSessionToken(for: "alice")
            let before = try await Self.snapshot(relay)
            let r = try await relay.request(method, path, body: body, sessionToken: token)
            #expect(r.status == .forbidden, "\(method) \(path) -> \(r.status) \(r.text)")
            #expect(r.code == 400108)
            if case .string(let message)? = r.body["message"] { #expect(!message.isEmpty) } else { Issue.record("no message: \(r.text)") }
            #expect(try await Self.snapshot(relay) == before)
            // The token still works for its own user afterwards.
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns", sessionToken: token).status == .ok)
        }
    }

    @Test(arguments: [
        ("", 400302), ("abc", 400302), (String(repeating: "A", count: 64), 400302),
        (String(repeating: "g", count: 64), 400302), (String(repeating: "a", count: 65), 400302),
        (String(repeating: "0", count: 64), 400302), (String(repeating: "0", count: 80), 400302),
        (CredentialToken.generate() + CredentialToken.generate().prefix(16), 400302),
    ])
    func malformedOrUnknownTokensAre401(token: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.get, "/v3/users/alice/push/apns", sessionToken: token)
            #expect(r.status == .unauthorized)
            #expect(r.code == code)
        }
    }

    /// A malformed or forged token is refused before any database access: with the database
    /// closed it still gets 401, not the error a lookup would meet. Forged includes a well-formed
    /// random one (its tag does not match) and the old 64-character form once no session of that
    /// form can be alive: only a token the fleet made costs a lookup.
    @Test func aForgedTokenNeverReachesTheDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("SessionTokenRoutesTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("r.sqlite").path)
        let credentials = try await CredentialDirectory.load(
            store: store, maximumSessionLifetime: AppLimits.defaultMaxSessionLifetime, logger: Logger(label: "test"))
        let middleware = AuthenticationMiddleware(
            apps: AppRegistry(apps: [TestApps.a]), credentials: credentials, store: store, rateLimits: CredentialRateLimiter(),
            costlySlots: CostlyRequestSlots(),
            clock: WallClock.milliseconds)
        try store.pool.close()
        let forged = [
            "x", String(repeating: "Z", count: 64), String(repeating: "a", count: 63) + "\u{e9}", String(repeating: "a", count: 64),
            CredentialToken.generate() + String(repeating: "0", count: 16),
        ]
        for token in forged {
            await #expect(throws: APIError.invalidSessionToken) {
                try await middleware.authenticate([HTTPField.Name("Session-Token")!: token])
            }
        }
        // One the fleet made does need the database (and so fails here otherwise).
        await #expect(throws: DatabaseError.self) {
            try await middleware.authenticate([HTTPField.Name("Session-Token")!: credentials.sessionTokens.generate()])
        }
    }

    @Test func anExpiredTokenIs401WithSendbirdsExpiryCode() async throws {
        try await LiveRelay.run { relay async throws in
            let token = relay.api.credentials.sessionTokens.generate()
            try await relay.store.addSessionToken(
                digest: CredentialToken.digest(token), app: TestApps.a.appID, user: "alice", issuer: TestApps.a.masterIssuer,
                expiresAtMs: Self.nowMs() - 1)
            let r = try await relay.request(.get, "/v3/users/alice/push/apns", sessionToken: token)
            #expect(r.status == .unauthorized)
            #expect(r.code == 400309)
        }
    }

    @Test func revokingRemovesEveryTokenOfTheUserOnly() async throws {
        try await LiveRelay.run { relay async throws in
            let first = try await relay.issueSessionToken(for: "alice")
            let second = try await relay.issueSessionToken(for: "alice")
            let bobs = try await relay.issueSessionToken(for: "bob")
            let otherApp = try await relay.issueSessionToken(for: "alice", app: TestApps.b)
            let r = try await relay.request(.delete, "/v3/users/alice/token")
            #expect(r.status == .ok)
            #expect(r.body == json("{}"))
            for token in [first, second] {
                let refused = try await relay.request(.get, "/v3/users/alice/push_preference", sessionToken: token)
                #expect(refused.status == .unauthorized)
                #expect(refused.code == 400302)
            }
            #expect(
                try await relay.request(.put, "/v3/users/bob/push/template", body: #"{"name": "default"}"#, sessionToken: bobs).status
                    == .ok)
            #expect(
                try await relay.request(.put, "/v3/users/alice/push/template", body: #"{"name": "default"}"#, sessionToken: otherApp).status
                    == .ok)
            // Revoking again (nothing left) still answers {}.
            #expect(try await relay.request(.delete, "/v3/users/alice/token").body == json("{}"))
        }
    }

    /// A token speaks for its own app: app B's alice is not app A's alice.
    @Test func aTokenStaysInItsApp() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await relay.issueSessionToken(for: "alice", app: TestApps.b)
            #expect(
                try await relay.request(
                    .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#, sessionToken: token
                ).status == .ok)
            #expect(try await relay.store.tokens(app: TestApps.b.appID, user: "alice")?.map(\.token) == [apnsToken(1)])
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false)
        }
    }

    /// `Api-Token` decides when both are present: a wrong one is refused whatever the other says.
    @Test func aWrongAPITokenIsNotRescuedByASessionToken() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await relay.issueSessionToken(for: "alice")
            let headers: HTTPFields = [HTTPField.Name("Api-Token")!: "wrong-token-0123456789", HTTPField.Name("Session-Token")!: token]
            let response = try await relay.client.execute(uri: "/v3/users/alice/push/apns", method: .get, headers: headers, body: nil)
            #expect(response.status == .unauthorized)
        }
    }

    /// Bad bodies get Sendbird's 4xx, and nothing is stored.
    @Test(arguments: [
        (#"{"expires_at": 1000}"#, 400111), (#"{"expires_at": -5}"#, 400106), (#"{"expires_at": "soon"}"#, 400101),
        (#"{"expires_at": 1.5}"#, 400101), (#"{"expires_at": true}"#, 400101), (#"{"expires_at": 99999999999999999999999}"#, 400101),
        ("not json", 400403), ("[1]", 400403),
    ])
    func badRequestsStoreNothing(body: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.post, "/v3/users/alice/token", body: body)
            #expect(r.status == .badRequest, "\(body) -> \(r.text)")
            #expect(r.code == code, "\(body) -> \(r.text)")
            #expect(try await Self.sessionTokenCount(relay) == 0)
        }
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.post, "/v3/users/alice%ZZ/token")
            #expect(r.status == .badRequest)
        }
    }

    /// Only the SHA-256 digest is stored: the token is nowhere in the database file or its WAL.
    @Test func onlyTheDigestIsStored() async throws {
        try await LiveRelay.run { relay async throws in
            let token = try await relay.issueSessionToken(for: "alice")
            let digests = try await relay.store.pool.read { db in try Data.fetchAll(db, sql: "SELECT token_digest FROM session_tokens") }
            #expect(digests == [Data(SHA256.hash(data: Data(token.utf8)))])
            let bytes = try relay.databaseBytes()
            #expect(bytes.range(of: Data(token.utf8)) == nil)
            #expect(bytes.range(of: Data(token.prefix(16).utf8)) == nil)
        }
    }

    static func sessionTokenCount(_ relay: LiveRelay) async throws -> Int {
        try await relay.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session_tokens") ?? 0 }
    }

    /// Everything a refused request could have changed.
    static func snapshot(_ relay: LiveRelay) async throws -> [String] {
        try await relay.store.pool.read { db in
            var rows: [String] = []
            for table in [
                "users", "device_tokens", "user_push_preferences", "channel_push_preferences", "push_message_templates",
                "session_tokens", "api_tokens",
            ] {
                rows += try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table): \($0)" }
            }
            return rows.sorted()
        }
    }
}

import ConfigSupport
import Foundation
import GRDB
import HTTPTypes
import Synchronization
import Testing
@testable import PushService
@testable import PushStore
@testable import StoreContract

/// What a session dies by, over the live HTTP server and a real SQLite file: its lifetime's
/// bound, its issuer's revocation, its app's "revoke every session"; and the old token form's
/// window. (Across two relays on PostgreSQL: Tests/Reliability/test_trust_boundary.py.)
@Suite(.timeLimit(.minutes(5))) struct CredentialLifetimeTests {
    static func nowMs() -> Int64 { WallClock.milliseconds() }
    static let template = #"{"name": "default"}"#

    static func works(_ relay: LiveRelay, _ session: String, user: String = "alice") async throws -> Int {
        let r = try await relay.request(.put, "/v3/users/\(user)/push/template", body: template, sessionToken: session)
        return r.status == .ok ? 200 : (r.code ?? Int(r.status.code))
    }

    /// An `expires_at` beyond the app's maximum lifetime is capped to it (the answer says so);
    /// without one the default week is capped too when the maximum is shorter.
    @Test func aLifetimeBeyondTheMaximumIsCapped() async throws {
        var app = TestApps.a
        app.limits.maxSessionLifetime = .seconds(3600)
        try await LiveRelay.run(apps: [app]) { relay async throws in
            let before = Self.nowMs()
            let forever = try await relay.request(.post, "/v3/users/alice/token", body: #"{"expires_at": 253402300799000}"#)
            guard case .int(let capped)? = forever.body["expires_at"] else { throw TestFailure(forever.text) }
            #expect((before + 3_600_000...Self.nowMs() + 3_600_000).contains(capped))
            let plain = try await relay.request(.post, "/v3/users/alice/token")
            guard case .int(let defaulted)? = plain.body["expires_at"] else { throw TestFailure(plain.text) }
            #expect(defaulted <= Self.nowMs() + 3_600_000)
            let soon = Self.nowMs() + 60_000
            let kept = try await relay.request(.post, "/v3/users/alice/token", body: #"{"expires_at": \#(soon)}"#)
            #expect(kept.body["expires_at"] == .int(soon), "within the maximum: as asked")
        }
    }

    /// A session dies with the secondary API token that issued it; one the master token issued,
    /// and the app's other tokens, live on.
    @Test func aSessionDiesWithItsIssuer() async throws {
        try await LiveRelay.run { relay async throws in
            let created = try await relay.request(.post, "/v3/applications/api_tokens", body: "{}")
            guard case .string(let secondary)? = created.body["token"] else { throw TestFailure(created.text) }
            let bySecondary = try await relay.request(.post, "/v3/users/alice/token", apiToken: secondary)
            guard case .string(let doomed)? = bySecondary.body["token"] else { throw TestFailure(bySecondary.text) }
            let byMaster = try await relay.issueSessionToken(for: "alice")
            #expect(try await Self.works(relay, doomed) == 200)
            #expect(try await relay.request(.delete, "/v3/applications/api_tokens/\(secondary)").status == .ok)
            #expect(try await Self.works(relay, doomed) == 400302)
            #expect(try await Self.works(relay, byMaster) == 200)
            let left = try await relay.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session_tokens") }
            #expect(left == 1, "the revoked token's sessions are deleted with it")
        }
    }

    /// A session the master token issued dies when the configured master token changes.
    @Test func aSessionDiesWithAReplacedMasterToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CredentialLifetimeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("relay.sqlite").path
        let token = Mutex("")
        try await LiveRelay.run(databasePath: path) { relay async throws in
            let issued = try await relay.issueSessionToken(for: "alice")
            token.withLock { $0 = issued }
            #expect(try await Self.works(relay, issued) == 200)
        }
        let issued = token.withLock { $0 }
        var rotated = TestApps.a
        rotated.apiToken = Secret("a-rotated-master-token-0123456789abcdef")
        try await LiveRelay.run(apps: [rotated], databasePath: path) { relay async throws in
            #expect(try await Self.works(relay, issued) == 400302)
        }
        try await LiveRelay.run(databasePath: path) { relay async throws in
            #expect(try await Self.works(relay, issued) == 200, "the old master back: its sessions are alive again")
        }
    }

    /// `DELETE /v3/applications/session_tokens` (master token only) refuses every session of the
    /// app issued before it, not the other app's, and not one issued after it.
    @Test func revokingEverySessionOfAnApp() async throws {
        try await LiveRelay.run { relay async throws in
            let alice = try await relay.issueSessionToken(for: "alice")
            let bob = try await relay.issueSessionToken(for: "bob")
            let otherApp = try await relay.issueSessionToken(for: "alice", app: TestApps.b)
            let created = try await relay.request(.post, "/v3/applications/api_tokens", body: "{}")
            guard case .string(let secondary)? = created.body["token"] else { throw TestFailure(created.text) }
            #expect(try await relay.request(.delete, "/v3/applications/session_tokens", apiToken: secondary).status == .forbidden)
            let revoked = try await relay.request(.delete, "/v3/applications/session_tokens")
            #expect(revoked.status == .ok, "\(revoked.text)")
            guard case .int(let before)? = revoked.body["revoked_before"] else { throw TestFailure(revoked.text) }
            #expect(before <= Self.nowMs() + 1)
            #expect(try await Self.works(relay, alice) == 400302)
            #expect(try await Self.works(relay, bob, user: "bob") == 400302)
            let r = try await relay.request(.put, "/v3/users/alice/push/template", body: Self.template, sessionToken: otherApp)
            #expect(r.status == .ok)
            let fresh = try await relay.issueSessionToken(for: "alice")
            #expect(try await Self.works(relay, fresh) == 200)
        }
    }

    /// Tokens of the form issued before tags (64 hex characters, no issuer recorded) still work
    /// until their maximum lifetime from creation; a 64-character guess is refused.
    @Test func oldFormTokensLiveOutTheirWindow() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("CredentialLifetimeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("relay.sqlite").path
        let recent = CredentialToken.generate(), ancient = CredentialToken.generate()
        do {
            let store = try SQLiteStore(path: path)
            let now = Self.nowMs()
            try await store.pool.write { db in
                for (token, created) in [(recent, now - 1000), (ancient, now - 7 * 86_400_000 - 3_600_000)] {
                    try db.execute(
                        sql: """
                            INSERT INTO session_tokens (token_digest, app_id, user_id, created_at, expires_at, issuer)
                            VALUES (?, ?, 'alice', ?, 253402300799000, NULL)
                            """, arguments: [CredentialToken.digest(token), TestApps.a.appID, created])
                }
            }
            try store.pool.close()
        }
        try await LiveRelay.run(databasePath: path) { relay async throws in
            #expect(relay.api.credentials.legacyUntilMs != nil)
            #expect(try await Self.works(relay, recent) == 200)
            #expect(try await Self.works(relay, ancient) == 400309, "older than the 7-day maximum: expired")
            #expect(try await Self.works(relay, CredentialToken.generate()) == 400302)
        }
    }

    /// Past its rate an app gets 429 with Retry-After and Sendbird's body; another app does not.
    /// (Twenty requests at once against 1/s and a burst of 2: however slow the machine, they
    /// arrive far faster than one a second.)
    @Test func anAppOverItsRateIsRefusedAlone() async throws {
        var limitedApp = TestApps.a
        limitedApp.limits.apiTokenRequestsPerSecond = 1
        let app = limitedApp
        try await LiveRelay.run(apps: [app, TestApps.b]) { relay async throws in
            let answers = try await withThrowingTaskGroup(of: HTTPResult.self) { group in
                for _ in 0..<20 { group.addTask { try await relay.request(.get, "/v3/users/nobody", app: app) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = answers.map { Int($0.status.code) }
            let refused = try #require(answers.first { $0.status == .tooManyRequests }, "\(statuses)")
            #expect(statuses.allSatisfy { $0 == 400 || $0 == 429 }, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count >= 2, "the burst: \(statuses)")
            #expect(refused.code == 500910)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(try await relay.request(.get, "/v3/users?limit=1", app: TestApps.b).status == .ok)
        }
    }

    /// One budget per app, whichever of its API tokens asks: a secondary token finds the master
    /// token's spending; and a list of the delivery log spends many units at once. (1 unit a
    /// second with a burst of 2: a list of 25 goes only from a full bucket and leaves it owing
    /// 24 s, longer than any machine takes between two requests.)
    @Test func theAppsTokensShareOneBudgetChargedByCost() async throws {
        var limitedApp = TestApps.a
        limitedApp.limits.apiTokenRequestsPerSecond = 1
        let app = limitedApp
        try await LiveRelay.run(apps: [app, TestApps.b]) { relay async throws in
            let created = try await relay.request(.post, "/v3/applications/api_tokens", body: "{}", app: app)
            guard case .string(let secondary)? = created.body["token"] else { throw TestFailure("no token: \(created.text)") }
            // Refilled after the token's creation (a unit), the master token's list empties the bucket …
            try await Task.sleep(for: .seconds(2))
            #expect(try await relay.request(.get, "/v3/users/u/push/deliveries", app: app).status == .ok)
            // … so the secondary token finds it spent.
            let refused = try await relay.request(.get, "/v3/users/u/push/deliveries", app: app, apiToken: secondary)
            #expect(refused.status == .tooManyRequests, "\(refused.text)")
            #expect(refused.text.contains("this request costs 25"))
            #expect(try await relay.request(.get, "/v3/users/u/push/deliveries", app: TestApps.b).status == .ok)
        }
    }

    /// A device registers its own token; one another user holds is moved only by the app's
    /// server (one device, one user), never by a session token.
    @Test func aSessionCannotTakeAnotherUsersDevice() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.post, "/v3/users/bob/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            let alice = try await relay.issueSessionToken(for: "alice")
            let taken = try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#, sessionToken: alice)
            #expect(taken.status == .forbidden)
            #expect(taken.code == 400108)
            #expect(try await relay.store.owner(app: TestApps.a.appID, token: apnsToken(1)) == "bob")
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false, "nothing written")
            let moved = try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            #expect(moved.status == .ok)
            #expect(try await relay.store.owner(app: TestApps.a.appID, token: apnsToken(1)) == "alice")
        }
    }

    /// A session token reaches its own user's bytes: a canonically equal spelling is another
    /// user (403), on every route a session token may use.
    @Test(arguments: [("caf%C3%A9", "cafe%CC%81"), ("Kate", "%E2%84%AAate")])
    func aLookAlikeIDIsAnotherUser(own: String, other: String) async throws {
        try await LiveRelay.run { relay async throws in
            let session = try await relay.issueSessionToken(for: own)
            for (method, route, body) in [
                (HTTPRequest.Method.get, "/v3/users/\(other)/push/apns", nil as String?),
                (.post, "/v3/users/\(other)/push/apns", #"{"apns_device_token": "\#(apnsToken(5))"}"#),
                (.put, "/v3/users/\(other)/push_preference", #"{"push_trigger_option": "off"}"#),
                (.put, "/v3/users/\(other)/push/template", Self.template),
            ] {
                let r = try await relay.request(method, route, body: body, sessionToken: session)
                #expect(r.status == .forbidden, "\(method) \(route): \(r.text)")
            }
            #expect(
                try await relay.request(.put, "/v3/users/\(own)/push/template", body: Self.template, sessionToken: session).status == .ok)
        }
    }
}

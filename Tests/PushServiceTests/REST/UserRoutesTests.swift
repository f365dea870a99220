import Foundation
import Testing
import PushCore
@testable import PushService
@testable import PushStore
@testable import StoreContract

/// `/v3/users` over the live HTTP server and a real SQLite file.
@Suite(.timeLimit(.minutes(5))) struct UserRoutesTests {
    @Test func createViewUpdateListAndDelete() async throws {
        try await LiveRelay.run { relay async throws in
            let created = try await relay.request(
                .post, "/v3/users",
                body: #"{"user_id": "alice", "nickname": "Alice", "profile_url": "https://x/a.png", "issue_access_token": false}"#)
            #expect(created.status == .ok)
            #expect(created.body["user_id"] == .string("alice"))
            #expect(created.body["nickname"] == .string("Alice"))
            #expect(created.body["profile_url"] == .string("https://x/a.png"))
            guard case .int(let createdAt)? = created.body["created_at"] else { Issue.record(Comment(rawValue: created.text)); return }
            #expect(abs(createdAt - Int64(Date().timeIntervalSince1970)) < 600, "Unix seconds")
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": "alice", "nickname": "x"}"#).code == 400202)

            #expect(try await relay.request(.get, "/v3/users/alice").body["nickname"] == .string("Alice"))
            #expect(try await relay.request(.get, "/v3/users/alice", app: TestApps.b).code == 400201)
            let renamed = try await relay.request(.put, "/v3/users/alice", body: #"{"nickname": "Al", "is_active": true}"#)
            #expect(renamed.body["nickname"] == .string("Al"))
            #expect(renamed.body["profile_url"] == .string("https://x/a.png"))
            #expect(try await relay.request(.put, "/v3/users/nobody", body: #"{"nickname": "x"}"#).code == 400201)

            // A user known from a token is listed and can still be created once.
            #expect(
                try await relay.request(.post, "/v3/users/bob/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#).status == .ok
            )
            #expect(try await relay.request(.get, "/v3/users/bob").body["nickname"] == .string(""))
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": "bob", "nickname": "Bob"}"#).status == .ok)
            for n in 0..<3 { _ = try await relay.request(.post, "/v3/users", body: #"{"user_id": "u\#(n)", "nickname": ""}"#) }
            var ids: [String] = []
            var token = ""
            repeat {
                let page = try await relay.request(.get, "/v3/users?limit=2" + (token.isEmpty ? "" : "&token=\(token)"))
                guard case .array(let users)? = page.body["users"], case .string(let next)? = page.body["next"] else {
                    Issue.record(Comment(rawValue: page.text))
                    return
                }
                ids += users.compactMap { if case .string(let id)? = $0["user_id"] { id } else { nil } }
                token = next
            } while !token.isEmpty
            #expect(ids == ["alice", "bob", "u0", "u1", "u2"])

            #expect(try await relay.request(.delete, "/v3/users/bob").body == json("{}"))
            #expect(try await relay.request(.get, "/v3/users/bob").code == 400201)
            #expect(try await relay.request(.get, "/v3/users/bob/push/apns").code == 400201)
            #expect(try await relay.request(.delete, "/v3/users/bob").code == 400201)
        }
    }

    @Test func badRequestsGetSendbirdErrors() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.post, "/v3/users", body: #"{"nickname": "x"}"#).code == 400105)
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": 7}"#).code == 400100)
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": ""}"#).code == 400111)
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": "a\u0001b"}"#).code == 400111)
            let long = String(repeating: "n", count: 81)
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": "a", "nickname": "\#(long)"}"#).code == 400110)
            #expect(try await relay.request(.get, "/v3/users?limit=0").code == 400111)
            #expect(try await relay.request(.get, "/v3/users?limit=x").code == 400101)
            #expect(try await relay.request(.get, "/v3/users?token=zz").code == 400111)
            #expect(try await relay.request(.get, "/v3/users", app: nil).status == .unauthorized)
        }
    }

    /// A device's session token reads and changes its own user; creating, listing and deleting
    /// users take a server credential.
    @Test func aSessionTokenReachesOnlyItsOwnUser() async throws {
        try await LiveRelay.run { relay async throws in
            _ = try await relay.request(.post, "/v3/users", body: #"{"user_id": "alice", "nickname": "Alice"}"#)
            _ = try await relay.request(.post, "/v3/users", body: #"{"user_id": "bob", "nickname": "Bob"}"#)
            let token = try await relay.issueSessionToken(for: "alice")
            #expect(try await relay.request(.get, "/v3/users/alice", sessionToken: token).status == .ok)
            #expect(try await relay.request(.put, "/v3/users/alice", body: #"{"nickname": "A"}"#, sessionToken: token).status == .ok)
            #expect(try await relay.request(.get, "/v3/users/bob", sessionToken: token).status == .forbidden)
            #expect(try await relay.request(.delete, "/v3/users/alice", sessionToken: token).status == .forbidden)
            #expect(try await relay.request(.get, "/v3/users", sessionToken: token).status == .forbidden)
            #expect(try await relay.request(.post, "/v3/users", body: #"{"user_id": "c"}"#, sessionToken: token).status == .forbidden)
        }
    }
}

import HTTPTypes
import Testing
import PushCore
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct DeviceTokenRoutesTests {
    static let user = #"{"metadata":{},"nickname":"","profile_url":"","require_auth_for_profile_image":false,"user_id":"alice"}"#

    @Test func registerListAndLookUpTheOwner() async throws {
        try await LiveRelay.run { relay async throws in
            let added = try await relay.request(
                .post, "/v3/users/alice/push/apns",
                body: #"{"apns_device_token": "\#(apnsToken(1).uppercased())", "is_unique": false, "always_push": false}"#)
            #expect(added.status == .ok)
            #expect(added.body == json(#"{"token": "\#(apnsToken(1))", "type": "APNS", "user": \#(Self.user)}"#))
            #expect(added.headers[.contentType] == "application/json; charset=utf-8")

            try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(2))"}"#)
            let list = try await relay.request(.get, "/v3/users/alice/push/apns")
            #expect(list.status == .ok)
            let tokens = #"["\#(apnsToken(1))", "\#(apnsToken(2))"]"#
            #expect(list.body == json(#"{"tokens": \#(tokens), "type": "APNS", "user": \#(Self.user), "token": \#(tokens)}"#))

            let owner = try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(2))")
            #expect(owner.status == .ok)
            #expect(owner.body == json(#"[{"user_id": "alice"}]"#))
            let nobody = try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(3))")
            #expect(nobody.body == json("[]"))

            // Stored with its registration time for the dispatcher's 410 rule.
            let stored = try await relay.store.tokens(app: TestApps.a.appID, user: "alice")
            #expect(stored?.allSatisfy { $0.registeredAtMs > 1_600_000_000_000 } == true)
        }
    }

    @Test func isUniqueReplacesTheUsersOtherTokens() async throws {
        try await LiveRelay.run { relay async throws in
            for n in 1...3 {
                try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(n))"}"#)
            }
            try await relay.request(
                .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(4))", "is_unique": true}"#)
            let list = try await relay.request(.get, "/v3/users/alice/push/apns")
            #expect(list.body["tokens"] == json(#"["\#(apnsToken(4))"]"#))
        }
    }

    @Test func theTwentyFirstTokenEvictsTheOldest() async throws {
        try await LiveRelay.run { relay async throws in
            for n in 1...21 {
                let r = try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(n))"}"#)
                #expect(r.status == .ok)
            }
            let list = try await relay.request(.get, "/v3/users/alice/push/apns")
            #expect(list.body["tokens"] == .array((2...21).map { .string(apnsToken($0)) }))
        }
    }

    @Test func aTokenMovesToTheUserWhoRegistersItLast() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            try await relay.request(.post, "/v3/users/bob/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns").body["tokens"] == json("[]"))
            #expect(try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(1))").body == json(#"[{"user_id": "bob"}]"#))
        }
    }

    @Test func removeOneRemoveAllAndRemoveFromOwner() async throws {
        try await LiveRelay.run { relay async throws in
            for n in 1...3 {
                try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(n))"}"#)
            }
            let one = try await relay.request(.delete, "/v3/users/alice/push/apns/\(apnsToken(1))")
            #expect(one.status == .ok)
            #expect(one.body == json(#"{"token": "\#(apnsToken(1))", "user": \#(Self.user)}"#))
            // Removing it again still succeeds (idempotent).
            #expect(try await relay.request(.delete, "/v3/users/alice/push/apns/\(apnsToken(1))").status == .ok)

            let fromOwner = try await relay.request(.delete, "/v3/push/device_tokens/apns/\(apnsToken(2).uppercased())")
            #expect(fromOwner.body == json(#"[{"user_id": "alice"}]"#))
            #expect(try await relay.request(.delete, "/v3/push/device_tokens/apns/\(apnsToken(2))").body == json("[]"))

            let all = try await relay.request(.delete, "/v3/users/alice/push")
            #expect(all.status == .ok)
            #expect(all.body == json(#"{"token": ["\#(apnsToken(3))"], "user": \#(Self.user)}"#))
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns").body["tokens"] == json("[]"))
        }
    }

    @Test func tokensAreScopedPerApp() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns", app: TestApps.b).code == 400201)
            #expect(try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(1))", app: TestApps.b).body == json("[]"))
            #expect(try await relay.request(.delete, "/v3/push/device_tokens/apns/\(apnsToken(1))", app: TestApps.b).body == json("[]"))
            #expect(try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(1))").body == json(#"[{"user_id": "alice"}]"#))
        }
    }

    @Test func unknownUsersAreNotFound() async throws {
        try await LiveRelay.run { relay async throws in
            for (method, path) in [
                (HTTPRequest.Method.get, "/v3/users/ghost/push/apns"),
                (.delete, "/v3/users/ghost/push/apns/\(apnsToken(1))"),
                (.delete, "/v3/users/ghost/push"),
            ] {
                let r = try await relay.request(method, path)
                #expect(r.status == .badRequest, "\(method) \(path)")
                #expect(r.body == json(#"{"message": "\"User\" not found.", "code": 400201, "error": true}"#))
            }
        }
    }

    @Test(arguments: [
        (#"{}"#, 400105),
        (#"{"apns_device_token": 12}"#, 400100),
        (#"{"apns_device_token": "abc"}"#, 400601),
        (#"{"apns_device_token": "\#(String(repeating: "a", count: 15))"}"#, 400601),
        (#"{"apns_device_token": "\#(String(repeating: "a", count: 202))"}"#, 400601),
        (#"{"apns_device_token": "\#(String(repeating: "a", count: 63))"}"#, 400601),
        (#"{"apns_device_token": "\#(String(repeating: "g", count: 64))"}"#, 400601),
        (#"{"apns_device_token": "<\#(String(repeating: "a", count: 62))>"}"#, 400601),
        (#"{"apns_device_token": "\#(String(repeating: "a", count: 64))", "is_unique": "yes"}"#, 400104),
        (#"{"apns_device_token": "\#(String(repeating: "a", count: 64))", "always_push": 1}"#, 400104),
        (#"[]"#, 400403),
        (#"{"apns_device_token": "#, 400403),
    ])
    func badRegistrationsAreRejectedAndStoreNothing(body: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.post, "/v3/users/alice/push/apns", body: body)
            #expect(r.status == .badRequest)
            #expect(r.code == code, "\(r.text)")
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false)
        }
    }

    @Test func acceptedTokenLengthsAreEvenHexFrom16To200() async throws {
        try await LiveRelay.run { relay async throws in
            for length in [16, 64, 200] {
                let r = try await relay.request(
                    .post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(String(repeating: "ab", count: length / 2))"}"#)
                #expect(r.status == .ok, "length \(length)")
            }
        }
    }

    static func hmsToken(_ n: Int) -> String { "IQAAAACy\(n)AAB+lu/" + String(repeating: "Qx7", count: 40) + "==" }

    /// HMS (`huawei`) tokens beside APNs and FCM ones, as Sendbird takes them: body
    /// `{"huawei_device_token"}`, type `HUAWEI`, their own list, cap and `is_unique`, owner
    /// lookup and removal by type (percent-encoded in paths: they may hold `/` and `+`), remove-all
    /// covering every type; made-up types are 400111.
    @Test func hmsTokensLiveBesideTheOthers() async throws {
        try await LiveRelay.run { relay async throws in
            let hms = { (n: Int) in Self.hmsToken(n) }
            let path = { (n: Int) in Self.hmsToken(n).addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
            try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            try await relay.request(.post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(1))"}"#)
            let added = try await relay.request(.post, "/v3/users/alice/push/huawei", body: #"{"huawei_device_token": "\#(hms(1))"}"#)
            #expect(added.status == .ok, "\(added.text)")
            #expect(added.body["token"] == .string(hms(1)))
            #expect(added.body["type"] == .string("HUAWEI"))
            try await relay.request(.post, "/v3/users/alice/push/HUAWEI", body: #"{"huawei_device_token": "\#(hms(2))"}"#)
            let listed = try await relay.request(.get, "/v3/users/alice/push/huawei")
            #expect(listed.body["tokens"] == .array([.string(hms(1)), .string(hms(2))]))
            #expect(listed.body["type"] == .string("HUAWEI"))

            try await relay.request(
                .post, "/v3/users/alice/push/huawei", body: #"{"huawei_device_token": "\#(hms(3))", "is_unique": true}"#)
            #expect(try await relay.request(.get, "/v3/users/alice/push/huawei").body["tokens"] == .array([.string(hms(3))]))
            #expect(try await relay.request(.get, "/v3/users/alice/push/gcm").body["tokens"] == .array([.string(Self.fcmToken(1))]))

            #expect(try await relay.request(.get, "/v3/push/device_tokens/huawei/\(path(3))").body == json(#"[{"user_id": "alice"}]"#))
            try await relay.request(.post, "/v3/users/bob/push/huawei", body: #"{"huawei_device_token": "\#(hms(3))"}"#)
            #expect(try await relay.request(.get, "/v3/push/device_tokens/huawei/\(path(3))").body == json(#"[{"user_id": "bob"}]"#))
            #expect(try await relay.request(.delete, "/v3/users/bob/push/huawei/\(path(3))").body["token"] == .string(hms(3)))
            try await relay.request(.post, "/v3/users/alice/push/huawei", body: #"{"huawei_device_token": "\#(hms(4))"}"#)
            #expect(try await relay.request(.delete, "/v3/push/device_tokens/huawei/\(path(4))").body == json(#"[{"user_id": "alice"}]"#))

            try await relay.request(.post, "/v3/users/alice/push/huawei", body: #"{"huawei_device_token": "\#(hms(5))"}"#)
            let removed = try await relay.request(.delete, "/v3/users/alice/push")
            #expect(removed.body["token"] == .array([.string(apnsToken(1)), .string(Self.fcmToken(1)), .string(hms(5))]))

            #expect(
                try await relay.request(.post, "/v3/users/alice/push/huawei", body: #"{"huawei_device_token": "short"}"#).code == 400601)
            #expect(
                try await relay.request(.post, "/v3/users/alice/push/huawei", body: #"{"huawei_device_token": "\#(hms(1)) x"}"#).code
                    == 400601)
            #expect(try await relay.request(.post, "/v3/users/alice/push/huawei", body: #"{"gcm_reg_token": "\#(hms(1))"}"#).code == 400105)
            #expect(try await relay.request(.get, "/v3/users/alice/push/made-up").code == 400111)
        }
    }

    static func fcmToken(_ n: Int) -> String { "fcm\(n)Ab_-:" + String(repeating: "Zz9", count: 50) }

    /// FCM (`gcm`) tokens beside APNs ones: Sendbird's bodies and answers, their own list, cap and
    /// `is_unique`, owner lookup and removal by type, case kept.
    @Test func fcmTokensLiveBesideAPNsTokens() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(
                try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#).status
                    == .ok)
            let added = try await relay.request(.post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(1))"}"#)
            #expect(added.body["token"] == .string(Self.fcmToken(1)))
            #expect(added.body["type"] == .string("GCM"))
            _ = try await relay.request(
                .post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(2))", "always_push": true}"#)
            let fcm = try await relay.request(.get, "/v3/users/alice/push/gcm")
            #expect(fcm.body["tokens"] == .array([.string(Self.fcmToken(1)), .string(Self.fcmToken(2))]))
            #expect(fcm.body["type"] == .string("GCM"))
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns").body["tokens"] == .array([.string(apnsToken(1))]))

            // is_unique drops the user's other FCM tokens only.
            _ = try await relay.request(
                .post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(3))", "is_unique": true}"#)
            #expect(try await relay.request(.get, "/v3/users/alice/push/gcm").body["tokens"] == .array([.string(Self.fcmToken(3))]))
            #expect(try await relay.request(.get, "/v3/users/alice/push/apns").body["tokens"] == .array([.string(apnsToken(1))]))

            // Owner lookup and removal go by type; a token moves to its new user.
            #expect(
                try await relay.request(.get, "/v3/push/device_tokens/gcm/\(Self.fcmToken(3))").body == json(#"[{"user_id": "alice"}]"#))
            #expect(try await relay.request(.get, "/v3/push/device_tokens/apns/\(apnsToken(1))").body == json(#"[{"user_id": "alice"}]"#))
            _ = try await relay.request(.post, "/v3/users/bob/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(3))"}"#)
            #expect(try await relay.request(.get, "/v3/push/device_tokens/gcm/\(Self.fcmToken(3))").body == json(#"[{"user_id": "bob"}]"#))
            #expect(
                try await relay.request(.delete, "/v3/push/device_tokens/gcm/\(Self.fcmToken(3))").body == json(#"[{"user_id": "bob"}]"#))
            #expect(try await relay.request(.get, "/v3/users/bob/push/gcm").body["tokens"] == .array([]))

            // Remove all: every type.
            _ = try await relay.request(.post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(4))"}"#)
            let removed = try await relay.request(.delete, "/v3/users/alice/push")
            #expect(removed.body["token"] == .array([.string(apnsToken(1)), .string(Self.fcmToken(4))]))

            #expect(try await relay.request(.post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "short"}"#).code == 400601)
            #expect(
                try await relay.request(.post, "/v3/users/alice/push/gcm", body: #"{"gcm_reg_token": "\#(Self.fcmToken(1))!"}"#).code
                    == 400601)
            #expect(
                try await relay.request(.post, "/v3/users/alice/push/gcm", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#).code
                    == 400105)
        }
    }

    @Test func malformedTokensInPathsAreRemovalFailures() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.post, "/v3/users/alice/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            #expect(try await relay.request(.delete, "/v3/users/alice/push/apns/not-hex").code == 400602)
            #expect(try await relay.request(.delete, "/v3/push/device_tokens/apns/abc").code == 400602)
            #expect(try await relay.request(.get, "/v3/push/device_tokens/apns/abc").code == 400602)
        }
    }

    @Test func percentEncodedUserIDsAreDecoded() async throws {
        try await LiveRelay.run { relay async throws in
            let added = try await relay.request(
                .post, "/v3/users/jane%40example.com%2F1/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            #expect(added.body["user"]?["user_id"] == .string("jane@example.com/1"))
            #expect(try await relay.store.owner(app: TestApps.a.appID, token: apnsToken(1)) == "jane@example.com/1")
            #expect(try await relay.request(.get, "/v3/users/bad%ZZ/push/apns").code == 400111)
            #expect(try await relay.request(.get, "/v3/users/a%00b/push/apns").code == 400151)
            #expect(try await relay.request(.get, "/v3/users/\(String(repeating: "u", count: 256))/push/apns").code == 400110)
        }
    }
}

import Foundation
import Hummingbird
import PushCore
import PushEngine
import PushStore
import StoreContract

/// `/v3/users` and `/v3/users/{user_id}`: Sendbird's user API. Creating a user is optional: tokens
/// and preferences written for a user the relay never saw create them as before, and the
/// webhook names users it may never have seen. Deleting a user erases them (`UserStore.eraseUser`).
extension RESTAPI {
    /// Sendbird's limits on the profile fields, in characters.
    static let maximumNickname = 80
    static let maximumProfileURL = 2_048
    /// `GET /v3/users`: `limit` by default and at most.
    static let defaultUserPage = 10
    static let maximumUserPage = 100

    func registerUserRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.post("users") { request, context in
            let app = try context.requireApp()
            let body = try await request.jsonObject(limit: bodyLimit)
            guard let user = try body.string("user_id") else { throw APIError.missing("user_id") }
            if let problem = IdentifierRules.problem(with: user) { throw APIError.invalidValue("user_id", "must be \(problem)") }
            let nickname = try Self.profileField(body, "nickname", maximum: Self.maximumNickname) ?? ""
            let profileURL = try Self.profileField(body, "profile_url", maximum: Self.maximumProfileURL) ?? ""
            guard let created = try await store.createUser(app: app.appID, user: user, nickname: nickname, profileURL: profileURL)
            else {
                throw APIError(code: .uniqueConstraint, message: "\"user_id\" violates a unique constraint: the user exists.")
            }
            return SendbirdUser(created)
        }

        v3.get("users") { request, context in
            let app = try context.requireApp()
            let limit = try RequestParameter.limit(from: request, default: Self.defaultUserPage, range: 1...Self.maximumUserPage)
            var after: String?
            if let raw = request.uri.queryParameters["token"], !raw.isEmpty {
                guard let last = Self.userID(fromPageToken: String(raw)), IdentifierRules.problem(with: last) == nil
                else { throw APIError.invalidValue("token", "is not a token this listing gave") }
                after = last
            }
            // One more than asked, to know whether there is a next page.
            let users = try await store.users(app: app.appID, after: after, limit: limit + 1)
            let page = users.prefix(limit)
            let next = users.count > limit ? page.last.map { Self.pageToken(after: $0.userID) } ?? "" : ""
            return UserList(users: page.map(SendbirdUser.init), next: next)
        }

        v3.get("users/:user_id") { _, context in
            let (app, user) = try context.requireUser()
            guard let profile = try await store.user(app: app.appID, user: user) else { throw APIError.notFound("User") }
            return SendbirdUser(profile)
        }

        // Changes `nickname`, `profile_url` and `preferred_languages`; Sendbird's other fields are
        // accepted and ignored.
        v3.put("users/:user_id") { request, context in
            let (app, user) = try context.requireUser()
            let body = try await request.jsonObject(limit: bodyLimit)
            let change = UserProfileChange(
                nickname: try Self.profileField(body, "nickname", maximum: Self.maximumNickname),
                profileURL: try Self.profileField(body, "profile_url", maximum: Self.maximumProfileURL),
                languages: try Self.preferredLanguages(body))
            guard let profile = try await store.updateUser(app: app.appID, user: user, change: change)
            else { throw APIError.notFound("User") }
            return SendbirdUser(profile)
        }

        v3.delete("users/:user_id") { _, context in
            let app = try context.requireApp()
            let user = try RequestParameter.decoded("user_id", from: context)
            // An id the store never saw costs a few index probes, and no slot in `ErasedUsers`.
            guard try await store.namesUser(app: app.appID, user: user) else { throw APIError.notFound("User") }
            // Before and after: pushes the dispatcher already holds for the user, accepted up to
            // the erasure's commit, are dropped rather than sent (`ErasedUsers`).
            erasedUsers.erasing(app: app.appID, user: user, nowMs: clock())
            let erased = try await store.eraseUser(app: app.appID, user: user)
            erasedUsers.erasing(app: app.appID, user: user, nowMs: clock())
            guard erased else { throw APIError.notFound("User") }
            context.logger.info("user erased", metadata: ["user": .string(user)])
            return EmptyAnswer()
        }
    }

    /// A page token: the last user id of the page, in hex (opaque to clients, safe in a query).
    static func pageToken(after user: String) -> String {
        user.utf8.map { String(format: "%02x", $0) }.joined()
    }

    static func userID(fromPageToken token: String) -> String? {
        let digits = Array(token.utf8)
        guard digits.count.isMultiple(of: 2), digits.count <= 2 * IdentifierRules.maximumBytes else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func profileField(_ body: JSONObject, _ key: String, maximum: Int) throws(APIError) -> String? {
        guard let value = try body.string(key) else { return nil }
        guard value.count <= maximum else {
            throw APIError(code: .invalidLength, message: "Invalid value: \"\(key)\" may have at most \(maximum) characters.")
        }
        return value
    }

    /// `preferred_languages`: up to four language codes (`PreferredLanguages`); `[]` clears them.
    static func preferredLanguages(_ body: JSONObject) throws(APIError) -> PreferredLanguages? {
        guard let items = try body.array("preferred_languages") else { return nil }
        guard items.count <= PreferredLanguages.maximumCount else {
            throw .invalidValue("preferred_languages", PreferredLanguages.Problem.tooMany(items.count).description)
        }
        var codes: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let code) = item else { throw .wrongType("preferred_languages[\(index)]", expected: .string) }
            codes.append(code)
        }
        do {
            return try PreferredLanguages(codes)
        } catch {
            throw .invalidValue("preferred_languages", error.description)
        }
    }
}

/// `GET /v3/users`: a page, and the token of the next (`""` after the last).
private struct UserList: ResponseEncodable {
    var users: [SendbirdUser]
    var next: String
}

import LogRedaction
import Hummingbird
import PushStore

/// `/v3/users/{user_id}/push/{token_type}…` and `/v3/push/device_tokens/{token_type}/{token}`.
extension RESTAPI {
    func registerDeviceTokenRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.post("users/:user_id/push/:token_type") { request, context in
            let (app, user) = try context.requireUser()
            try Self.requireAPNs(context)
            let body = try await request.jsonObject(limit: bodyLimit)
            guard let raw = try body.string("apns_device_token") else { throw APIError.missing("apns_device_token") }
            let isUnique = try body.bool("is_unique") ?? false
            // `always_push` is what Sendbird's SDKs send; its meaning is undocumented, so it is
            // accepted (and type-checked) but has no effect.
            _ = try body.bool("always_push")
            let token: String
            switch APNsTokenFormat.normalise(raw) {
            case .success(let normalised): token = normalised
            case .failure(let problem):
                throw APIError(code: .tokenRegistrationFailed, message: "Invalid value: \"apns_device_token\" \(problem).")
            }
            let registration = try await store.registerToken(app: app.appID, user: user, token: token, isUnique: isUnique)
            if let previous = registration.previousOwner {
                context.logger.info(
                    "device token moved between users",
                    metadata: [
                        "token": .string(Redaction.redact(token)), "from": .string(previous), "to": .string(user),
                    ])
            }
            return TokenAdded(token: token, type: "APNS", user: SendbirdUser(user))
        }

        v3.get("users/:user_id/push/:token_type") { _, context in
            let (app, user) = try context.requireUser()
            try Self.requireAPNs(context)
            guard let tokens = try await store.tokens(app: app.appID, user: user) else { throw APIError.notFound("User") }
            let list = tokens.map(\.token)
            return TokenList(tokens: list, type: "APNS", user: SendbirdUser(user), token: list)
        }

        v3.delete("users/:user_id/push/:token_type/:token") { _, context in
            let (app, user) = try context.requireUser()
            try Self.requireAPNs(context)
            let token = try Self.pathToken(context)
            guard try await store.userExists(app: app.appID, user: user) else { throw APIError.notFound("User") }
            // Idempotent: removing a token the user does not hold succeeds (an app unregisters
            // on every logout, whether or not the registration ever arrived).
            try await store.removeToken(app: app.appID, user: user, token: token)
            return TokenRemoved(token: token, user: SendbirdUser(user))
        }

        v3.delete("users/:user_id/push") { _, context in
            let (app, user) = try context.requireUser()
            guard try await store.userExists(app: app.appID, user: user) else { throw APIError.notFound("User") }
            let removed = try await store.removeAllTokens(app: app.appID, user: user)
            return TokensRemoved(token: removed, user: SendbirdUser(user))
        }

        v3.get("push/device_tokens/:token_type/:token") { _, context in
            let app = try context.requireApp()
            try Self.requireAPNs(context)
            let token = try Self.pathToken(context)
            let owner = try await store.owner(app: app.appID, token: token)
            return owner.map { [TokenOwner(userID: $0)] } ?? []
        }

        v3.delete("push/device_tokens/:token_type/:token") { _, context in
            let app = try context.requireApp()
            try Self.requireAPNs(context)
            let token = try Self.pathToken(context)
            let owner = try await store.removeTokenFromOwner(app: app.appID, token: token)
            return owner.map { [TokenOwner(userID: $0)] } ?? []
        }
    }

    /// Only `apns` is served; `gcm` and `huawei` are Sendbird types this relay does not deliver to.
    static func requireAPNs(_ context: RelayRequestContext) throws(APIError) {
        let type = try RequestParameter.decoded("token_type", from: context)
        switch type.lowercased() {
        case "apns":
            return
        case "gcm", "huawei":
            throw APIError(
                code: .invalidValue,
                message: "Invalid value: token type \"\(type)\" is not supported: this relay delivers to APNs only (use \"apns\")."
            )
        default:
            throw APIError.invalidValue("token_type", "must be \"apns\" (got \"\(type)\")")
        }
    }

    /// A token in the path, normalised like a registered one.
    static func pathToken(_ context: RelayRequestContext) throws(APIError) -> String {
        let raw = try RequestParameter.decoded("token", from: context)
        switch APNsTokenFormat.normalise(raw) {
        case .success(let token): return token
        case .failure(let problem):
            throw APIError(code: .tokenRemovalFailed, message: "Invalid value: \"token\" \(problem).")
        }
    }
}

/// `POST …/push/apns`: the registered token.
private struct TokenAdded: ResponseEncodable {
    var token: String
    var type: String
    var user: SendbirdUser
}

/// `GET …/push/apns`; `token` is Sendbird's deprecated copy of `tokens`.
private struct TokenList: ResponseEncodable {
    var tokens: [String]
    var type: String
    var user: SendbirdUser
    var token: [String]
}

/// `DELETE …/push/apns/{token}`. `token` is a string, as Sendbird's doc table and SDK model
/// type it (one doc example shows a list; the SDK rejects that).
private struct TokenRemoved: ResponseEncodable {
    var token: String
    var user: SendbirdUser
}

/// `DELETE …/push`: every removed token.
private struct TokensRemoved: ResponseEncodable {
    var token: [String]
    var user: SendbirdUser
}

/// One element of the owner lookup / removal answer, a list as Sendbird's SDK models it
/// (one doc page shows a bare object; the SDK rejects that).
private struct TokenOwner: ResponseEncodable {
    var userID: String
    enum CodingKeys: String, CodingKey { case userID = "user_id" }
}

import Hummingbird
import LogRedaction
import ProviderDriver
import PushCore
import PushStore
import StoreContract

/// `/v3/users/{user_id}/push/{token_type}…` and `/v3/push/device_tokens/{token_type}/{token}`.
extension RESTAPI {
    /// A user's device tokens: register, list, remove one, remove all.
    func registerDeviceTokenRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.post("users/:user_id/push/:token_type") { request, context in
            let (app, user) = try context.requireUser()
            let provider = try Self.provider(context)
            let body = try await request.jsonObject(limit: bodyLimit)
            let isUnique = try body.bool("is_unique") ?? false
            // `always_push` is what Sendbird's SDKs send; its meaning is undocumented, so it is
            // accepted (and type-checked) but has no effect.
            _ = try body.bool("always_push")
            let token = try Self.registeredToken(body, provider: provider)
            let configuration = try Self.registeredConfiguration(body, settings: app.providers[provider.id], provider: provider)
            // The app's own rules when it configures the provider, else the format's defaults (a
            // subscription naming an internal address is refused either way).
            let refusal = app.providers[provider.id].map { $0.refusal(of: token) } ?? provider.tokenFormat.defaultRefusal(of: token)
            if let refusal {
                throw APIError(code: .tokenRegistrationFailed, message: "Invalid value: \"\(provider.tokenField)\" \(refusal).")
            }
            // A device's own session registers its own device; only the app's server moves a
            // token from another user (one device, one user): a session token that learned
            // another user's token must not take that user's pushes.
            let registration: TokenRegistration
            do {
                registration = try await store.registerToken(
                    app: app.appID, user: user, token: token, isUnique: isUnique, provider: provider.id,
                    movesFromOtherUsers: !context.isSessionCaller, configuration: configuration)
            } catch PushStoreError.heldByAnotherUser {
                throw APIError.notAccessible(
                    "the device token is registered to another user; the app's server (\"Api-Token\") can move it")
            }
            if let previous = registration.previousOwner {
                context.logger.info(
                    "device token moved between users",
                    metadata: [
                        "token": .string(Redaction.redact(token)), "from": .string(previous), "to": .string(user),
                    ])
            }
            return TokenAdded(
                token: token, type: provider.sendbirdType, user: SendbirdUser(user),
                pushConfiguration: registration.token.configuration)
        }

        v3.get("users/:user_id/push/:token_type") { _, context in
            let (app, user) = try context.requireUser()
            let provider = try Self.provider(context)
            guard let tokens = try await store.tokens(app: app.appID, user: user) else { throw APIError.notFound("User") }
            let list = tokens.filter { $0.provider == provider.id }.map(\.token)
            return TokenList(tokens: list, type: provider.sendbirdType, user: SendbirdUser(user), token: list)
        }

        v3.delete("users/:user_id/push/:token_type/:token") { _, context in
            let (app, user) = try context.requireUser()
            let provider = try Self.provider(context)
            let token = try Self.pathToken(context, provider: provider)
            guard try await store.userExists(app: app.appID, user: user) else { throw APIError.notFound("User") }
            // Idempotent: removing a token the user does not hold succeeds (an app unregisters
            // on every logout, whether or not the registration ever arrived).
            try await store.removeToken(app: app.appID, user: user, token: token, provider: provider.id)
            return TokenRemoved(token: token, user: SendbirdUser(user))
        }

        // Every token of the user, of every type (Sendbird's "remove all").
        v3.delete("users/:user_id/push") { _, context in
            let (app, user) = try context.requireUser()
            guard try await store.userExists(app: app.appID, user: user) else { throw APIError.notFound("User") }
            let removed = try await store.removeAllTokens(app: app.appID, user: user)
            return TokensRemoved(token: removed, user: SendbirdUser(user))
        }
    }

    /// `/v3/push/device_tokens/{token_type}/{token}`: who holds a token, and taking it from them
    /// (the app's server only).
    func registerTokenOwnerRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("push/device_tokens/:token_type/:token") { _, context in
            let app = try context.requireApp()
            let provider = try Self.provider(context)
            let token = try Self.pathToken(context, provider: provider)
            let owner = try await store.owner(app: app.appID, token: token, provider: provider.id)
            return owner.map { [TokenOwner(userID: $0)] } ?? []
        }

        v3.delete("push/device_tokens/:token_type/:token") { _, context in
            let app = try context.requireApp()
            let provider = try Self.provider(context)
            let token = try Self.pathToken(context, provider: provider)
            let owner = try await store.removeTokenFromOwner(app: app.appID, token: token, provider: provider.id)
            return owner.map { [TokenOwner(userID: $0)] } ?? []
        }
    }

    /// `GET /v3/applications/push/{token_type}`: what a client needs to register with the app's
    /// settings of a provider (a public key it subscribes with), public values only: a device's
    /// own session may read them.
    func registerPushConfigurationRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("applications/push/:token_type") { _, context in
            let app = try context.requireDevice().app
            let provider = try Self.provider(context)
            let configurations = app.providers[provider.id].map { settings in
                [PushConfiguration(pushType: provider.sendbirdType, settings: settings.clientSettings)]
            }
            return PushConfigurations(pushConfigurations: configurations ?? [])
        }
    }

    /// The path's `{token_type}`, any case: a provider's Sendbird name (`ProviderDescription.sendbirdPath`).
    static func provider(_ context: RelayRequestContext) throws(APIError) -> ProviderDescription {
        let type = try RequestParameter.decoded("token_type", from: context)
        if let provider = ProviderCatalog.installed.provider(sendbirdPath: type) { return provider }
        let names = ProviderCatalog.installed.descriptions.map { "\"\($0.sendbirdPath)\"" }
        throw APIError.invalidValue("token_type", "must be \(names.joinedWithOr) (got \"\(LogText.cut(type))\")")
    }

    /// The token a registration body carries in the provider's field: a string, or what the
    /// provider's format reads from an object (a browser's subscription).
    static func registeredToken(_ body: JSONObject, provider: ProviderDescription) throws(APIError) -> String {
        let field = provider.tokenField
        guard let value = body.fields[field], !value.isNull else { throw APIError.missing(field) }
        if case .string(let raw) = value {
            return try normalise(raw, provider: provider, field: field, code: .tokenRegistrationFailed)
        }
        switch provider.tokenFormat.token(registering: value) {
        case nil: throw APIError.wrongType(field, expected: .string)
        case .success(let token)?: return token
        case .failure(let problem)?: throw APIError(code: .tokenRegistrationFailed, message: "Invalid value: \"\(field)\" \(problem).")
        }
    }

    /// `push_configuration`: which of the app's named configurations of the provider the token
    /// belongs to (an APNs debug build's sandbox one); absent: as registered before, else the
    /// default. A name the app does not have is refused, so a typo cannot strand a device.
    static func registeredConfiguration(_ body: JSONObject, settings: (any ProviderSettings)?, provider: ProviderDescription)
        throws(APIError) -> String?
    {
        guard let name = try body.string("push_configuration") else { return nil }
        let names = settings?.configurationNames ?? []
        guard names.contains(where: { $0.utf8.elementsEqual(name.utf8) }) else {
            let known = names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", ")
            throw APIError.invalidValue(
                "push_configuration",
                "is not one of the app's \(provider.displayName) configurations (\(known))")
        }
        return name
    }

    /// A token in the path, normalised like a registered one of `provider` (as long as its
    /// format allows: a token carrying a subscription is longer than an id).
    static func pathToken(_ context: RelayRequestContext, provider: ProviderDescription) throws(APIError) -> String {
        guard let raw = context.parameters.get("token") else { throw APIError.missing("token") }
        guard let text = RequestParameter.percentDecoded(raw) else { throw APIError.invalidValue("token", "is not valid percent-encoding") }
        guard !text.isEmpty, text.utf8.count <= provider.tokenFormat.maximumBytes else {
            throw APIError.tooLong("token", maximumBytes: provider.tokenFormat.maximumBytes)
        }
        return try normalise(text, provider: provider, field: "token", code: .tokenRemovalFailed)
    }

    /// `raw` as stored, by the provider's token format.
    static func normalise(_ raw: String, provider: ProviderDescription, field: String, code: SendbirdErrorCode) throws(APIError)
        -> String
    {
        switch provider.tokenFormat.normalise(raw) {
        case .success(let token): return token
        case .failure(let problem): throw APIError(code: code, message: "Invalid value: \"\(field)\" \(problem).")
        }
    }
}

/// `POST …/push/{token_type}`: the registered token.
private struct TokenAdded: ResponseEncodable {
    var token: String
    var type: String
    var user: SendbirdUser
    /// The configuration the token is registered to, when it names one (absent: the default).
    var pushConfiguration: String?

    enum CodingKeys: String, CodingKey {
        case token, type, user
        case pushConfiguration = "push_configuration"
    }
}

/// `GET …/push/{token_type}`; `token` is Sendbird's deprecated copy of `tokens`.
private struct TokenList: ResponseEncodable {
    var tokens: [String]
    var type: String
    var user: SendbirdUser
    var token: [String]
}

/// `DELETE …/push/{token_type}/{token}`. `token` is a string, as Sendbird's doc table and SDK model
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

/// `GET /v3/applications/push/{token_type}`: the app's configuration of that provider, if any.
private struct PushConfigurations: ResponseEncodable {
    var pushConfigurations: [PushConfiguration]

    enum CodingKeys: String, CodingKey {
        case pushConfigurations = "push_configurations"
    }
}

private struct PushConfiguration: Encodable {
    var pushType: String
    var settings: [String: String]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        try container.encode(pushType, forKey: DynamicKey("push_type"))
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) { try container.encode(value, forKey: DynamicKey(key)) }
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

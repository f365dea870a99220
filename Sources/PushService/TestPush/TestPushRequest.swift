import ProviderDriver
import PushCore

/// What a test push is asked to do (`POST /v3/push/test`'s body, `push-relay test-push`'s
/// options): to whom, with what text. Built only checked, so both doors refuse the same input
/// with the same words.
public struct TestPushRequest: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        /// Every device token the user holds, of every provider.
        case user(String)
        /// One device token, whoever holds it (or nobody): normalised as registered ones are.
        case device(PushProvider, token: String)
    }

    public var target: Target
    public var message: String
    public var title: String?

    public static let defaultMessage = "PushRelay test push"
    /// The longest message or title, in UTF-8 bytes (Sendbird's limit for a push template's text).
    public static let maximumTextBytes = TextLimits.templateBytes

    /// - Parameters:
    ///   - user: a user id; or else
    ///   - tokenType: `apns`, `gcm` (or `fcm`), `huawei` (or `hms`), with `deviceToken`.
    ///   - message: the alert text (`defaultMessage` when nil).
    /// - Throws: `APIError` naming the field at fault (REST answers it; the CLI prints it).
    public init(user: String?, tokenType: String?, deviceToken: String?, message: String?, title: String?) throws(APIError) {
        switch (user, tokenType, deviceToken) {
        case (nil, nil, nil):
            throw APIError(code: .requiredFieldMissing, message: "\"user_id\", or \"token_type\" with \"device_token\", is required.")
        case (_?, _, _?), (_?, _?, _):
            throw .invalidValue("user_id", "cannot be given with \"token_type\" or \"device_token\": test one user or one device")
        case (let user?, nil, nil):
            target = .user(try Self.checkedUser(user))
        case (nil, nil, _?):
            throw .missing("token_type")
        case (nil, _?, nil):
            throw .missing("device_token")
        case (nil, let type?, let token?):
            let provider = try Self.provider(named: type)
            target = .device(provider, token: try Self.normalised(token, provider: provider))
        }
        self.message = try Self.checkedText(message ?? Self.defaultMessage, field: "message")
        self.title = try title.map { text throws(APIError) in try Self.checkedText(text, field: "title") }
        // Every provider's limit, whichever the device's: the CLI checks before it reads the configuration.
        let formats = ProviderCatalog.installed.descriptions.map(\.payloadFormat)
        guard TestPushPayload.fits(message: self.message, title: self.title, formats: formats) else {
            throw APIError(
                code: .invalidLength,
                message: "Invalid value: \"message\" and \"title\" make a push larger than \(TestPushPayload.maximumBytes) bytes.")
        }
    }

    /// A token type as Sendbird's paths name it (`apns`, `gcm`, `huawei`) or as the relay does
    /// (`fcm`, `hms`), any case.
    static func provider(named name: String) throws(APIError) -> PushProvider {
        let catalog = ProviderCatalog.installed
        if let provider = catalog.provider(sendbirdPath: name)?.id { return provider }
        if let provider = PushProvider(rawValue: name.lowercased()), catalog.description(of: provider) != nil { return provider }
        let names = catalog.descriptions.map { "\"\($0.sendbirdPath)\"" }
        throw .invalidValue("token_type", "must be \(names.joinedWithOr) (got \"\(LogText.cut(LogText.escape(name)))\")")
    }

    private static func checkedUser(_ user: String) throws(APIError) -> String {
        guard !user.isEmpty, user.utf8.count <= IdentifierRules.maximumBytes else {
            throw .tooLong("user_id", maximumBytes: IdentifierRules.maximumBytes)
        }
        guard IdentifierRules.problem(with: user) == nil else {
            throw APIError(code: .notAllowedCharacters, message: "Invalid value: \"user_id\" contains control characters.")
        }
        return user
    }

    /// The token as the store keeps it, by the provider's token format.
    private static func normalised(_ token: String, provider: PushProvider) throws(APIError) -> String {
        guard let description = ProviderCatalog.installed.description(of: provider) else { throw .invalidValue("token_type", "is unknown") }
        switch description.tokenFormat.normalise(token) {
        case .success(let token): return token
        case .failure(let problem):
            throw .invalidValue("device_token", "is not a valid \(description.displayName) device token: it \(problem)")
        }
    }

    private static func checkedText(_ text: String, field: String) throws(APIError) -> String {
        guard !text.isEmpty, text.utf8.count <= maximumTextBytes else { throw .tooLong(field, maximumBytes: maximumTextBytes) }
        guard !text.utf8.contains(0) else {
            throw APIError(code: .notAllowedCharacters, message: "Invalid value: \"\(field)\" contains a NUL character.")
        }
        return text
    }
}

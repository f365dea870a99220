/// The `code` of a Sendbird error body. Values from the "Server error codes" table of Sendbird's iOS SDK v3
/// guide and, for 400309, 400401 and 400403, the constants of Sendbird's own SDKs
/// (`sessionKeyExpired`, `ErrorCode.invalidApiToken`, `ErrorCode.invalidJsonBody`).
public struct SendbirdErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 400100 "String value is required": a field that must be a string is not.
    public static let stringRequired = SendbirdErrorCode(rawValue: 400100)
    /// 400101 "Number value is required".
    public static let numberRequired = SendbirdErrorCode(rawValue: 400101)
    /// 400102 "List value is required".
    public static let listRequired = SendbirdErrorCode(rawValue: 400102)
    /// 400103 "Json value is required": a field that must be an object is not.
    public static let jsonRequired = SendbirdErrorCode(rawValue: 400103)
    /// 400104 "Boolean value is required".
    public static let booleanRequired = SendbirdErrorCode(rawValue: 400104)
    /// 400105 "Not all the required fields are arrived".
    public static let requiredFieldMissing = SendbirdErrorCode(rawValue: 400105)
    /// 400106 "Value must be a positive number".
    public static let positiveNumberRequired = SendbirdErrorCode(rawValue: 400106)
    /// 400108 "User doesn't have an access to channels or messages": the credential is valid
    /// but may not do this (a session token outside its own user, a secondary API token
    /// managing API tokens). HTTP 403.
    public static let notAccessible = SendbirdErrorCode(rawValue: 400108)
    /// 400110 "Length of value is not valid" (also a request body over the size limit).
    public static let invalidLength = SendbirdErrorCode(rawValue: 400110)
    /// 400111 "Parameter Error": a value of the right type that is not allowed (out of range,
    /// unknown enum value, unknown time zone, unsupported token type).
    public static let invalidValue = SendbirdErrorCode(rawValue: 400111)
    /// 400151 "Not allowed characters".
    public static let notAllowedCharacters = SendbirdErrorCode(rawValue: 400151)
    /// 400201 "Object not found": an unknown user, template or path.
    public static let notFound = SendbirdErrorCode(rawValue: 400201)
    /// 400202 "Violates unique constraint" (a user that exists already).
    public static let uniqueConstraint = SendbirdErrorCode(rawValue: 400202)
    /// 400302 "Invalid access token": the `Session-Token` is malformed, unknown or revoked
    /// (HTTP 401). Sendbird's SDKs call it `accessTokenNotValid`.
    public static let invalidSessionToken = SendbirdErrorCode(rawValue: 400302)
    /// 400309 the `Session-Token` has expired (HTTP 401): Sendbird's SDKs' `sessionKeyExpired`,
    /// on which they ask the app for a new token.
    public static let sessionTokenExpired = SendbirdErrorCode(rawValue: 400309)
    /// 400401 the `Api-Token` header is missing or wrong (HTTP 401).
    public static let invalidAPIToken = SendbirdErrorCode(rawValue: 400401)
    /// 400403 the body is not valid JSON, or not a JSON object.
    public static let invalidJSONBody = SendbirdErrorCode(rawValue: 400403)
    /// 400601 "The push token registration failure": the token to register is malformed.
    public static let tokenRegistrationFailed = SendbirdErrorCode(rawValue: 400601)
    /// 400602 "The push token removal failure": the token to remove is malformed.
    public static let tokenRemovalFailed = SendbirdErrorCode(rawValue: 400602)
    /// 500910 "Rate limit exceeded" (HTTP 429, with `Retry-After`), as Sendbird's Platform API
    /// answers a caller over its rate.
    public static let rateLimitExceeded = SendbirdErrorCode(rawValue: 500910)
    /// 500901 "Unexpected errors": the relay's own failure (HTTP 500), never a client mistake.
    public static let unexpected = SendbirdErrorCode(rawValue: 500901)

    public var description: String { String(rawValue) }
}

import Hummingbird

/// A failed REST request, answered as Sendbird does:
/// `{"message": "...", "code": 400xxx, "error": true}` with an HTTP 4xx (5xx only for the
/// relay's own failures). The message names the field or thing that is wrong.
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    public var status: HTTPResponse.Status
    public var code: SendbirdErrorCode
    public var message: String
    /// `Retry-After` for a 503 that asks the caller to come back (Sendbird retries webhooks).
    public var retryAfterSeconds: Int?

    public init(
        status: HTTPResponse.Status = .badRequest, code: SendbirdErrorCode, message: String,
        retryAfterSeconds: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    // MARK: Named cases (one place decides which code each mistake gets)

    static func wrongType(_ field: String, expected: JSONObject.Kind) -> APIError {
        let code: SendbirdErrorCode =
            switch expected {
            case .string: .stringRequired
            case .integer, .number: .numberRequired
            case .array: .listRequired
            case .object: .jsonRequired
            case .bool: .booleanRequired
            case .null: .invalidValue
            }
        return APIError(code: code, message: "Invalid value: \"\(field)\" must be \(expected.phrase).")
    }

    static func missing(_ field: String) -> APIError {
        APIError(code: .requiredFieldMissing, message: "\"\(field)\" is required.")
    }

    static func invalidValue(_ field: String, _ reason: String) -> APIError {
        APIError(code: .invalidValue, message: "Invalid value: \"\(field)\" \(reason).")
    }

    static func negative(_ field: String) -> APIError {
        APIError(code: .positiveNumberRequired, message: "Invalid value: \"\(field)\" must not be negative.")
    }

    static func tooLong(_ field: String, maximumBytes: Int) -> APIError {
        APIError(code: .invalidLength, message: "Invalid value: \"\(field)\" must be 1 to \(maximumBytes) bytes long.")
    }

    static func notFound(_ what: String) -> APIError {
        APIError(code: .notFound, message: "\"\(what)\" not found.")
    }

    static func invalidJSON(_ reason: String) -> APIError {
        APIError(code: .invalidJSONBody, message: "Invalid JSON request body: \(reason).")
    }

    static let invalidAPIToken = APIError(
        status: .unauthorized, code: .invalidAPIToken, message: "Invalid value: \"Api-Token\".")

    static let invalidSessionToken = APIError(
        status: .unauthorized, code: .invalidSessionToken, message: "Invalid value: \"Session-Token\".")
    /// The relay cannot confirm a credential's state with the database now (it is out of reach):
    /// refused rather than risk honouring a revoked one; the caller retries.
    static let credentialsUnverifiable = APIError(
        status: .serviceUnavailable, code: .unexpected,
        message: "The relay cannot check this credential with its database right now; retry later.", retryAfterSeconds: 1)

    static let sessionTokenExpired = APIError(
        status: .unauthorized, code: .sessionTokenExpired, message: "\"Session-Token\" has expired; ask the app's server for a new one.")

    static func notAccessible(_ reason: String) -> APIError {
        APIError(status: .forbidden, code: .notAccessible, message: "Not accessible: \(reason).")
    }

    static func bodyTooLarge(limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: .invalidLength, message: "Request body is larger than \(limit) bytes.")
    }

    static let unexpected = APIError(
        status: .internalServerError, code: .unexpected, message: "Unexpected error; the relay's log has the details.")
}

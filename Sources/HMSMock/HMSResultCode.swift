/// The result codes HMS Push Kit's `messages:send` answers in its body (`"code"`), and the HTTP status
/// each comes with.
///
/// Sources: Huawei's reference "Sending Downlink Messages" (developer.huawei.com, HMSCore-References
/// `https-send-api-0000001050986197`): its result-code table (the codes' meanings, 80300008's limit of
/// 4,096 bytes "excluding the token", the `msg` of 80100000 as a JSON string with `success`, `failure`
/// and `illegal_tokens`) and its HTTP status table (200 success, 400 parameter error, 401 authentication
/// failure, 404 service not found, 500 internal error, 503 flow control). The HarmonyOS Push Kit response
/// reference (`push-scenariozed-api-response`) repeats both tables.
///
/// Huawei lists the codes and the statuses apart without pairing them; each code's status here follows
/// the status table's meanings. 80100000 and 80300007 come with 200: the request was processed and
/// the code reports how its tokens fared. A client should classify by `code` whatever the status.
enum HMSResultCode: String, Sendable, CaseIterable {
    case success = "80000000"
    /// Some tokens took the message; `msg` names the others (`illegal_tokens`).
    case partialSuccess = "80100000"
    /// A parameter's value is wrong (urgency, TTL, a `data` that is not a JSON object).
    case parameterError = "80100001"
    /// The body is not the message structure (not JSON, no `message`, a field of the wrong type).
    case incorrectMessageStructure = "80100003"
    /// No, an unknown or another app's access token.
    case oauthAuthenticationError = "80200001"
    case oauthTokenExpired = "80200003"
    case allTokensInvalid = "80300007"
    /// More than 4,096 bytes of message, tokens excluded.
    case messageTooLarge = "80300008"
    /// No token, or more than 1,000.
    case tokenCountOutOfRange = "80300010"
    case internalError = "81000001"

    var httpStatus: Int {
        switch self {
        case .success, .partialSuccess, .allTokensInvalid: 200
        case .parameterError, .incorrectMessageStructure, .messageTooLarge, .tokenCountOutOfRange: 400
        case .oauthAuthenticationError, .oauthTokenExpired: 401
        case .internalError: 500
        }
    }

    /// Huawei's wording, where a refusal carries no detail of its own.
    var defaultMessage: String {
        switch self {
        case .success: "Success"
        case .partialSuccess: "Some tokens failed"
        case .parameterError: "Some request parameters are incorrect"
        case .incorrectMessageStructure: "Incorrect message structure"
        case .oauthAuthenticationError: "Oauth authentication error"
        case .oauthTokenExpired: "Oauth Token expired"
        case .allTokensInvalid: "All the tokens are invalid"
        case .messageTooLarge: "The message body size exceeds the default value"
        case .tokenCountOutOfRange: "The number of tokens in the message body exceeds the default value"
        case .internalError: "Internal system error"
        }
    }
}

/// The `code` of HMS Push Kit's answers (Huawei's "Push Kit server API result codes"), the ones
/// the relay acts on; any other is `unknown` and judged by its HTTP status.
public enum HMSResultCode: Sendable, Hashable, CustomStringConvertible {
    /// 80000000: accepted.
    case success
    /// 80100000: accepted for some tokens; `msg` lists the `illegal_tokens`.
    case partialSuccess
    /// 80100001: a parameter is wrong.
    case parameterError
    /// 80100003: the message's structure is wrong.
    case incorrectMessage
    /// 80100004: the TTL is shorter than now allows.
    case badTTL
    /// 80200001: the OAuth credentials are wrong.
    case authenticationFailed
    /// 80200003: the access token expired.
    case accessTokenExpired
    /// 80300002: the app may not send to these tokens.
    case noPermission
    /// 80300007: every token is invalid.
    case allTokensInvalid
    /// 80300008: the message is larger than HMS takes.
    case messageTooLarge
    /// 80300010: more tokens than one request may name.
    case tooManyTokens
    /// 81000001: HMS's own failure.
    case internalError
    case unknown(String)

    public init(_ raw: String) {
        switch raw {
        case "80000000": self = .success
        case "80100000": self = .partialSuccess
        case "80100001": self = .parameterError
        case "80100003": self = .incorrectMessage
        case "80100004": self = .badTTL
        case "80200001": self = .authenticationFailed
        case "80200003": self = .accessTokenExpired
        case "80300002": self = .noPermission
        case "80300007": self = .allTokensInvalid
        case "80300008": self = .messageTooLarge
        case "80300010": self = .tooManyTokens
        case "81000001": self = .internalError
        default: self = .unknown(raw)
        }
    }

    public var rawValue: String {
        switch self {
        case .success: "80000000"
        case .partialSuccess: "80100000"
        case .parameterError: "80100001"
        case .incorrectMessage: "80100003"
        case .badTTL: "80100004"
        case .authenticationFailed: "80200001"
        case .accessTokenExpired: "80200003"
        case .noPermission: "80300002"
        case .allTokensInvalid: "80300007"
        case .messageTooLarge: "80300008"
        case .tooManyTokens: "80300010"
        case .internalError: "81000001"
        case .unknown(let raw): raw
        }
    }

    /// As a metric label: the codes above, or `other`.
    public var label: String {
        if case .unknown = self { return "other" }
        return rawValue
    }

    public var description: String { rawValue }
}

import MockSupport

/// How one request's device tokens fare: those marked invalid (admin) or malformed are illegal,
/// the rest take the message. Decided without I/O; the result code follows from the split.
struct TokenDelivery: Sendable, Equatable {
    var delivered: [String]
    var illegal: [String]

    init(tokens: [String], invalid: Set<String>) {
        delivered = []
        illegal = []
        for token in tokens {
            if invalid.contains(token) || !Self.isWellFormed(token: token) {
                illegal.append(token)
            } else {
                delivered.append(token)
            }
        }
    }

    /// 80000000 when every token took it, 80300007 when none did, 80100000 in between.
    var code: HMSResultCode {
        if illegal.isEmpty { return .success }
        return delivered.isEmpty ? .allTokensInvalid : .partialSuccess
    }

    /// Push tokens are printable base64-like text; whitespace or an empty string is Huawei's `tokenFormatError`.
    static func isWellFormed(token: String) -> Bool {
        TokenCharacters.isWellFormed(token, alsoAllowing: "+/=")
    }
}

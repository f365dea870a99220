import Foundation
import MockSupport

/// Checks a `messages:send` body as HMS Push Kit does, for what the relay sends: a data message
/// (`message.data`, a string holding a JSON object) to a `token` array of 1 to 1,000 tokens, within
/// Huawei's 4,096 bytes without the tokens, with valid `android` options. Refusals carry Huawei's code:
/// 80100003 for a body that is not the message structure, 80100001 for a wrong value, 80300010 for the
/// token count, 80300008 for the size. A token's own form is not checked here: a malformed token is an
/// illegal token (80300007 / 80100000), as Huawei reports `tokenFormatError`.
enum HMSMessageValidator {
    struct Message: Sendable, Equatable {
        var tokens: [String]
        var data: JSONValue
        var android: RecordedMessage.Android?
        var validateOnly: Bool
    }

    /// What is wrong, as the result code and `msg` the answer carries.
    struct Refusal: Error, Sendable, Equatable {
        var code: HMSResultCode
        var message: String
    }

    /// Huawei's limit on a message, tokens excluded (80300008).
    static let maximumMessageBytes = 4096
    /// Tokens one request may name (80300010).
    static let maximumTokens = 1000

    private struct Body: Decodable {
        var message: Payload?
        var validate_only: Bool?
    }

    private struct Payload: Decodable {
        var data: String?
        var token: [String]?
        var topic: String?
        var condition: String?
        var android: AndroidConfig?
    }

    private struct AndroidConfig: Decodable {
        var urgency: String?
        var ttl: String?
        var category: String?
    }

    static func validate(body: Data) -> Result<Message, Refusal> {
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: body)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return .failure(Refusal(code: .incorrectMessageStructure, message: "Incorrect message structure: \(field)"))
        } catch {
            return .failure(Refusal(code: .incorrectMessageStructure, message: "Incorrect message structure: not JSON"))
        }
        guard let message = decoded.message else {
            return .failure(Refusal(code: .incorrectMessageStructure, message: "Incorrect message structure: message is required"))
        }
        guard message.topic == nil, message.condition == nil else {
            return .failure(Refusal(code: .parameterError, message: "hms-mock takes token messages, not topic or condition"))
        }
        guard let tokens = message.token, (1...maximumTokens).contains(tokens.count) else {
            return .failure(Refusal(code: .tokenCountOutOfRange, message: HMSResultCode.tokenCountOutOfRange.defaultMessage))
        }
        let bytes = body.count - tokens.reduce(0) { $0 + $1.utf8.count }
        guard bytes <= maximumMessageBytes else {
            return .failure(
                Refusal(code: .messageTooLarge, message: "The message body size \(bytes) exceeds the default value \(maximumMessageBytes)"))
        }
        return validateContent(message).map { data, android in
            Message(tokens: tokens, data: data, android: android, validateOnly: decoded.validate_only ?? false)
        }
    }

    private static func validateContent(_ message: Payload) -> Result<(JSONValue, RecordedMessage.Android?), Refusal> {
        guard let text = message.data else {
            return .failure(Refusal(code: .parameterError, message: "message.data is required (hms-mock takes data messages)"))
        }
        guard let data = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), case .object = data else {
            return .failure(Refusal(code: .parameterError, message: "message.data must be a JSON string holding an object"))
        }
        guard let options = message.android else { return .success((data, nil)) }
        if let urgency = options.urgency, !["HIGH", "NORMAL"].contains(urgency) {
            return .failure(Refusal(code: .parameterError, message: "message.android.urgency must be HIGH or NORMAL"))
        }
        if let ttl = options.ttl, !isDuration(ttl) {
            return .failure(Refusal(code: .parameterError, message: "message.android.ttl must be seconds, like 86400s"))
        }
        return .success((data, RecordedMessage.Android(urgency: options.urgency, ttl: options.ttl, category: options.category)))
    }

    /// A TTL as Huawei's own SDKs accept it: seconds, at most 9 fraction digits, an optional `s` or `S`
    /// (`"86400s"`, `"20"`, `"3.5S"`).
    static func isDuration(_ text: String) -> Bool {
        var number = Substring(text)
        if number.hasSuffix("s") || number.hasSuffix("S") { number = number.dropLast() }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        func digits(_ part: Substring) -> Bool { !part.isEmpty && part.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard digits(parts[0]), parts[0].count <= 10 else { return false }
        return parts.count == 1 || (digits(parts[1]) && parts[1].count <= 9)
    }
}

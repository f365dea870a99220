import Foundation
import MockSupport

/// Checks a `messages:send` body as FCM HTTP v1 does, for what the relay sends: one `message`
/// to one `token`, a `data` map of strings (a number or object there is refused) within 4,096 bytes and without reserved keys, and
/// valid `android` options. Anything else is 400 `INVALID_ARGUMENT` with Google's wording.
enum FCMMessageValidator {
    struct Message: Sendable, Equatable {
        var token: String
        var data: [String: String]
        var android: RecordedMessage.Android?
        var validateOnly: Bool
    }

    /// FCM's limit on a data message (keys and values).
    static let maximumDataBytes = 4096
    /// Longest TTL FCM takes: 28 days.
    static let maximumTTLSeconds = 2_419_200

    private struct Body: Decodable {
        var message: Payload?
        var validate_only: Bool?
        var validateOnly: Bool?
    }

    private struct Payload: Decodable {
        var token: String?
        var topic: String?
        var condition: String?
        var data: [String: String]?
        var android: AndroidOptions?
    }

    private struct AndroidOptions: Decodable {
        var priority: String?
        var ttl: String?
    }

    static func validate(body: Data) -> Result<Message, FCMMockAnswer> {
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: body)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return .failure(.invalidArgument("Invalid value at '\(field)'"))
        } catch {
            return .failure(.invalidArgument("Invalid JSON payload received."))
        }
        guard let message = decoded.message else {
            return .failure(.invalidArgument("Request contains an invalid argument: message is required."))
        }
        guard message.topic == nil, message.condition == nil, let token = message.token else {
            return .failure(.invalidArgument("Exactly one of token, topic or condition must be specified (fcm-mock takes token)."))
        }
        // Registration tokens are URL-safe text; anything else is refused before a lookup.
        guard TokenCharacters.isWellFormed(token) else {
            return .failure(.invalidArgument("The registration token is not a valid FCM registration token"))
        }
        let data = message.data ?? [:]
        if let key = data.keys.first(where: isReserved) {
            return .failure(.invalidArgument("Invalid data payload key: \(key)"))
        }
        let dataBytes = data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard dataBytes <= maximumDataBytes else {
            return .failure(.invalidArgument("Android message is too big (\(dataBytes) data bytes, at most \(maximumDataBytes))"))
        }
        var android: RecordedMessage.Android?
        if let options = message.android {
            var parsed = RecordedMessage.Android()
            if let priority = options.priority {
                guard ["high", "normal", "HIGH", "NORMAL"].contains(priority) else {
                    return .failure(.invalidArgument("Invalid value at 'message.android.priority' (AndroidMessagePriority)"))
                }
                parsed.priority = priority.lowercased()
            }
            if let ttl = options.ttl {
                guard let seconds = durationSeconds(ttl) else {
                    return .failure(.invalidArgument("Invalid value at 'message.android.ttl' (google.protobuf.Duration)"))
                }
                guard seconds <= Double(maximumTTLSeconds) else {
                    return .failure(.invalidArgument("message.android.ttl must be at most 2419200s (28 days)"))
                }
                parsed.ttl = ttl
            }
            android = parsed
        }
        return .success(
            Message(token: token, data: data, android: android, validateOnly: decoded.validate_only ?? decoded.validateOnly ?? false))
    }

    /// Keys FCM keeps for itself.
    static func isReserved(_ key: String) -> Bool {
        ["from", "notification", "message_type"].contains(key) || key.hasPrefix("google.") || key.hasPrefix("gcm.")
    }

    /// A protobuf Duration in JSON: `"86400s"`, `"3.5s"`.
    static func durationSeconds(_ text: String) -> Double? {
        guard text.hasSuffix("s") else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            number.filter({ $0 == "." }).count <= 1, let value = Double(number)
        else { return nil }
        return value
    }
}

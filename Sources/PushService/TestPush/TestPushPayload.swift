import Foundation
import PushCore

/// What a test push carries: the text alone, in each provider's form, marked as a test.
///
/// - APNs: `{"aps":{"alert":…,"sound":"default"},"push_relay":{"test":true}}`, the alert a string,
///   or `{"title","body"}` with a title. iOS shows it without the app's help.
/// - FCM and HMS: the data map `{"message":…,"push_title":…,"push_relay_test":"true"}` (no
///   `push_title` without a title), keyed as the relay's message pushes are, so a handler that
///   shows `message` shows this one too.
///
/// No `sendbird` dictionary: a test push belongs to no channel or message, and an app that opens
/// the channel a push names must not be sent to one that does not exist.
enum TestPushPayload {
    static func bytes(for provider: PushProvider, message: String, title: String?) -> [UInt8] {
        let value: JSONValue
        if provider.takesDataMessage {
            var data: [String: JSONValue] = ["message": .string(message), "push_relay_test": .string("true")]
            if let title { data["push_title"] = .string(title) }
            value = .object(data)
        } else {
            let alert: JSONValue = title.map { .object(["title": .string($0), "body": .string(message)]) } ?? .string(message)
            value = .object([
                "aps": .object(["alert": alert, "sound": .string("default")]), "push_relay": .object(["test": .bool(true)]),
            ])
        }
        return Array(JSONWriter.data(value))
    }

    /// The largest push any provider takes (APNs' alert payload, FCM's data, HMS's message).
    static let maximumBytes = 4096

    /// Whether `message` and `title` fit every provider's limit (escapes counted: a quote costs
    /// most in HMS, where the map is a string in a string).
    static func fits(message: String, title: String?) -> Bool {
        let apns = bytes(for: .apns, message: message, title: title)
        let data = bytes(for: .fcm, message: message, title: title)
        return apns.count <= maximumBytes && data.count <= DataMessagePayload.maximumDataBytes
            && HMSMessageSize.bytes(dataJSON: data) <= HMSMessageSize.maximumBytes
    }
}

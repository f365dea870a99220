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
    static func bytes(for format: PayloadFormat, message: String, title: String?) -> [UInt8] {
        if format.dataMessageRule != nil { return Array(dataMessage(message: message, title: title).json) }
        let alert: JSONValue = title.map { .object(["title": .string($0), "body": .string(message)]) } ?? .string(message)
        let value: JSONValue = .object([
            "aps": .object(["alert": alert, "sound": .string("default")]), "push_relay": .object(["test": .bool(true)]),
        ])
        return Array(JSONWriter.data(value))
    }

    /// The largest push any provider takes (APNs' alert payload, the data map).
    static let maximumBytes = 4096

    /// Whether `message` and `title` fit every provider's limit, each by its own count (escapes
    /// counted: a quote costs most where the map is a string in a string).
    static func fits(message: String, title: String?, formats: some Sequence<PayloadFormat>) -> Bool {
        let notification = bytes(for: .notification, message: message, title: title)
        let map = dataMessage(message: message, title: title)
        guard notification.count <= maximumBytes, map.json.count <= DataMessagePayload.maximumDataBytes else { return false }
        return formats.allSatisfy { format in format.dataMessageRule.map { $0.bytes(of: map) <= $0.maximumBytes } ?? true }
    }

    private static func dataMessage(message: String, title: String?) -> DataMessagePayload {
        var data = ["message": message, "push_relay_test": "true"]
        if let title { data["push_title"] = title }
        return DataMessagePayload(data: data)
    }
}

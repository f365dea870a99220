import Foundation
import PushCore

extension NotificationRequest {
    static let maximumDeepLinkBytes = 2048
    /// APNs takes a collapse id of at most 64 bytes.
    static let maximumCollapseKeyBytes = 64
    static let maximumNameBytes = 64
    /// FCM's longest time to live: 28 days.
    static let maximumTimeToLive: Int64 = 2_419_200

    /// The app's data, the link, the category, sound, badge, interruption level, collapse key and TTL.
    mutating func readPresentation(_ body: JSONObject) throws(APIError) {
        if let data = try body.object("data") {
            guard JSONWriter.data(.object(data.fields)).count <= Self.maximumDataBytes else {
                throw .invalidValue("data", "must be at most \(Self.maximumDataBytes) bytes as compact JSON")
            }
            content.data = data.fields
        }
        content.deepLink = try Self.short(body, "deep_link", maximumBytes: Self.maximumDeepLinkBytes)
        content.category = try Self.short(body, "category", maximumBytes: Self.maximumNameBytes)
        content.sound = try Self.short(body, "sound", maximumBytes: Self.maximumNameBytes)
        content.collapseKey = try Self.short(body, "collapse_key", maximumBytes: Self.maximumCollapseKeyBytes)
        content.badge = try body.integer("badge", in: 0...99_999)
        content.timeToLiveSeconds = try body.integer("ttl", in: 0...Self.maximumTimeToLive)
        content.interruptionLevel = try body.choice(
            "interruption_level", NotificationContent.InterruptionLevel.init(rawValue:),
            allowed: NotificationContent.InterruptionLevel.allCases.map(\.rawValue))
        if try body.bool("time_sensitive") == true {
            guard content.interruptionLevel == nil || content.isTimeSensitive else {
                throw .invalidValue("time_sensitive", "contradicts \"interruption_level\"")
            }
            content.interruptionLevel = .timeSensitive
        }
    }

    /// A short text without control characters, or nil when absent.
    private static func short(_ body: JSONObject, _ field: String, maximumBytes: Int) throws(APIError) -> String? {
        guard let text = try body.string(field) else { return nil }
        guard (1...maximumBytes).contains(text.utf8.count) else { throw .tooLong(field, maximumBytes: maximumBytes) }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(code: .notAllowedCharacters, message: "Invalid value: \"\(field)\" contains control characters.")
        }
        return text
    }
}

/// A topic's name: 1 to 128 bytes of letters, digits and `_ - . ~ :` (it is a path segment).
enum TopicName {
    static let maximumBytes = 128

    static func checked(_ name: String, field: String = "topic") throws(APIError) -> String {
        guard (1...maximumBytes).contains(name.utf8.count), name.utf8.allSatisfy(isNameByte) else {
            throw .invalidValue(field, "must be 1 to \(maximumBytes) letters, digits, _, -, ., ~ or :")
        }
        return name
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: ":"):
            true
        default: false
        }
    }
}

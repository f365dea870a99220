import Foundation

/// A non-200 answer in Apple's form: a status, a JSON body `{"reason":"…"}` (plus `timestamp`
/// in milliseconds for 410), and optionally a `retry-after` header.
struct APNsErrorAnswer: Error, Sendable, Equatable, CustomStringConvertible {
    let status: Int
    let reason: String
    var timestampMilliseconds: Int64?
    var retryAfterSeconds: Int?

    init(status: Int, reason: String, timestampMilliseconds: Int64? = nil, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.reason = reason
        self.timestampMilliseconds = timestampMilliseconds
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The response body.
    var body: String {
        let reason = Self.jsonEscaped(self.reason)
        if let timestamp = self.timestampMilliseconds {
            return #"{"reason":"\#(reason)","timestamp":\#(timestamp)}"#
        }
        return #"{"reason":"\#(reason)"}"#
    }

    var description: String { "\(self.status) \(self.reason)" }

    static func jsonEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    // Apple's reasons, by status.
    static let methodNotAllowed = APNsErrorAnswer(status: 405, reason: "MethodNotAllowed")
    static let badPath = APNsErrorAnswer(status: 404, reason: "BadPath")
    static let missingDeviceToken = APNsErrorAnswer(status: 400, reason: "MissingDeviceToken")
    static let badDeviceToken = APNsErrorAnswer(status: 400, reason: "BadDeviceToken")
    static let duplicateHeaders = APNsErrorAnswer(status: 400, reason: "DuplicateHeaders")
    static let missingTopic = APNsErrorAnswer(status: 400, reason: "MissingTopic")
    static let invalidPushType = APNsErrorAnswer(status: 400, reason: "InvalidPushType")
    static let badPriority = APNsErrorAnswer(status: 400, reason: "BadPriority")
    static let topicDisallowed = APNsErrorAnswer(status: 400, reason: "TopicDisallowed")
    static let badExpirationDate = APNsErrorAnswer(status: 400, reason: "BadExpirationDate")
    static let badMessageId = APNsErrorAnswer(status: 400, reason: "BadMessageId")
    static let badCollapseId = APNsErrorAnswer(status: 400, reason: "BadCollapseId")
    static let payloadEmpty = APNsErrorAnswer(status: 400, reason: "PayloadEmpty")
    static let payloadTooLarge = APNsErrorAnswer(status: 413, reason: "PayloadTooLarge")
    /// Mock-only reason: the body is not a JSON object with an `aps` object. (Apple's wording for
    /// malformed payloads is undocumented; the mock names it plainly.)
    static let invalidPayload = APNsErrorAnswer(status: 400, reason: "InvalidPayload")
    static let missingProviderToken = APNsErrorAnswer(status: 403, reason: "MissingProviderToken")
    static let invalidProviderToken = APNsErrorAnswer(status: 403, reason: "InvalidProviderToken")
    static let expiredProviderToken = APNsErrorAnswer(status: 403, reason: "ExpiredProviderToken")
    static let tooManyProviderTokenUpdates = APNsErrorAnswer(status: 429, reason: "TooManyProviderTokenUpdates")
    // Broadcast push and channel management.
    static let missingChannelID = APNsErrorAnswer(status: 400, reason: "MissingChannelId")
    static let badChannelID = APNsErrorAnswer(status: 400, reason: "BadChannelId")
    static let channelNotRegistered = APNsErrorAnswer(status: 400, reason: "ChannelNotRegistered")
    static let badMessageStoragePolicy = APNsErrorAnswer(status: 400, reason: "BadMessageStoragePolicy")

    static func unregistered(since date: Date) -> APNsErrorAnswer {
        APNsErrorAnswer(
            status: 410,
            reason: "Unregistered",
            timestampMilliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded())
        )
    }
}

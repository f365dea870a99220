import Foundation
import HTTP2Transport
import LogRedaction
import UUIDText

/// One notification for one device.
///
/// `apnsID` identifies the notification at Apple; keep the same value for every retry of one
/// delivery so that APNs and logs can tell a retry from a new push.
public struct APNsRequest: Sendable, Hashable {
    /// Hex device token (any even length; Apple says not to assume a size).
    public var deviceToken: String
    /// The bundle id, with the suffix the push type needs (e.g. `.voip`).
    public var topic: String
    public var pushType: APNsPushType
    public var priority: APNsPriority
    /// `apns-expiration`: nil lets APNs apply its storage policy; `.distantPast`-like 0 means
    /// "deliver once or drop"; otherwise APNs stores and retries until this date.
    public var expiration: APNsExpiration?
    public var collapseID: String?
    public var apnsID: UUID
    /// The JSON payload bytes.
    public var payload: [UInt8]
    /// When set, a broadcast to this channel (iOS 18: a Live Activity update or end for every
    /// device subscribed to it), `POST /4/broadcasts/apps/{bundle}`; `deviceToken` is not used.
    public var broadcastChannel: String?

    public init(
        deviceToken: String,
        topic: String,
        payload: [UInt8],
        pushType: APNsPushType = .alert,
        priority: APNsPriority = .immediate,
        expiration: APNsExpiration? = nil,
        collapseID: String? = nil,
        apnsID: UUID = APNsID.random(),
        broadcastChannel: String? = nil
    ) {
        self.broadcastChannel = broadcastChannel
        self.deviceToken = deviceToken
        self.topic = topic
        self.payload = payload
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
    }

    /// The longest collapse id APNs accepts, in bytes.
    public static let maximumCollapseIDLength = 64

    /// Checks everything APNs would reject as a malformed request, so such requests are refused
    /// locally instead of costing a round trip (and counting towards Apple's error budget).
    public func validate() throws(APNsRequestError) {
        if let broadcastChannel {
            guard !broadcastChannel.isEmpty, broadcastChannel.utf8.allSatisfy(\.isBase64) else {
                throw .invalidChannelID(redacted: Redaction.redact(broadcastChannel))
            }
            guard pushType == .liveactivity else { throw .broadcastNotLiveActivity }
        } else {
            guard !deviceToken.isEmpty else { throw .emptyDeviceToken }
            guard deviceToken.utf8.count % 2 == 0, Self.isHex(deviceToken) else {
                throw .invalidDeviceToken(redacted: Redaction.redact(deviceToken))
            }
        }
        guard !topic.isEmpty else { throw .emptyTopic }
        guard topic.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .invalidTopic(topic) }
        if let collapseID {
            guard collapseID.utf8.count <= Self.maximumCollapseIDLength else {
                throw .collapseIDTooLong(bytes: collapseID.utf8.count)
            }
            guard !collapseID.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                throw .invalidCollapseID
            }
        }
        if pushType == .background, priority == .immediate { throw .backgroundWithImmediatePriority }
        guard !payload.isEmpty else { throw .emptyPayload }
        guard payload.count <= pushType.maximumPayloadSize else {
            throw .payloadTooLarge(bytes: payload.count, limit: pushType.maximumPayloadSize)
        }
    }
}

extension APNsRequest {
    /// Whether every byte is a hex digit; over the string's contiguous UTF-8 when it has it (a
    /// native string always does), which is several times cheaper than the generic iteration.
    static func isHex(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(\.isHexDigit) }
            ?? string.utf8.allSatisfy(\.isHexDigit)
    }

    /// `POST /3/device/<token>` with the apns-* headers; the per-request values go never-indexed.
    var http2Request: HTTP2Request {
        if let broadcastChannel { return broadcastRequest(channel: broadcastChannel) }
        return HTTP2Request(path: "/3/device/" + deviceToken, body: payload) { h in
            h.add("apns-topic", topic)
            h.add("apns-push-type", pushType.rawValue)
            h.add("apns-priority", String(priority.rawValue))
            h.add("apns-id", UUIDText.lowercase(apnsID), sensitive: true)
            if let expiration { h.add("apns-expiration", expiration.headerValue, sensitive: true) }
            if let collapseID { h.add("apns-collapse-id", collapseID, sensitive: true) }
        }
    }
}

extension APNsRequest {
    /// `POST /4/broadcasts/apps/<bundle>`: the bundle in the path (the liveactivity topic without
    /// its suffix), the channel in `apns-channel-id`, no `apns-topic`.
    fileprivate func broadcastRequest(channel: String) -> HTTP2Request {
        let suffix = ".push-type.liveactivity"
        let bundle = topic.hasSuffix(suffix) ? String(topic.dropLast(suffix.count)) : topic
        return HTTP2Request(path: "/4/broadcasts/apps/" + bundle, body: payload) { h in
            h.add("apns-channel-id", channel, sensitive: true)
            h.add("apns-push-type", pushType.rawValue)
            h.add("apns-priority", String(priority.rawValue))
            h.add("apns-request-id", UUIDText.lowercase(apnsID), sensitive: true)
            if let expiration { h.add("apns-expiration", expiration.headerValue, sensitive: true) }
        }
    }
}

/// `apns-expiration`.
public enum APNsExpiration: Sendable, Hashable {
    /// Deliver once; if the device is offline APNs does not store it (`apns-expiration: 0`).
    case immediately
    /// Store and retry until this moment.
    case at(Date)

    var headerValue: String {
        switch self {
        case .immediately: "0"
        case .at(let date): String(max(1, Int64(date.timeIntervalSince1970.rounded(.down))))
        }
    }
}

/// Why a request was refused before anything was sent.
public enum APNsRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    case emptyDeviceToken
    case invalidDeviceToken(redacted: String)
    case emptyTopic
    case invalidTopic(String)
    case collapseIDTooLong(bytes: Int)
    case invalidCollapseID
    case backgroundWithImmediatePriority
    case emptyPayload
    case payloadTooLarge(bytes: Int, limit: Int)
    case invalidChannelID(redacted: String)
    case broadcastNotLiveActivity

    public var description: String {
        switch self {
        case .emptyDeviceToken: "device token is empty"
        case .invalidDeviceToken(let t): "device token \(t) is not an even-length hex string"
        case .emptyTopic: "apns-topic is empty"
        case .invalidTopic(let t): "apns-topic \"\(t)\" contains spaces or control characters"
        case .collapseIDTooLong(let n): "apns-collapse-id is \(n) bytes; APNs allows at most 64"
        case .invalidCollapseID: "apns-collapse-id contains control characters"
        case .backgroundWithImmediatePriority: "background pushes must use priority 5 or 1, not 10"
        case .emptyPayload: "payload is empty"
        case .payloadTooLarge(let n, let limit): "payload is \(n) bytes; the limit for this push type is \(limit)"
        case .invalidChannelID(let c): "broadcast channel id \(c) is not base64"
        case .broadcastNotLiveActivity: "a broadcast is a Live Activity push (apns-push-type liveactivity)"
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }

    fileprivate var isBase64: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || self == UInt8(ascii: "+")
            || self == UInt8(ascii: "/") || self == UInt8(ascii: "=")
    }
}

import Foundation
import MockSupport
import NIOCore
import NIOHPACK

/// Apple's request rules that need no server state: method, path, headers and payload. Pure.
enum APNsRequestValidator {
    static let pushTypes: Set<String> = [
        "alert", "background", "complication", "controls", "fileprovider", "liveactivity",
        "location", "mdm", "pushtotalk", "voip", "widgets",
    ]
    static let payloadLimit = 4096
    static let voipPayloadLimit = 5120
    static let collapseIDLimit = 64

    /// Checks `:method` and `:path`; returns the device token from the path.
    static func deviceToken(method: String?, path: String?) -> Result<Substring, APNsErrorAnswer> {
        guard method == "POST" else { return .failure(.methodNotAllowed) }
        guard let path else { return .failure(.badPath) }
        let prefix = "/3/device"
        guard path.hasPrefix(prefix) else { return .failure(.badPath) }
        let rest = path.dropFirst(prefix.count)
        if rest.isEmpty || rest == "/" { return .failure(.missingDeviceToken) }
        guard rest.first == "/" else { return .failure(.badPath) }
        let token = rest.dropFirst()
        guard Self.isDeviceTokenShaped(token) else { return .failure(.badDeviceToken) }
        return .success(token)
    }

    /// The bundle id of a broadcast's path (`/4/broadcasts/apps/{bundle}`), or nil for any other.
    static func broadcastBundle(path: String?) -> String? {
        let prefix = "/4/broadcasts/apps/"
        guard let path, path.hasPrefix(prefix) else { return nil }
        let bundle = path.dropFirst(prefix.count)
        return bundle.isEmpty || bundle.contains("/") ? nil : String(bundle)
    }

    /// A broadcast's headers and payload: a channel id, the liveactivity push type, a priority of
    /// 1, 5 or 10, and a Live Activity update or end (a broadcast cannot start one).
    static func checkBroadcast(_ headers: HPACKHeaders, body: ByteBuffer?, length: Int) -> APNsErrorAnswer? {
        guard let channel = headers.first(name: "apns-channel-id"), !channel.isEmpty else { return .missingChannelID }
        guard channel.utf8.allSatisfy(isBase64) else { return .badChannelID }
        guard headers.first(name: "apns-push-type") == "liveactivity" else { return .invalidPushType }
        if let priority = headers.first(name: "apns-priority"), !["1", "5", "10"].contains(priority) { return .badPriority }
        if let expiration = headers.first(name: "apns-expiration"), Int64(expiration) == nil { return .badExpirationDate }
        if let error = checkPayload(body, length: length, pushType: "liveactivity") { return error }
        return liveActivityEvent(in: body) == "start" ? .invalidPayload : nil
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        isHexDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
    }

    /// Non-empty, even-length hex.
    static func isDeviceTokenShaped(_ token: Substring) -> Bool {
        !token.isEmpty && token.utf8.count % 2 == 0 && token.utf8.allSatisfy(Self.isHexDigit)
    }

    /// The first regular header name that occurs more than once.
    static func duplicateHeader(in headers: HPACKHeaders) -> String? {
        var seen = Set<String>()
        for header in headers where !header.name.hasPrefix(":") {
            if !seen.insert(header.name).inserted { return header.name }
        }
        return nil
    }

    /// Checks the `apns-*` headers.
    static func checkHeaders(_ headers: HPACKHeaders) -> APNsErrorAnswer? {
        guard let topic = headers.first(name: "apns-topic"), !topic.isEmpty else { return .missingTopic }
        let pushType = headers.first(name: "apns-push-type")
        if let pushType, !Self.pushTypes.contains(pushType) { return .invalidPushType }
        if pushType == "liveactivity", !LiveActivityRules.allowsTopic(topic) { return .topicDisallowed }
        if let priority = headers.first(name: "apns-priority") {
            guard priority == "1" || priority == "5" || priority == "10" else { return .badPriority }
            if priority == "10" && pushType == "background" { return .badPriority }
        }
        if let expiration = headers.first(name: "apns-expiration"), Int64(expiration) == nil {
            return .badExpirationDate
        }
        if let apnsID = headers.first(name: "apns-id"), !Self.isCanonicalUUID(apnsID) {
            return .badMessageId
        }
        if let collapseID = headers.first(name: "apns-collapse-id"), collapseID.utf8.count > Self.collapseIDLimit {
            return .badCollapseId
        }
        return nil
    }

    /// Checks the body; `body` may be truncated, `length` is the full size.
    static func checkPayload(_ body: ByteBuffer?, length: Int, pushType: String?) -> APNsErrorAnswer? {
        guard length > 0 else { return .payloadEmpty }
        let limit = pushType == "voip" ? Self.voipPayloadLimit : Self.payloadLimit
        guard length <= limit else { return .payloadTooLarge }
        guard let body, let object = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)),
            case .object(let aps)? = object["aps"]
        else { return .invalidPayload }
        if pushType == "liveactivity" { return LiveActivityRules.violation(in: aps) == nil ? nil : .invalidPayload }
        return APSDictionaryRules.violation(in: aps) == nil ? nil : .invalidPayload
    }

    /// A Live Activity push's `aps.event`, or nil.
    static func liveActivityEvent(in body: ByteBuffer?) -> String? {
        guard let body, let object = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)),
            case .object(let aps)? = object["aps"]
        else { return nil }
        return aps["event"]?.stringValue
    }

    /// `8-4-4-4-12` hex digits, either case.
    static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard Self.isHexDigit(byte) else { return false }
            }
        }
        return true
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}

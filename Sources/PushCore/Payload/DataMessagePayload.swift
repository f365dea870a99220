import Foundation

/// What a device of a data-message provider gets for one recipient, in the shape Sendbird's
/// Android SDKs read: a *data* message whose `data` map holds
///
/// - `message`: the rendered text (what the notification payload puts in `aps.alert`);
/// - `push_title`: the rendered title, only when the template has one;
/// - `sendbird`: the same dictionary the notification payload carries, serialised as a JSON string.
///
/// Every provider taking data messages gets the same map, within 4,096 bytes of keys and values
/// and within each provider's own count (`DataMessageSizeRule`). The message text is cut on a
/// character boundary with "…" to fit, as in the notification (`PayloadBuilder`), in `message`,
/// the title and `sendbird.message` alike.
public struct DataMessagePayload: Sendable, Hashable {
    /// The limit on a data message's keys and values (FCM's).
    public static let maximumDataBytes = 4096

    /// The `data` map as stored for the delivery, compact JSON with sorted keys; the sender adds
    /// the device token and its own options.
    public var json: Data
    public var data: [String: String]
    /// Whether the message text was cut to fit.
    public var isShortened: Bool

    /// What counts against `maximumDataBytes`: every key and value.
    public var dataByteCount: Int { Self.byteCount(data) }

    /// The data form of a notification payload `PayloadBuilder` made; nil when `payload` is not one.
    /// A map of its own (a test push's), written as compact JSON with sorted keys.
    public init(data: [String: String]) {
        self.data = data
        json = JSONWriter.data(.object(data.mapValues { .string($0) }))
        isShortened = false
    }

    public init?(_ payload: PushPayload) {
        let sendbird: String
        if let range = payload.sendbirdRange {
            // The builder's bytes are already compact JSON with sorted keys: no second parse.
            sendbird = String(
                decoding: payload.data[payload.data.startIndex + range.lowerBound..<payload.data.startIndex + range.upperBound],
                as: UTF8.self)
        } else {
            guard case .object(let root)? = try? JSONValue.parse(payload.data), let object = root["sendbird"], object.objectValue != nil
            else { return nil }
            sendbird = JSONWriter.string(object)
        }
        var data = ["message": payload.alert, "sendbird": sendbird]
        if let title = payload.title { data["push_title"] = title }
        self.data = data
        // The keys in sorted order, as `JSONWriter` writes an object.
        var out: [UInt8] = []
        out.reserveCapacity(payload.data.count + payload.alert.utf8.count + 64)
        out.append(contentsOf: #"{"message":"#.utf8)
        JSONWriter.writeString(payload.alert, into: &out)
        if let title = payload.title {
            out.append(contentsOf: #","push_title":"#.utf8)
            JSONWriter.writeString(title, into: &out)
        }
        out.append(contentsOf: #","sendbird":"#.utf8)
        JSONWriter.writeString(sendbird, into: &out)
        out.append(UInt8(ascii: "}"))
        json = Data(out)
        isShortened = payload.isShortened
    }

    /// The payload for `member`, fitted to the map's limit and to every rule in `rules` (those of
    /// the providers the member has tokens with): `builder`'s payload for a budget that shrinks by
    /// the worst overrun until the data fits (the sizes of the forms differ by wrappers and
    /// escapes, so a few rounds do).
    public static func build(
        builder: PayloadBuilder, prepared: PreparedEvent, member: WebhookMember, alert: AlertTemplate,
        recipientTemplate: PushTemplateName, sound: String, translation: String? = nil, rules: [any DataMessageSizeRule] = []
    ) throws(PayloadError) -> DataMessagePayload {
        var budget = maximumDataBytes
        for _ in 0..<8 {
            var options = builder.options
            options.maxPayloadBytes = budget
            let notification = try PayloadBuilder(options: options).build(
                prepared: prepared, member: member, alert: alert, recipientTemplate: recipientTemplate, sound: sound,
                translation: translation, presentation: false)
            guard let data = DataMessagePayload(notification) else { break }
            var (count, limit) = (data.dataByteCount, maximumDataBytes)
            for rule in rules {
                let bytes = rule.bytes(of: data)
                if bytes - rule.maximumBytes > count - limit { (count, limit) = (bytes, rule.maximumBytes) }
            }
            if count <= limit { return data }
            // The overrun in notification bytes: a quote costs up to four times more in a count
            // that escapes the map again (HMS's) than in the notification payload.
            let scale = max(1, Double(count) / Double(notification.data.count))
            budget -= Int((Double(count - limit) / scale).rounded(.up))
        }
        throw .tooLarge(minimumBytes: maximumDataBytes + 1, limit: maximumDataBytes)
    }

    static func byteCount(_ data: [String: String]) -> Int {
        data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }
}

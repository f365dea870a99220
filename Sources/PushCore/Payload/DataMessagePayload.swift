import Foundation

/// What an Android device gets from FCM for one recipient, in the shape Sendbird's Android SDKs
/// read: a *data* message whose `data` map holds
///
/// - `message`: the rendered text (what the APNs payload puts in `aps.alert`);
/// - `push_title`: the rendered title, only when the template has one;
/// - `sendbird`: the same dictionary the APNs payload carries, serialised as a JSON string.
///
/// FCM and HMS devices get the same map (HMS as one JSON string). FCM allows 4,096 bytes of data
/// (every key and value counted); HMS 4,096 bytes of message (`HMSMessageSize`). The message text
/// is cut on a character boundary with "…" to fit, as for APNs (`PayloadBuilder`), in `message`,
/// the title and `sendbird.message` alike.
public struct DataMessagePayload: Sendable, Hashable {
    /// FCM's limit on a data message's keys and values.
    public static let maximumDataBytes = 4096

    /// The `data` map as stored for the delivery, compact JSON with sorted keys; the sender adds
    /// the device token and Android options (FCM's `FCMMessage.body`, HMS's `HMSMessage.body`).
    public var json: Data
    public var data: [String: String]
    /// Whether the message text was cut to fit.
    public var isShortened: Bool

    /// What FCM counts against `maximumDataBytes`.
    public var dataByteCount: Int { Self.byteCount(data) }

    /// The FCM form of an APNs payload `PayloadBuilder` made; nil when `payload` is not one.
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

    /// HMS's count for a message carrying this map.
    public var hmsMessageByteCount: Int { HMSMessageSize.bytes(dataJSON: json) }

    /// The payload for `member`, fitted to FCM's limit and, with `fitHMS` (the member has an HMS
    /// token), to HMS's: `builder`'s payload for a budget that shrinks by the overrun until the
    /// data fits (the sizes of the forms differ by wrappers and escapes, so a few rounds do).
    public static func build(
        builder: PayloadBuilder, prepared: PreparedEvent, member: WebhookMember, alert: AlertTemplate,
        recipientTemplate: PushTemplateName, sound: String, translation: String? = nil, fitHMS: Bool = false
    ) throws(PayloadError) -> DataMessagePayload {
        var budget = maximumDataBytes
        for _ in 0..<8 {
            var options = builder.options
            options.maxPayloadBytes = budget
            let apns = try PayloadBuilder(options: options).build(
                prepared: prepared, member: member, alert: alert, recipientTemplate: recipientTemplate, sound: sound,
                translation: translation)
            guard let fcm = DataMessagePayload(apns) else { break }
            var (count, limit) = (fcm.dataByteCount, maximumDataBytes)
            if fitHMS, fcm.hmsMessageByteCount - HMSMessageSize.maximumBytes > count - limit {
                (count, limit) = (fcm.hmsMessageByteCount, HMSMessageSize.maximumBytes)
            }
            if count <= limit { return fcm }
            // The overrun in APNs bytes: a quote costs up to four times more in HMS's count (escaped
            // in `sendbird`, then in the string HMS gets) than in the APNs payload.
            let scale = max(1, Double(count) / Double(apns.data.count))
            budget -= Int((Double(count - limit) / scale).rounded(.up))
        }
        throw .tooLarge(minimumBytes: maximumDataBytes + 1, limit: maximumDataBytes)
    }

    static func byteCount(_ data: [String: String]) -> Int {
        data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }
}

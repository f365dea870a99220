import PushCore

/// What HMS Push Kit counts against its 4,096-byte limit: the whole `messages:send` body but its
/// tokens. The data map goes there as one JSON string (HMS's `message.data`), so each quote,
/// backslash and control character of the map costs one more byte (five more for a control
/// character without a short escape) than in the map itself. The body's shape is `HMSMessage.body`'s;
/// HMSTests check the two agree. The planner fits a data message to it for a member with an HMS
/// token (the HMS driver's payload format).
public struct HMSMessageSize: DataMessageSizeRule {
    public static let maximumBytes = 4096

    public init() {}

    public var maximumBytes: Int { Self.maximumBytes }

    public func bytes(of payload: DataMessagePayload) -> Int { Self.bytes(dataJSON: payload.json) }

    /// The body around the data string: `{"validate_only":false,"message":{"data":` … `,"android":
    /// {"urgency":"HIGH","ttl":"` *ttl* `s"},"token":["` *token* `"]}}`, with a TTL of at most
    /// `maximumTTLDigits` digits.
    public static let envelopeBytes =
        #"{"validate_only":false,"message":{"data":"#.utf8.count + #","android":{"urgency":"HIGH","ttl":""#.utf8.count
        + maximumTTLDigits + #"s"},"token":[""]}}"#.utf8.count
    /// Ten digits: any TTL under 317 years.
    public static let maximumTTLDigits = 10

    /// HMS's count for a message carrying `dataJSON` (at most: the TTL taken at its longest).
    public static func bytes(dataJSON: some Sequence<UInt8>) -> Int {
        var count = envelopeBytes + 2
        for byte in dataJSON {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: count += 2
            case ..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }
}

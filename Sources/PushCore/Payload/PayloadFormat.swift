/// The form of payload a provider's devices get, as the planner builds it. A provider's driver
/// names its format; the planner builds each form at most once per pushed member, whatever the
/// number of providers that take it.
public enum PayloadFormat: Sendable {
    /// The notification JSON of `PayloadBuilder` (`aps` and Sendbird's dictionary).
    case notification
    /// The data map Sendbird's Android SDKs read (`DataMessagePayload`), within the provider's
    /// own limit besides the map's.
    case dataMessage(any DataMessageSizeRule)

    /// The rule of a data-message format; nil for a notification.
    public var dataMessageRule: (any DataMessageSizeRule)? {
        if case .dataMessage(let rule) = self { return rule }
        return nil
    }

    public var isNotification: Bool { dataMessageRule == nil }
}

/// How a provider measures a data message against its limit: its wrapping and escapes counted,
/// as it counts them. The map's own limit (`DataMessagePayload.maximumDataBytes`) always holds.
public protocol DataMessageSizeRule: Sendable {
    /// The provider's count for a message carrying `payload`'s map.
    func bytes(of payload: DataMessagePayload) -> Int
    /// The most it takes.
    var maximumBytes: Int { get }
}

/// The map's keys and values, and nothing else (FCM's count, and the map's own limit).
public struct DataMapSize: DataMessageSizeRule {
    public let maximumBytes: Int

    public init(maximumBytes: Int = DataMessagePayload.maximumDataBytes) {
        self.maximumBytes = maximumBytes
    }

    public func bytes(of payload: DataMessagePayload) -> Int { payload.dataByteCount }
}

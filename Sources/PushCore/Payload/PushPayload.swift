import Foundation

/// The APNs request body for one recipient: compact UTF-8 JSON, `aps` plus `sendbird`, within
/// the size limit. The same bytes go to each of the recipient's device tokens.
public struct PushPayload: Sendable, Hashable {
    public var data: Data
    /// `aps.alert` as sent.
    public var alert: String
    /// `sendbird.push_title` as sent (nil when the template has no title).
    public var title: String?
    /// `sendbird.message` as sent.
    public var message: String
    /// Whether the message text was cut (ending in "…") to fit the limit.
    public var isShortened: Bool
    /// Where in `data` the `sendbird` object stands, when `PayloadBuilder` made it: the FCM form
    /// takes those bytes as they are instead of parsing the payload again.
    public var sendbirdRange: Range<Int>?
    /// Where `data` repeats the event's `PreparedEvent.sharedBytes` (empty when not made by
    /// `PayloadBuilder`).
    public var sharedSpans: [SharedSpan]

    public init(
        data: Data, alert: String, title: String?, message: String, isShortened: Bool, sendbirdRange: Range<Int>? = nil,
        sharedSpans: [SharedSpan] = []
    ) {
        self.data = data
        self.alert = alert
        self.title = title
        self.message = message
        self.isShortened = isShortened
        self.sendbirdRange = sendbirdRange
        self.sharedSpans = sharedSpans
    }

    public var byteCount: Int { data.count }
}

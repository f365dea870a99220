import Foundation

/// What one Live Activity push says (ActivityKit, "Starting and updating Live Activities with
/// ActivityKit push notifications"): start one (to a push-to-start token), update it, or end it.
/// Dates are Unix seconds, as ActivityKit reads them. Pure: `payload()` checks Apple's rules
/// before a request is spent on them. (APNs carries it; the topic is the APNs module's.)
public struct LiveActivityContent: Sendable, Hashable {
    public enum Event: String, Sendable, Hashable, CaseIterable {
        case start, update, end
    }

    /// The alert a start or an update may show (on the Lock Screen and the Dynamic Island).
    public struct Alert: Sendable, Hashable {
        public var title: String
        public var body: String
        public var sound: String?

        public init(title: String, body: String, sound: String? = nil) {
            self.title = title
            self.body = body
            self.sound = sound
        }
    }

    public var event: Event
    /// When this content was produced: ActivityKit drops an update older than what it shows.
    public var timestamp: Int64
    /// The activity's `ContentState`, as the app's Codable reads it; required to start or update.
    public var contentState: JSONValue?
    /// When the system marks the activity out of date.
    public var staleDate: Int64?
    /// When an ended activity leaves the Lock Screen (at most four hours after its end).
    public var dismissalDate: Int64?
    /// Orders an app's activities (any number, unlike a notification's 0…1).
    public var relevanceScore: Double?
    /// To start one: the `ActivityAttributes` type's name and its values.
    public var attributesType: String?
    public var attributes: JSONValue?
    public var alert: Alert?
    /// To start one: ask the new activity for an update token (`input-push-token: 1`).
    public var requestsUpdateToken: Bool

    public init(
        event: Event, timestamp: Int64, contentState: JSONValue? = nil, staleDate: Int64? = nil, dismissalDate: Int64? = nil,
        relevanceScore: Double? = nil, attributesType: String? = nil, attributes: JSONValue? = nil, alert: Alert? = nil,
        requestsUpdateToken: Bool = false
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.attributesType = attributesType
        self.attributes = attributes
        self.alert = alert
        self.requestsUpdateToken = requestsUpdateToken
    }

    /// The largest payload APNs takes for a Live Activity.
    public static let maximumPayloadBytes = 4096

    /// `{"aps": {…}}` with keys sorted, or why Apple would refuse it.
    public func payload() throws(LiveActivityError) -> [UInt8] {
        try check()
        var aps: [String: JSONValue] = ["event": .string(event.rawValue), "timestamp": .int(timestamp)]
        if let contentState { aps["content-state"] = contentState }
        if let staleDate { aps["stale-date"] = .int(staleDate) }
        if let dismissalDate { aps["dismissal-date"] = .int(dismissalDate) }
        if let relevanceScore { aps["relevance-score"] = .double(relevanceScore) }
        if let attributesType { aps["attributes-type"] = .string(attributesType) }
        if let attributes { aps["attributes"] = attributes }
        if requestsUpdateToken { aps["input-push-token"] = .int(1) }
        if let alert {
            var fields: [String: JSONValue] = ["title": .string(alert.title), "body": .string(alert.body)]
            if let sound = alert.sound { fields["sound"] = .string(sound) }
            aps["alert"] = .object(fields)
        }
        let bytes = [UInt8](JSONWriter.data(.object(["aps": .object(aps)])))
        guard bytes.count <= Self.maximumPayloadBytes else { throw .tooLarge(bytes: bytes.count) }
        return bytes
    }

    private func check() throws(LiveActivityError) {
        if let contentState, contentState.objectValue == nil { throw .missing("content-state as an object") }
        if event != .end, contentState == nil { throw .missing("content-state") }
        if event == .start {
            guard let attributesType, !attributesType.isEmpty else { throw .missing("attributes-type") }
            guard attributes?.objectValue != nil else { throw .missing("attributes as an object") }
        } else if attributesType != nil || attributes != nil || requestsUpdateToken {
            throw .onlyToStart
        }
        if let relevanceScore, !relevanceScore.isFinite { throw .missing("a finite relevance-score") }
    }
}

/// Why a Live Activity push would be refused.
public enum LiveActivityError: Error, Sendable, Hashable, CustomStringConvertible {
    case missing(String)
    /// `attributes-type`, `attributes` and `input-push-token` start an activity; an update or an
    /// end cannot carry them.
    case onlyToStart
    case tooLarge(bytes: Int)

    public var description: String {
        switch self {
        case .missing(let what): "a Live Activity push needs \(what)"
        case .onlyToStart: "attributes-type, attributes and input-push-token only start an activity"
        case .tooLarge(let bytes): "the Live Activity payload is \(bytes) bytes; APNs takes at most 4096"
        }
    }
}

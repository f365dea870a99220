import PushCore
import StoreContract

/// A start, update or end of a Live Activity as the REST API read it: the content for the
/// payload, and what the queue needs besides.
struct LiveActivityChange: Sendable {
    var activityID: String
    var event: LiveActivityPush.Event
    /// To start one: whose push-to-start tokens get it.
    var userID: String?
    var content: LiveActivityContent
    /// 5 unless 10 is asked for (and counted).
    var priority: Int
    /// For an end: the dismissal date, Unix ms.
    var dismissalAtMs: Int64?

    /// `POST /v3/live_activities`, `…/{id}/update` or `…/{id}/end`'s body, at `nowMs`.
    init(_ body: JSONObject, event: LiveActivityPush.Event, activityID: String?, nowMs: Int64) throws(APIError) {
        self.event = event
        var id = activityID
        if id == nil { id = try body.string("activity_id") }
        guard let id else { throw .missing("activity_id") }
        self.activityID = try RequestParameter.checked("activity_id", id)
        if event == .start {
            guard let user = try body.string("user_id") else { throw .missing("user_id") }
            userID = try RequestParameter.checked("user_id", user)
        }
        priority = 5
        if let number = try body.integer("priority") {
            guard number == 5 || number == 10 else { throw .invalidValue("priority", "must be 5 or 10") }
            priority = Int(number)
        }
        content = LiveActivityContent(
            event: LiveActivityContent.Event(rawValue: event.rawValue) ?? .update,
            timestamp: try body.integer("timestamp", in: Self.seconds).map(Int64.init) ?? nowMs / 1000)
        try readContent(body)
        dismissalAtMs = content.dismissalDate.map { $0 * 1000 }
    }

    private mutating func readContent(_ body: JSONObject) throws(APIError) {
        content.contentState = try body.object("content_state").map { JSONValue.object($0.fields) }
        content.staleDate = try body.integer("stale_date", in: Self.seconds).map(Int64.init)
        content.relevanceScore = try Self.number(body, "relevance_score")
        if let alert = try body.object("alert") {
            guard let title = try alert.string("title"), let text = try alert.string("body") else {
                throw .missing("alert.title and alert.body")
            }
            content.alert = LiveActivityContent.Alert(title: title, body: text, sound: try alert.string("sound"))
        }
        switch event {
        case .start:
            guard let type = try body.string("attributes_type") else { throw .missing("attributes_type") }
            content.attributesType = try RequestParameter.checked("attributes_type", type)
            content.attributes = try body.object("attributes").map { JSONValue.object($0.fields) }
            content.requestsUpdateToken = true
        case .end:
            content.dismissalDate = try body.integer("dismissal_date", in: Self.seconds).map(Int64.init)
        case .update:
            break
        }
    }

    /// Dates in Unix seconds, up to the year 9999: a date is turned into milliseconds, which a
    /// larger number would overflow.
    static let seconds: ClosedRange<Int64> = 0...253_402_300_799

    private static func number(_ body: JSONObject, _ key: String) throws(APIError) -> Double? {
        switch body.fields[key] {
        case nil, .null?: return nil
        case .int(let value)?: return Double(value)
        case .double(let value)? where value.isFinite: return value
        default: throw .wrongType(key, expected: .number)
        }
    }
}

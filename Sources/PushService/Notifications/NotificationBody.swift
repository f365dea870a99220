import Hummingbird
import PushCore
import StoreContract

/// A notification as the API shows it; `counts` only where the delivery log was read.
struct NotificationBody: ResponseEncodable {
    struct Audience: Encodable {
        var topic: String?
        var user_count: Int?
    }

    struct Counts: Encodable {
        var pushed_users: Int
        /// Users not pushed, by reason.
        var skipped: [String: Int]
        /// Deliveries by state.
        var deliveries: [String: Int]
        var sent: Int
        var failed: Int
        var dead_tokens: Int
        var acknowledged: Int
        var opened: Int
    }

    var notification_id: Int64
    var state: String
    var audience: Audience
    var send_at: Int64
    var local_time: String?
    var pushes_per_minute: Int?
    var collapse_key: String?
    var created_at: Int64
    var finished_at: Int64?
    /// Users planned so far (decided: pushed or skipped).
    var planned_users: Int
    var counts: Counts?

    init(_ record: NotificationRecord, counts: NotificationCounts? = nil) {
        notification_id = record.id
        state = record.state.rawValue
        switch record.request.audience {
        case .topic(let topic): audience = Audience(topic: topic)
        case .users(let ids): audience = Audience(user_count: ids.count)
        }
        send_at = record.request.sendAtMs
        local_time = record.request.localMinute.flatMap(LocalTimeOfDay.init(minuteOfDay:))?.description
        pushes_per_minute = record.request.pushesPerMinute
        collapse_key = record.request.collapseKey
        created_at = record.request.createdAtMs
        finished_at = record.finishedAtMs
        planned_users = record.plannedUsers
        self.counts = counts.map { counts in
            Counts(
                pushed_users: counts.pushedUsers, skipped: counts.skipped,
                deliveries: counts.deliveries, sent: counts.deliveries[DeliveryState.sent.rawValue] ?? 0,
                failed: counts.deliveries[DeliveryState.failed.rawValue] ?? 0,
                dead_tokens: counts.deliveries[DeliveryState.tokenInvalid.rawValue] ?? 0, acknowledged: counts.acknowledged,
                opened: counts.opened)
        }
    }

    /// The answer to the request that created `record`, as it was then: a repeat with the same
    /// `Idempotency-Key` gets these same bytes.
    static func created(_ record: NotificationRecord) -> NotificationBody {
        var first = record
        first.state = record.request.sendAtMs > record.request.createdAtMs ? .scheduled : .sending
        first.finishedAtMs = nil
        first.plannedUsers = 0
        return NotificationBody(first)
    }
}

struct NotificationListBody: ResponseEncodable {
    var notifications: [NotificationBody]
    /// Pass as `before` for the next page; nil on the last.
    var next: Int64?
}

import APNs
import Metrics

/// The dispatcher's and webhook's metric names in one place (the Prometheus backend is
/// bootstrapped by the runtime; without one these are no-ops).
enum DeliveryMetrics {
    /// Sendbird's webhook categories: label values as they are. Anything else, even from a
    /// signed body, is `other`, so no caller can create time series without bound.
    static let knownCategories: Set<String> = [
        "group_channel:create", "group_channel:changed", "group_channel:remove", "group_channel:invite",
        "group_channel:decline_invite", "group_channel:join", "group_channel:leave", "group_channel:message_send",
        "group_channel:message_read", "group_channel:message_update", "group_channel:message_delete",
        "group_channel:message_delivered", "group_channel:freeze", "group_channel:unfreeze",
        "open_channel:create", "open_channel:remove", "open_channel:enter", "open_channel:exit",
        "open_channel:message_send", "open_channel:message_update", "open_channel:message_delete",
        "user:block", "user:unblock", "message:reaction_updated", "alert:user_message_rate_limit_exceeded",
    ]

    static func categoryLabel(_ category: String) -> String {
        knownCategories.contains(category) ? category : "other"
    }

    /// An APNs reason as a label value: Apple's documented ones as they are, any other `other`.
    static func reasonLabel(_ reason: APNsReason) -> String {
        if case .unknown = reason { return "other" }
        return reason.rawValue
    }

    static func webhookEvent(category: String, result: String) {
        Counter(label: "pushrelay_webhook_events_total", dimensions: [("category", category), ("result", result)]).increment()
    }

    static func decisions(_ counts: [String: Int]) {
        for (reason, count) in counts {
            Counter(label: "pushrelay_decisions_total", dimensions: [("reason", reason)]).increment(by: count)
        }
    }

    static func push(app: String, status: String, reason: String) {
        Counter(label: "pushrelay_pushes_total", dimensions: [("app", app), ("status", status), ("reason", reason)]).increment()
    }

    static func apnsLatency(_ duration: Duration) {
        Metrics.Timer(label: "pushrelay_apns_latency_seconds").recordNanoseconds(duration.milliseconds * 1_000_000)
    }

    /// From the webhook's commit to APNs' answer: what a user waits for a push (queue and send).
    static func pushWait(milliseconds: Int64) {
        Metrics.Timer(label: "pushrelay_push_wait_seconds").recordNanoseconds(max(0, milliseconds) * 1_000_000)
    }

    /// Every unsent push: waiting in SQLite, handed to the dispatcher, on the wire, or awaiting
    /// a retry (`BacklogLedger`).
    static func queueDepth(_ depth: Int) {
        Gauge(label: "pushrelay_queue_depth").record(depth)
    }

    static func retry(app: String) {
        Counter(label: "pushrelay_retries_total", dimensions: [("app", app)]).increment()
    }

    static func tokenRemoved(app: String, reason: String) {
        Counter(label: "pushrelay_token_removals_total", dimensions: [("app", app), ("reason", reason)]).increment()
    }
}

import Metrics
import PushCore
import PushSending
import StoreContract
import Synchronization

/// The dispatcher's and webhook's metric names in one place (the Prometheus backend is
/// bootstrapped by the runtime; without one these are no-ops).
public enum DeliveryMetrics {
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

    package static func categoryLabel(_ category: String) -> String {
        knownCategories.contains(category) ? category : "other"
    }

    /// Histogram buckets per timer, for the metrics backend (`PrometheusMetricsFactory`'s
    /// `durationHistogramBuckets`). Its default starts at 5 ms: a webhook's answer and its
    /// commit (an fsync, about a millisecond) fall below that, and a push's wait under load was
    /// "p50 at most 50 ms". These reach down to half a millisecond.
    public static func durationBuckets(providers: some Sequence<PushProvider>) -> [String: [Duration]] {
        let fine: [Duration] = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(3), .milliseconds(5), .microseconds(7500),
            .milliseconds(10), .milliseconds(15), .milliseconds(20), .milliseconds(30), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        let wait: [Duration] = fine + [.seconds(30), .seconds(60), .seconds(300)]
        return [
            webhookDurationLabel: fine, eventCommitLabel: fine, pushWaitLabel: wait,
        ].merging(providers.map { (latencyLabel($0), fine) }) { $1 }
    }

    /// Each provider's request latency histogram: `pushrelay_<provider>_latency_seconds`.
    public static func latencyLabel(_ provider: PushProvider) -> String { "pushrelay_\(provider.rawValue)_latency_seconds" }

    static let webhookDurationLabel = "pushrelay_webhook_duration_seconds"
    static let eventCommitLabel = "pushrelay_event_commit_seconds"
    static let pushWaitLabel = "pushrelay_push_wait_seconds"

    // MARK: Recording (through cached handles)

    /// The handles, made once and then looked up by label values: asking the metrics factory for
    /// a handle on every push costs its lock, its registry's dictionary and its string keys each
    /// time. Made after `MetricsSystem.bootstrap`, like any handle.
    package final class Handles: Sendable {
        private let factory: any MetricsFactory
        private let latencies = Mutex<[PushProvider: Metrics.Timer]>([:])
        private let wait: Metrics.Timer
        private let webhookDuration: Metrics.Timer
        private let webhooksInFlight: Gauge
        private let webhooksUnderWay = Atomic<Int>(0)
        private let eventCommit: Metrics.Timer
        private let depth: Gauge
        private let oldest: Gauge
        private let ackDelay: Metrics.Timer
        private let counters = Mutex<[CounterKey: Counter]>([:])

        private struct CounterKey: Hashable {
            let label: String
            let values: [String]
        }

        /// `pushrelay_pushes_total{status="sent"}` by app and provider: the series nearly every
        /// push increments, found without building its label arrays (two allocations and five
        /// strings hashed per push).
        private let sentPushes = Mutex<[SentKey: Counter]>([:])

        private struct SentKey: Hashable {
            let app: ExactID
            let provider: PushProvider
        }

        /// - Parameter factory: the bootstrapped backend; a test passes its own.
        package init(factory: any MetricsFactory = MetricsSystem.factory) {
            self.factory = factory
            wait = Metrics.Timer(label: pushWaitLabel, factory: factory)
            webhookDuration = Metrics.Timer(label: webhookDurationLabel, factory: factory)
            webhooksInFlight = Gauge(label: "pushrelay_webhooks_in_flight", factory: factory)
            eventCommit = Metrics.Timer(label: eventCommitLabel, factory: factory)
            depth = Gauge(label: "pushrelay_queue_depth", factory: factory)
            oldest = Gauge(label: "pushrelay_oldest_unsent_push_age_seconds", factory: factory)
            ackDelay = Metrics.Timer(label: "pushrelay_push_ack_delay_seconds", factory: factory)
        }

        private func counter(_ label: String, _ names: [String], _ values: [String]) -> Counter {
            let key = CounterKey(label: label, values: values)
            return counters.withLock { cache in
                if let counter = cache[key] { return counter }
                let counter = Counter(label: label, dimensions: Array(zip(names, values)), factory: factory)
                cache[key] = counter
                return counter
            }
        }

        /// Users of notifications planned, by decision (`push` or the skip reason): bounded labels,
        /// no notification id.
        package func notificationUsers(app: String, decision: String, count: Int) {
            counter("pushrelay_notification_users_total", ["app", "decision"], [app, decision]).increment(by: count)
        }

        /// Notifications accepted, and those finished (`done`, `cancelled`).
        package func notification(app: String, state: String) {
            counter("pushrelay_notifications_total", ["app", "state"], [app, state]).increment()
        }

        package func webhookEvent(category: String, result: String) {
            counter("pushrelay_webhook_events_total", ["category", "result"], [category, result]).increment()
        }

        package func decisions(_ counts: [PushDecision: Int]) {
            for (decision, count) in counts {
                counter("pushrelay_decisions_total", ["reason"], [decision.code]).increment(by: count)
            }
        }

        package func push(app: String, provider: PushProvider, status: String, reason: String) {
            if status == "sent", reason.isEmpty {
                sent(app: app, provider: provider).increment()
                return
            }
            pushCounter(app: app, provider: provider, status: status, reason: reason).increment()
        }

        private func pushCounter(app: String, provider: PushProvider, status: String, reason: String) -> Counter {
            counter("pushrelay_pushes_total", ["app", "status", "reason", "provider"], [app, status, reason, provider.rawValue])
        }

        private func sent(app: String, provider: PushProvider) -> Counter {
            let key = SentKey(app: ExactID(app), provider: provider)
            if let counter = sentPushes.withLock({ $0[key] }) { return counter }
            let counter = pushCounter(app: app, provider: provider, status: "sent", reason: "")
            sentPushes.withLock { $0[key] = counter }
            return counter
        }

        /// From the request to the provider's answer (with the token exchange when one was due).
        package func providerLatency(_ provider: PushProvider, _ duration: Duration) {
            let timer = latencies.withLock { timers in
                if let timer = timers[provider] { return timer }
                let timer = Metrics.Timer(label: DeliveryMetrics.latencyLabel(provider), factory: factory)
                timers[provider] = timer
                return timer
            }
            timer.record(duration: duration)
        }

        /// A webhook request reached its handler (its body may still be arriving). With
        /// `webhookAnswered`, the gauge of requests under way: a database that stopped answering
        /// shows as webhooks piling up there.
        package func webhookStarted() {
            webhooksInFlight.record(webhooksUnderWay.add(1, ordering: .relaxed).newValue)
        }

        /// A webhook request in the relay, from its head to the answer (any answer): with
        /// `eventCommit`, how much of what a sender waits is the relay's, and how much the disk's.
        package func webhookAnswered(after duration: Duration) {
            webhooksInFlight.record(webhooksUnderWay.subtract(1, ordering: .relaxed).newValue)
            webhookDuration.record(duration: duration)
        }

        /// An accepted event's wait for its commit: the writer (group commit) and the fsync.
        package func eventCommitted(after duration: Duration) {
            eventCommit.record(duration: duration)
        }

        /// From the webhook's commit to the provider's answer: what a user waits for a push (queue and send).
        package func pushWait(milliseconds: Int64) {
            wait.recordNanoseconds(max(0, milliseconds) * 1_000_000)
        }

        /// Every unsent push: waiting in SQLite, handed to the dispatcher, on the wire, or awaiting
        /// a retry (`BacklogLedger`).
        package func queueDepth(_ value: Int) {
            depth.record(value)
        }

        /// How long the oldest unsent push has waited since the webhook accepted it.
        package func oldestUnsentAge(milliseconds: Int64) {
            oldest.record(Double(milliseconds) / 1000)
        }

        package func retry(app: String) {
            counter("pushrelay_retries_total", ["app"], [app]).increment()
        }

        /// A device said it got a push; `delay` from the provider accepting it (nil if the relay had not
        /// recorded the send yet, as when the answer and the device race).
        package func acknowledged(app: String, delayMilliseconds: Int64?) {
            counter("pushrelay_push_acknowledgements_total", ["app"], [app]).increment()
            if let delayMilliseconds { ackDelay.recordNanoseconds(max(0, delayMilliseconds) * 1_000_000) }
        }

        /// Pushes the user opened (first clicks only): over `pushrelay_pushes_total{status="sent"}`,
        /// the app's open rate.
        package func clicked(app: String, count: Int) {
            guard count > 0 else { return }
            counter("pushrelay_push_clicks_total", ["app"], [app]).increment(by: count)
        }

        /// A read event's badge updates, by what became of them.
        package func badgeSync(app: String, _ result: BadgeSyncResult) {
            for (outcome, count) in [
                ("queued", result.queued), ("coalesced", result.coalesced), ("unchanged", result.unchanged), ("stale", result.stale),
                ("no_tokens", result.noTokens),
            ] where count > 0 {
                counter("pushrelay_badge_updates_total", ["app", "result"], [app, outcome]).increment(by: count)
            }
        }

        /// Pushes whose claim's lease had run out, put back to be sent (`DueClaim.takenOver`).
        package func claimsTakenOver(_ count: Int) {
            counter("pushrelay_claims_taken_over_total", [], []).increment(by: count)
        }

        /// The counters dashboards divide by, at 0 for an app until their first event: its
        /// acknowledgements, clicks and retries, and per provider its senders' known reasons for
        /// token removals and credential errors. Idempotent (the handles are cached).
        package func exportFromZero(app: String, labels: [PushProvider: PushSenderLabels]) {
            for name in ["pushrelay_push_acknowledgements_total", "pushrelay_push_clicks_total", "pushrelay_retries_total"] {
                counter(name, ["app"], [app]).increment(by: 0)
            }
            for (provider, known) in labels {
                for reason in known.tokenRemovalReasons {
                    counter("pushrelay_token_removals_total", ["app", "reason", "provider"], [app, reason, provider.rawValue])
                        .increment(by: 0)
                }
                for reason in known.credentialErrorReasons {
                    counter("pushrelay_credential_errors_total", ["app", "provider", "reason"], [app, provider.rawValue, reason])
                        .increment(by: 0)
                }
            }
        }

        /// A test push (`POST /v3/push/test`, the console's), by how it ended: counted apart from
        /// `pushrelay_pushes_total`, which is the traffic the relay was asked to deliver.
        package func testPush(app: String, provider: PushProvider, status: String) {
            counter("pushrelay_test_pushes_total", ["app", "status", "provider"], [app, status, provider.rawValue]).increment()
        }

        package func tokenRemoved(app: String, provider: PushProvider, reason: String) {
            counter("pushrelay_token_removals_total", ["app", "reason", "provider"], [app, reason, provider.rawValue]).increment()
        }

        /// A provider refused the app's credentials (a reason its sender labels, a token
        /// exchange refused): an operator must act; alert on any increase.
        package func credentialError(app: String, provider: PushProvider, reason: String) {
            counter("pushrelay_credential_errors_total", ["app", "provider", "reason"], [app, provider.rawValue, reason]).increment()
        }
    }
}

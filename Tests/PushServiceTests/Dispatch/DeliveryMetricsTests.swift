import Prometheus
import PushCore
import PushSending
import Testing
@testable import PushService
@testable import PushEngine

/// The timers' histograms as `serve` sets them up (`DeliveryMetrics.durationBuckets`): a webhook
/// answer, a commit or a provider's answer is often under a millisecond, and must count there,
/// not as 0 or in the 5 ms bucket (durations were once cut to whole milliseconds first).
@Suite(.timeLimit(.minutes(5))) struct DeliveryMetricsTests {
    static func render(_ record: (DeliveryMetrics.Handles) -> Void) -> String {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = DeliveryMetrics.durationBuckets
        record(DeliveryMetrics.Handles(factory: factory))
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// The sum of a histogram, from its `_sum` line.
    static func sum(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix("\(name)_sum ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    @Test func subMillisecondDurationsAreRecordedAsTheyAre() throws {
        let text = Self.render { handles in
            for duration in [Duration.microseconds(300), .microseconds(1700)] {
                handles.webhookAnswered(after: duration)
                handles.eventCommitted(after: duration)
                handles.providerLatency(.apns, duration)
                handles.providerLatency(.fcm, duration)
            }
        }
        for name in [
            "pushrelay_webhook_duration_seconds", "pushrelay_event_commit_seconds", "pushrelay_apns_latency_seconds",
            "pushrelay_fcm_latency_seconds",
        ] {
            // 0.3 ms in the first bucket; 1.7 ms above 1 ms (cut to whole milliseconds it was 1).
            #expect(text.contains(#"\#(name)_bucket{le="0.0005"} 1"#), "\(name):\n\(text)")
            #expect(text.contains(#"\#(name)_bucket{le="0.001"} 1"#), "\(name):\n\(text)")
            #expect(text.contains(#"\#(name)_bucket{le="0.002"} 2"#), "\(name):\n\(text)")
            let sum = try #require(Self.sum(name, in: text), "\(name):\n\(text)")
            #expect(abs(sum - 0.002) < 1e-9, "\(name): sum \(sum)")
        }
    }

    /// Sent pushes go through their own cache of handles: each app and provider is its own
    /// series, the same series the other statuses' path names, and the other statuses still count.
    @Test func sentPushesAreCountedPerAppAndProvider() {
        let text = Self.render { handles in
            for _ in 0..<3 { handles.push(app: "a", provider: .apns, status: "sent", reason: "") }
            handles.push(app: "a", provider: .fcm, status: "sent", reason: "")
            handles.push(app: "b", provider: .apns, status: "sent", reason: "")
            handles.push(app: "a", provider: .apns, status: "failed", reason: "BadDeviceToken")
            handles.push(app: "a", provider: .apns, status: "sent", reason: "moved")
        }
        let line = { (app: String, provider: String, status: String, reason: String, count: Int) in
            #"pushrelay_pushes_total{app="\#(app)",status="\#(status)",reason="\#(reason)",provider="\#(provider)"} \#(count)"#
        }
        #expect(text.contains(line("a", "apns", "sent", "", 3)), "\(text)")
        #expect(text.contains(line("a", "fcm", "sent", "", 1)), "\(text)")
        #expect(text.contains(line("b", "apns", "sent", "", 1)), "\(text)")
        #expect(text.contains(line("a", "apns", "failed", "BadDeviceToken", 1)), "\(text)")
        #expect(text.contains(line("a", "apns", "sent", "moved", 1)), "\(text)")
    }

    /// First clicks, counted per app (the numerator of the open rate); no clicks, no series.
    @Test func clicksAreCountedPerApp() {
        let text = Self.render { handles in
            handles.clicked(app: "a", count: 2)
            handles.clicked(app: "a", count: 1)
            handles.clicked(app: "b", count: 0)
        }
        #expect(text.contains(#"pushrelay_push_clicks_total{app="a"} 3"#), "\(text)")
        #expect(!text.contains(#"app="b""#), "\(text)")
    }

    /// Pushes taken over from a relay whose lease ran out: one series, from 0 (the dispatcher
    /// starts it on a shared store), so an alert on its increase sees the first takeover.
    @Test func takeoversAreCountedFromZero() {
        let zero = Self.render { handles in handles.claimsTakenOver(0) }
        #expect(zero.contains("pushrelay_claims_taken_over_total 0\n"), "\(zero)")
        let five = Self.render { handles in
            handles.claimsTakenOver(0)
            handles.claimsTakenOver(2)
            handles.claimsTakenOver(3)
        }
        #expect(five.contains("pushrelay_claims_taken_over_total 5\n"), "\(five)")
    }

    @Test func aPushWaitReachesFiveMinutes() {
        let text = Self.render { handles in
            handles.pushWait(milliseconds: 2)
            handles.pushWait(milliseconds: 200_000)
        }
        #expect(text.contains(#"pushrelay_push_wait_seconds_bucket{le="0.002"} 1"#), "\(text)")
        #expect(text.contains(#"pushrelay_push_wait_seconds_bucket{le="60.0"} 1"#), "\(text)")
        #expect(text.contains(#"pushrelay_push_wait_seconds_bucket{le="300.0"} 2"#), "\(text)")
    }

    /// Webhooks under way: up while a handler runs, down at its answer, whatever it answers.
    @Test func webhooksInFlightCountsHandlersUnderWay() {
        func gauge(_ text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix("pushrelay_webhooks_in_flight ") }.flatMap {
                Double($0.split(separator: " ")[1])
            }
        }
        let two = Self.render { handles in
            handles.webhookStarted()
            handles.webhookStarted()
        }
        #expect(gauge(two) == 2)
        let one = Self.render { handles in
            handles.webhookStarted()
            handles.webhookStarted()
            handles.webhookAnswered(after: .zero)
        }
        #expect(gauge(one) == 1)
    }

    /// A quiet app's dashboard divides by counters that have had no event yet: they are exported
    /// at 0 for the app, with each provider's known reasons, and exporting again changes nothing.
    @Test func countersDashboardsDivideByStartAtZero() {
        let labels: [PushProvider: PushSenderLabels] = [
            .hms: PushSenderLabels(tokenRemovalReasons: ["80300007"], credentialErrorReasons: ["token_exchange"])
        ]
        let text = Self.render { handles in
            handles.exportFromZero(app: "a", labels: labels)
            handles.exportFromZero(app: "a", labels: labels)
        }
        for line in [
            #"pushrelay_push_acknowledgements_total{app="a"} 0"#, #"pushrelay_push_clicks_total{app="a"} 0"#,
            #"pushrelay_retries_total{app="a"} 0"#, #"pushrelay_token_removals_total{app="a",reason="80300007",provider="hms"} 0"#,
            #"pushrelay_credential_errors_total{app="a",provider="hms",reason="token_exchange"} 0"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line) in\n\(text)")
        }
    }
}

import Testing
@testable import PushService

@Suite struct MetricSamplesTests {
    static let text = """
        # HELP pushrelay_pushes_total Pushes
        # TYPE pushrelay_pushes_total counter
        pushrelay_pushes_total{app="a",status="sent",reason="",provider="apns"} 3
        pushrelay_pushes_total{app="a",status="sent",reason="",provider="fcm"} 2
        pushrelay_pushes_total{app="a",status="failed",reason="Bad Token \\"x\\"",provider="apns"} 1
        pushrelay_pushes_total{app="b",status="sent",reason="",provider="apns"} 40
        pushrelay_queue_depth 7.0
        pushrelay_webhook_events_total{category="other",result="bad_signature"} 4
        not a sample line
        """

    @Test func sumsTheSeriesWhoseLabelsMatch() {
        let samples = MetricSamples(exposition: Self.text)
        #expect(samples.sum("pushrelay_pushes_total", ["app": "a", "status": "sent"]) == 5)
        #expect(samples.sum("pushrelay_pushes_total", ["app": "b"]) == 40)
        #expect(samples.sum("pushrelay_pushes_total", ["app": "c"]) == nil, "a series the relay does not have is nil, not 0")
        #expect(samples.sum("pushrelay_queue_depth") == 7)
        #expect(samples.sum("pushrelay_pushes_total", ["app": "a"]) { $0["status"] != "sent" } == 1)
    }

    @Test func labelValuesAreUnescaped() {
        let sample = MetricSamples.parse(#"m{reason="Bad Token \"x\"",path="a\\b",text="l1\nl2"} 1.5"#)
        #expect(sample?.labels == ["reason": #"Bad Token "x""#, "path": #"a\b"#, "text": "l1\nl2"])
        #expect(sample?.value == 1.5)
        #expect(MetricSamples.parse(#"m{reason="unterminated} 1"#) == nil)
    }

    @Test func keepsOnlyTheNamesAsked() {
        let samples = MetricSamples(exposition: Self.text, keeping: ["pushrelay_queue_depth"])
        #expect(samples.samples.map(\.name) == ["pushrelay_queue_depth"])
    }
}

@Suite struct CounterWindowTests {
    private func reading(_ minute: Int64, sent: Double) -> CounterWindow.Reading {
        CounterWindow.Reading(
            atMicros: minute * 60_000_000, wallMs: minute * 60_000,
            samples: MetricSamples(samples: [.init(name: OverviewFigures.pushes, labels: ["app": "a", "status": "sent"], value: sent)]))
    }

    @Test func theBaselineIsTheNewestReadingAtLeastAnHourOld() throws {
        var window = CounterWindow(span: .seconds(3600))
        #expect(window.baseline(nowMicros: 0) == nil)
        for minute in Int64(0)...90 { window.record(reading(minute, sent: Double(minute * 10))) }
        let baseline = try #require(window.baseline(nowMicros: 90 * 60_000_000))
        #expect(baseline.wallMs == Int64(30 * 60_000), "the reading of minute 30")
        #expect(window.readings.count == 61, "readings older than the baseline are dropped")
        let figures = OverviewFigures(
            app: "a", now: reading(90, sent: 900).samples, baseline: window.baseline(nowMicros: 90 * 60_000_000)?.samples)
        #expect(figures.sent == 600)
    }

    @Test func beforeAnHourThereIsNoBaseline() {
        var window = CounterWindow(span: .seconds(3600))
        window.record(reading(0, sent: 0))
        window.record(reading(30, sent: 5))
        #expect(window.baseline(nowMicros: 59 * 60_000_000) == nil)
    }
}

@Suite struct OverviewFiguresTests {
    @Test func eachAppSeesItsOwnCountsAndTheRelaysAreApart() {
        let now = MetricSamples(
            exposition: MetricSamplesTests.text + """

                pushrelay_pushes_total{app="a",status="token_invalid",reason="Unregistered",provider="apns"} 2
                pushrelay_pushes_total{app="a",status="expired",reason="expired",provider="apns"} 1
                pushrelay_push_acknowledgements_total{app="a"} 4
                pushrelay_app_queue_depth{app="a"} 3
                """)
        let a = OverviewFigures(app: "a", now: now, baseline: nil)
        #expect(a.sent == 5)
        #expect(a.failed == 2, "failed and expired")
        #expect(a.deadTokens == 2)
        #expect(a.acknowledged == 4)
        #expect(a.acknowledgedShare == 0.8)
        #expect(a.queueDepth == 3)
        #expect(a.relay.queueDepth == 7)
        #expect(a.relay.webhooksRefused == 4)
        #expect(a.relay.fleetNodes == nil)
        let b = OverviewFigures(app: "b", now: now, baseline: nil)
        #expect(b.sent == 40)
        #expect(b.failed == 0 && b.deadTokens == 0 && b.acknowledged == 0)
        #expect(b.queueDepth == nil)
    }
}

import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct MetricSamplesTests {
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

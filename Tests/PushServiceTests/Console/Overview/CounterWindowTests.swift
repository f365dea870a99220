import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct CounterWindowTests {
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

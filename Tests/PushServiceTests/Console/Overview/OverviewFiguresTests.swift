import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct OverviewFiguresTests {
    @Test func eachAppSeesItsOwnCountsAndTheRelaysAreApart() {
        let now = MetricSamples(
            exposition: MetricSamplesTests.text + """

                pushrelay_pushes_total{app="a",status="token_invalid",reason="Unregistered",provider="apns"} 2
                pushrelay_pushes_total{app="a",status="expired",reason="expired",provider="apns"} 1
                pushrelay_push_acknowledgements_total{app="a"} 4
                pushrelay_app_queue_depth{app="a"} 3
                pushrelay_test_pushes_total{app="a",status="sent",provider="apns"} 2
                pushrelay_test_pushes_total{app="a",status="token_dead",provider="fcm"} 1
                """)
        let a = OverviewFigures(app: "a", now: now, baseline: nil)
        #expect(a.sent == 5)
        #expect(a.failed == 2, "failed and expired")
        #expect(a.deadTokens == 2)
        #expect(a.acknowledged == 4)
        #expect(a.acknowledgedShare == 0.8)
        #expect(a.queueDepth == 3)
        #expect(a.testPushes == 3, "whatever their answer, and not among the sent")
        #expect(a.relay.queueDepth == 7)
        #expect(a.relay.webhooksRefused == 4)
        #expect(a.relay.fleetNodes == nil)
        let b = OverviewFigures(app: "b", now: now, baseline: nil)
        #expect(b.sent == 40)
        #expect(b.failed == 0 && b.deadTokens == 0 && b.acknowledged == 0)
        #expect(b.queueDepth == nil)
        #expect(b.testPushes == 0)
    }
}

import APNs
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct APNsReasonTests {
    @Test(arguments: APNsReason.allKnown)
    func everyDocumentedReasonRoundTrips(_ reason: APNsReason) {
        #expect(APNsReason(rawValue: reason.rawValue) == reason)
        if case .unknown = reason { Issue.record("\(reason) parsed as unknown") }
    }

    @Test func thirtyTwoDocumentedReasons() {
        #expect(APNsReason.allKnown.count == 36)
        #expect(Set(APNsReason.allKnown.map(\.rawValue)).count == 36)
    }

    @Test func unknownReasonsAreKept() {
        #expect(APNsReason(rawValue: "SomethingNew") == .unknown("SomethingNew"))
        #expect(APNsReason(rawValue: "SomethingNew").rawValue == "SomethingNew")
    }

    @Test func classification() {
        func outcome(_ status: Int, _ reason: APNsReason?, retryAfter: Duration? = nil) -> APNsOutcome {
            APNsResponse(status: status, reason: reason, retryAfter: retryAfter).outcome
        }
        #expect(outcome(200, nil) == .delivered)
        #expect(outcome(410, .expiredToken) == .tokenInvalid(.expiredToken, unregisteredAt: nil))
        #expect(outcome(400, .deviceTokenNotForTopic) == .tokenInvalid(.deviceTokenNotForTopic, unregisteredAt: nil))
        #expect(outcome(400, .badCollapseId) == .permanentFailure(.badCollapseId))
        #expect(outcome(413, .payloadTooLarge) == .permanentFailure(.payloadTooLarge))
        #expect(outcome(403, .forbidden) == .permanentFailure(.forbidden))
        #expect(outcome(403, .invalidProviderToken) == .permanentFailure(.invalidProviderToken))
        #expect(outcome(429, .tooManyRequests, retryAfter: .seconds(30)) == .retryable(.tooManyRequests, after: .seconds(30)))
        #expect(outcome(503, .shutdown) == .retryable(.shutdown, after: .seconds(1)))
        #expect(outcome(500, .unknown("Whatever")) == .retryable(.unknown("Whatever"), after: .seconds(1)))
    }
}

import PushSending
import Testing

/// What a delivery keeps of a provider's id: a push service's answer cannot grow every stored
/// delivery with a huge `Location`.
@Suite(.timeLimit(.minutes(1))) struct PushSendOutcomeProviderIDTests {
    @Test func onlyAnAcceptedPushsShortNonEmptyIDIsKept() {
        let longest = String(repeating: "x", count: PushSendOutcome.maximumProviderIDBytes)
        #expect(PushSendOutcome.delivered(providerID: "projects/p/messages/1").keptProviderID == "projects/p/messages/1")
        #expect(PushSendOutcome.delivered(providerID: longest).keptProviderID == longest)
        #expect(PushSendOutcome.delivered(providerID: longest + "x").keptProviderID == nil)
        #expect(PushSendOutcome.delivered(providerID: "").keptProviderID == nil)
        #expect(PushSendOutcome.delivered(providerID: nil).keptProviderID == nil)
        #expect(PushSendOutcome.rejected.keptProviderID == nil)
    }
}

import Testing
@testable import HMSMock

/// A request's tokens split into those that take the message and the illegal ones, and the code that follows.
@Suite(.timeLimit(.minutes(5))) struct TokenDeliveryTests {
    @Test func theSplitDecidesTheCode() {
        #expect(TokenDelivery(tokens: ["a", "b"], invalid: []).code == .success)
        let partial = TokenDelivery(tokens: ["a", "b", "c"], invalid: ["b"])
        #expect(partial.delivered == ["a", "c"])
        #expect(partial.illegal == ["b"])
        #expect(partial.code == .partialSuccess)
        #expect(TokenDelivery(tokens: ["b"], invalid: ["b"]).code == .allTokensInvalid)
    }

    @Test func malformedTokensAreIllegalToo() {
        let delivery = TokenDelivery(tokens: ["", "with space", "ok+/=:._-9"], invalid: [])
        #expect(delivery.illegal == ["", "with space"])
        #expect(delivery.delivered == ["ok+/=:._-9"])
        #expect(!TokenDelivery.isWellFormed(token: String(repeating: "a", count: 4097)))
    }
}

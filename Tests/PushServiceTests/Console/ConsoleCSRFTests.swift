import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConsoleCSRFTests {
    @Test func onlyTheSameTokenPasses() {
        let token = String(repeating: "ab", count: 32)
        #expect(ConsoleCSRF.matches(presented: token, expected: token))
        #expect(!ConsoleCSRF.matches(presented: String(repeating: "ab", count: 31) + "ac", expected: token))
        #expect(!ConsoleCSRF.matches(presented: nil, expected: token))
        #expect(!ConsoleCSRF.matches(presented: token, expected: nil))
        #expect(!ConsoleCSRF.matches(presented: "", expected: ""), "no token on either side is no match")
        #expect(!ConsoleCSRF.matches(presented: String(token.prefix(10)), expected: token))
    }
}

import Testing
import APNs
import ProviderDriver

@Suite(.timeLimit(.minutes(5))) struct APNsTokenFormatTests {
    @Test func acceptsEvenLengthHexFrom16To200AndLowercasesIt() throws {
        #expect(try APNsTokenFormat().normalise("ABCDEF0123456789").get() == "abcdef0123456789")
        #expect(try APNsTokenFormat().normalise(String(repeating: "a", count: 200)).get().count == 200)
    }

    @Test(arguments: [
        "", "abcdef012345678", "abcdef01234567890", String(repeating: "a", count: 202), "abcdef012345678g", "abcdef01 2345678",
        "ａｂcdef0123456789",
    ])
    func rejects(_ text: String) {
        #expect(throws: TokenFormatProblem.self) { try APNsTokenFormat().normalise(text).get() }
    }
}

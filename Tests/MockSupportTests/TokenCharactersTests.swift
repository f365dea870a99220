import MockSupport
import Testing

/// Device tokens are URL-safe text, plus what a provider's tokens hold.
@Suite(.timeLimit(.minutes(5))) struct TokenCharactersTests {
    @Test func urlSafeTextIsWellFormed() {
        #expect(TokenCharacters.isWellFormed("bob-pixel:APA91b_x.9"))
        #expect(!TokenCharacters.isWellFormed(""))
        #expect(!TokenCharacters.isWellFormed("with space"))
        #expect(!TokenCharacters.isWellFormed("a+b="))
        #expect(!TokenCharacters.isWellFormed(String(repeating: "a", count: 4097)))
        #expect(TokenCharacters.isWellFormed(String(repeating: "a", count: 4096)))
    }

    @Test func aProviderMayAllowMore() {
        #expect(TokenCharacters.isWellFormed("a+b/c=", alsoAllowing: "+/="))
        #expect(!TokenCharacters.isWellFormed("a b", alsoAllowing: "+/="))
    }
}

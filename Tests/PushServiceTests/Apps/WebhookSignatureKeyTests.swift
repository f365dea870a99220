import Foundation
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct WebhookSignatureKeyTests {
    static func digest(_ body: String, _ key: String) -> [UInt8] {
        WebhookSignature.digest(fromHeader: WebhookSignature.expected(body: Data(body.utf8), apiToken: key))!
    }

    /// One key checks many bodies: each check starts from the keyed state, not from what the
    /// previous body left in it.
    @Test func oneKeyChecksManyBodies() {
        let key = WebhookSignature.Key("secret-0123456789abcdef")
        let bodies = ["{}", #"{"a":1}"#, String(repeating: "x", count: 100_000), ""]
        for _ in 0..<3 {
            for body in bodies {
                #expect(key.matches(Self.digest(body, "secret-0123456789abcdef"), body: Data(body.utf8)))
                #expect(!key.matches(Self.digest(body, "another-0123456789abcdef"), body: Data(body.utf8)))
                #expect(!key.matches(Self.digest(body + " ", "secret-0123456789abcdef"), body: Data(body.utf8)))
            }
        }
    }

    /// A key longer than SHA-256's block is hashed first, as HMAC requires.
    @Test func aLongKeyMatchesTheOneShotHMAC() {
        let long = String(repeating: "k", count: 200)
        #expect(WebhookSignature.Key(long).matches(Self.digest("body", long), body: Data("body".utf8)))
    }
}

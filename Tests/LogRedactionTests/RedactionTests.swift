import LogRedaction
import Testing

@Suite struct RedactionTests {
    @Test func longValuesShowAtMostFourCharacters() {
        #expect(Redaction.redact("0123456789abcdef") == "0123…")
        #expect(Redaction.redact(String(repeating: "ab", count: 32)) == "abab…")
    }

    @Test func shortValuesAreMaskedWhole() {
        for value in ["", "a", "short", "0123456789abcde"] {
            #expect(Redaction.redact(value) == "••••", "\(value.count) characters")
        }
    }

    /// A database server's message may quote a value the relay sent: tokens and secrets in it are
    /// redacted, identifiers and words are kept.
    @Test func scrubRedactsTokenLikeRunsOnly() {
        let apns = String(repeating: "0f", count: 32)
        let fcm = "dXNlcjpwYXNz" + String(repeating: "Ab-_9", count: 25) + ":APA91b"
        let message = #"invalid input syntax for type uuid: "\#(apns)"; token \#(fcm), "device_tokens_app_id_token_key""#
        let scrubbed = Redaction.scrub(message)
        #expect(!scrubbed.contains(apns) && !scrubbed.contains(fcm), "\(scrubbed)")
        #expect(scrubbed.contains(#"uuid: "0f0f…""#) && scrubbed.contains("token dXNl…,"), "\(scrubbed)")
        #expect(scrubbed.contains(#""device_tokens_app_id_token_key""#), "\(scrubbed)")
        #expect(Redaction.scrub("connection refused (SQLSTATE 08001)") == "connection refused (SQLSTATE 08001)")
        #expect(Redaction.scrub("") == "")
    }
}

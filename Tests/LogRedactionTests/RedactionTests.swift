import LogRedaction
import Testing

@Suite(.timeLimit(.minutes(5))) struct RedactionTests {
    @Test func longValuesShowAtMostFourCharacters() {
        #expect(Redaction.redact("0123456789abcdef") == "0123…")
        #expect(Redaction.redact(String(repeating: "ab", count: 32)) == "abab…")
    }

    @Test func shortValuesAreMaskedWhole() {
        for value in ["", "a", "short", "0123456789abcde"] {
            #expect(Redaction.redact(value) == "••••", "\(value.count) characters")
        }
    }

    /// A listed API token (the store keeps its first characters only) looks as the whole token would.
    @Test func aKeptPrefixShowsAsTheWholeValueWould() {
        let token = String(repeating: "3f9a", count: 16)
        #expect(Redaction.redacted(prefix: token.prefix(Redaction.shownCharacters)) == Redaction.redact(token))
        #expect(Redaction.redacted(prefix: token) == "3f9a…")
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

    /// Every kind of token the relay handles is at least `scrubbedRunLength` long and is caught
    /// whole, wherever it stands in the text.
    @Test func everyKindOfTokenIsCaught() {
        let tokens = [
            String(repeating: "ab12", count: 16),  // an APNs device token, an API token
            String(repeating: "0123456789abcdef", count: 5),  // a session token (80)
            String(repeating: "9f3c", count: 10),  // a Sendbird API token (40)
            "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzAwMDAwMDAwfQ.c2ln",  // a JWT
            "IQAAAACy0kYkAAD" + String(repeating: "x9_Y-", count: 20),  // an HMS token
        ]
        for token in tokens {
            for text in [token, "to \(token)", "(\(token))", "path/\(token)/x", "ü\(token)ü"] {
                let scrubbed = Redaction.scrub(text)
                #expect(!scrubbed.contains(token.prefix(Redaction.shownCharacters + 1)), "\(scrubbed)")
                #expect(scrubbed.contains(Redaction.redact(token)), "\(scrubbed)")
            }
        }
    }

    /// What an operator looks for in a log stays readable: UUIDs (apns-ids), IPv6 addresses,
    /// timestamps, paths, and any run under the length.
    @Test func shorterRunsAreKept() {
        let kept = [
            "apns-id 123e4567-e89b-12d3-a456-426614174000 answered 410",
            "cannot connect to [2001:0db8:85a3:0000:0000:8a2e:0370:7334]:443",
            "at 2026-11-25T15:30:12.345Z",
            "/v3/users/alice/push_preference/sendbird_group_channel_1234567",
            String(repeating: "a", count: Redaction.scrubbedRunLength - 1),
            String(repeating: "é", count: 80),
        ]
        for text in kept { #expect(Redaction.scrub(text) == text) }
        let long = String(repeating: "a", count: Redaction.scrubbedRunLength)
        #expect(Redaction.scrub("x \(long) y") == "x aaaa… y")
    }
}

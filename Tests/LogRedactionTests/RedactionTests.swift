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
}

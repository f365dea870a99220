import Foundation
import Testing
import UUIDText

@Suite(.timeLimit(.minutes(5))) struct UUIDTextTests {
    @Test func lowercaseFormMatchesFoundation() {
        for _ in 0..<100 {
            let id = UUID()
            #expect(UUIDText.lowercase(id) == id.uuidString.lowercased())
        }
        let fixed = UUID(uuidString: "00FF10AB-CDEF-4123-8456-789ABCDEF012")!
        #expect(UUIDText.lowercase(fixed) == "00ff10ab-cdef-4123-8456-789abcdef012")
    }

    @Test func parsingAgreesWithFoundationOnEveryCanonicalText() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(UUIDText.parse(UUIDText.lowercase(id)) == id)
            #expect(UUIDText.parse(id.uuidString) == id)
        }
        #expect(UUIDText.parse("00FF10AB-CDEF-4123-8456-789abcdef012") == UUID(uuidString: "00FF10AB-CDEF-4123-8456-789abcdef012"))
    }

    /// Exactly 8-4-4-4-12 hex digits. Foundation's parser on Linux goes through `sscanf`'s
    /// `%2hhx`, which also takes a `0x`, a sign or a leading space inside a group (and reads
    /// " 0ff10ab…" as 0FF10A0B…); those are refused here.
    @Test func anythingElseIsRefused() {
        let texts = [
            "", "00ff10ab-cdef-4123-8456-789abcdef01", "00ff10ab-cdef-4123-8456-789abcdef0123", "00ff10abcdef-4123-8456-789abcdef012-",
            "00ff10ab-cdef-4123-8456_789abcdef012", "g0ff10ab-cdef-4123-8456-789abcdef012", "00ff10ab-cdef-4123-8456-789abcdef01Z",
            "{0ff10ab-cdef-4123-8456-789abcdef01}", "00ff10ab cdef 4123 8456 789abcdef012", "00ff10ab-cdef-4123-8456-789abcdéf01",
            "0xff10ab-cdef-4123-8456-789abcdef012", " 0ff10ab-cdef-4123-8456-789abcdef012", "+0ff10ab-cdef-4123-8456-789abcdef012",
        ]
        for text in texts {
            #expect(UUIDText.parse(text) == nil, "\(text)")
        }
    }
}

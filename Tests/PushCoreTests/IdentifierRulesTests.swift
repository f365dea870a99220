import Testing

@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct IdentifierRulesTests {
    @Test func theByteScanAgreesWithUnicodesControlCategoryForEveryScalarUpToU0800() {
        // Every one- and two-byte scalar, alone and between ordinary characters; above U+07FF
        // no UTF-8 sequence can hold a byte the scan reacts to (lead bytes ≥ 0xE0, continuation
        // bytes ≥ 0x80 after a lead other than 0xC2).
        for value in UInt32(0)..<0x800 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let isControl = scalar.properties.generalCategory == .control
            for text in [String(Character(scalar)), "a" + String(Character(scalar)) + "b", "é\(Character(scalar))"] {
                #expect(IdentifierRules.containsControl(text) == isControl, "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func controlsAmongWiderCharactersAreFound() {
        #expect(IdentifierRules.containsControl("用户\u{85}名"))
        #expect(IdentifierRules.containsControl("😀\u{0}"))
        #expect(!IdentifierRules.containsControl("用户名😀Â\u{A0}"))
        // 0xC2 followed by a byte past 0x9F is an ordinary character (U+00A0 …).
        #expect(!IdentifierRules.containsControl("\u{C2}\u{A0}\u{BF}"))
    }

    @Test func problemsAreNamed() {
        #expect(IdentifierRules.problem(with: "") == "a non-empty string")
        #expect(IdentifierRules.problem(with: String(repeating: "x", count: 256)) == "at most 255 bytes")
        #expect(IdentifierRules.problem(with: "user\u{9F}") == "a string without control characters")
        #expect(IdentifierRules.problem(with: "user-42") == nil)
    }
}

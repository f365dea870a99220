import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct JSONWriterTests {
    @Test func writesCompactSortedJSON() {
        let value = JSONValue.object(["b": .int(-3), "a": .array([.null, .bool(false), .double(0.5)]), "c": .object([:])])
        #expect(JSONWriter.string(value) == #"{"a":[null,false,0.5],"b":-3,"c":{}}"#)
    }

    @Test func escapesOnlyWhatJSONRequires() {
        let text = "a\"b\\c/d\n\r\t\u{8}\u{C}\u{0}\u{1F}é😀"
        #expect(JSONWriter.string(.string(text)) == #""a\"b\\c/d\n\r\t\b\f\u0000\u001fé😀""#)
    }

    @Test func nonFiniteDoublesBecomeNull() {
        #expect(JSONWriter.string(.array([.double(.nan), .double(.infinity)])) == "[null,null]")
    }

    @Test(arguments: [
        "", "plain", "emoji 👨‍👩‍👧‍👦 and flags 🇯🇵🇰🇷", "עברית ومرحبا \u{202E}", "controls \u{0}\u{1}\u{7F}\u{2028}",
        "combining e\u{301}\u{302}", "quotes \"'\\",
    ])
    func roundTripsThroughFoundation(text: String) throws {
        let data = JSONWriter.data(.object(["k": .string(text), "n": .int(Int64.max), "m": .int(Int64.min)]))
        let decoded = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(decoded["k"] as? String == text)
        #expect(try JSONValue.parse(data) == .object(["k": .string(text), "n": .int(Int64.max), "m": .int(Int64.min)]))
    }
}

import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func parsesScalarsAndContainers() throws {
        #expect(
            try parse(" \n\t{ \"a\" : [ 1 , -2 , 3.25 , -0.5e1 , 1E2 , true , false , null , \"\" ] , \"b\" : { } }\r\n")
                == .object([
                    "a": .array([
                        .int(1), .int(-2), .double(3.25), .double(-5), .double(100), .bool(true), .bool(false),
                        .null, .string(""),
                    ]), "b": .object([:]),
                ]))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("\"top\"") == .string("top"))
    }

    /// Nested objects gather their fields on one shared stack: each gets exactly its own, and a
    /// key given twice keeps its last value.
    @Test func nestedObjectsKeepTheirOwnFieldsAndTheLastOfADuplicateKey() throws {
        #expect(
            try parse(#"{"a":1,"b":{"a":2,"c":{"a":3},"d":[{"a":5,"a":6},{}]},"a":4,"e":{}}"#)
                == .object([
                    "a": .int(4),
                    "b": .object([
                        "a": .int(2), "c": .object(["a": .int(3)]), "d": .array([.object(["a": .int(6)]), .object([:])]),
                    ]),
                    "e": .object([:]),
                ]))
        let many = "{" + (0..<100).map { #""k\#($0)":{"v":\#($0)}"# }.joined(separator: ",") + "}"
        guard case .object(let fields) = try parse(many) else { Issue.record("not an object"); return }
        #expect(fields.count == 100)
        #expect(fields["k42"] == .object(["v": .int(42)]))
    }

    @Test func integersOutsideInt64BecomeDoubles() throws {
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("-9223372036854775808") == .int(.min))
        #expect(try parse("18446744073709551615") == .double(0x1p64))
        #expect(try parse("1e400") == .double(.infinity))
    }

    /// Up to 18 digits are summed directly; 19 go through the full conversion: both exact.
    @Test func integersAtTheFastPathsEdgeAreExact() throws {
        #expect(try parse("999999999999999999") == .int(999_999_999_999_999_999))
        #expect(try parse("-999999999999999999") == .int(-999_999_999_999_999_999))
        #expect(try parse("1000000000000000000") == .int(1_000_000_000_000_000_000))
        #expect(try parse("[-0,0,7]") == .array([.int(0), .int(0), .int(7)]))
    }

    /// A string read in one scan up to an escape, then byte by byte; unterminated either way.
    @Test func stringsSwitchToEscapesMidwayAndEndOnlyAtTheirQuote() throws {
        #expect(try parse(#"["plain","abc\"def","x\u0041"]"#) == .array([.string("plain"), .string(#"abc"def"#), .string("xA")]))
        #expect(throws: JSONParseError.self) { try parse(#""abc"#) }
        #expect(throws: JSONParseError.self) { try parse(#""abc\"#) }
    }

    @Test func decodesEscapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\uD55C\ud83d\ude00""#) == .string("\"\\/\u{8}\u{C}\n\r\tAé한😀"))
        // Sendbird sends "unicode-escaped" bodies: everything non-ASCII as \u escapes.
        #expect(try parse(#""\uc548\ub155 \ud83d\udc69\u200d\ud83d\udc67""#) == .string("안녕 👩‍👧"))
    }

    @Test func loneSurrogatesBecomeReplacementCharacters() throws {
        #expect(try parse(#""a\ud800b""#) == .string("a\u{FFFD}b"))
        #expect(try parse(#""\udc00""#) == .string("\u{FFFD}"))
        #expect(try parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    }

    @Test func invalidUTF8IsReplacedNotRejected() throws {
        var bytes = Array("\"a".utf8)
        bytes += [0xFF, 0xC3]
        bytes += Array("b\"".utf8)
        #expect(try JSONValue.parse(Data(bytes)) == .string("a\u{FFFD}\u{FFFD}b"))
    }

    @Test(arguments: [
        "", " ", "{", "[1,", "[1 2]", "{\"a\" 1}", "{a:1}", "{\"a\":1,}", "[1,]", "tru", "nul", "01x", "-", "1.", "1e",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "{} {}", "[1]]", "+1", ".5",
    ])
    func rejectsMalformedInput(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(text.utf8)) }
    }

    @Test func limitsNesting() throws {
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { try JSONValue.parse(Data(fine.utf8)) }
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(deep.utf8)) }
    }

    @Test func errorsSayWhere() {
        do {
            _ = try JSONValue.parse(Data("{\"a\": tru}".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 6)
            #expect(error.description == "invalid literal at byte 6")
        }
    }
}

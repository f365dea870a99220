import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct JSONValueTests {
    @Test func parsesEveryKindKeepingIntegersExact() throws {
        let value = try JSONValue.parse(Data(#"{"a":null,"b":true,"c":9007199254740993,"d":1.5,"e":"x","f":[1,"2"],"g":{}}"#.utf8))
        #expect(
            value
                == .object([
                    "a": .null, "b": .bool(true), "c": .int(9_007_199_254_740_993), "d": .double(1.5), "e": .string("x"),
                    "f": .array([.int(1), .string("2")]), "g": .object([:]),
                ]))
    }

    @Test func boolsAndNumbersStayDistinct() throws {
        #expect(try JSONValue.parse(Data("[true, 1, 0, false]".utf8)) == .array([.bool(true), .int(1), .int(0), .bool(false)]))
    }

    @Test func lenientReaders() {
        #expect(JSONValue.string("238303376").lenientInt64 == 238_303_376)
        #expect(JSONValue.string(" 12 ").lenientInt64 == 12)
        #expect(JSONValue.string("1.0e3").lenientInt64 == 1000)
        #expect(JSONValue.double(4.0).lenientInt64 == 4)
        #expect(JSONValue.double(4.5).lenientInt64 == nil)
        #expect(JSONValue.string("x").lenientInt64 == nil)
        #expect(JSONValue.bool(true).lenientInt64 == nil)
        #expect(JSONValue.int(0).lenientBool == false)
        #expect(JSONValue.int(2).lenientBool == true)
        #expect(JSONValue.string("TRUE").lenientBool == true)
        #expect(JSONValue.string("maybe").lenientBool == nil)
        #expect(JSONValue.int(42).lenientString == "42")
        #expect(JSONValue.object([:]).lenientString == nil)
    }
}

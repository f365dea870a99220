import Foundation
import MockSupport
import Testing

/// What a mock records as parsed JSON reads back as it was written.
@Suite(.timeLimit(.minutes(5))) struct JSONValueTests {
    @Test func integersStayIntegersAndObjectsAreReadByKey() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"id":42,"x":1.5,"s":"hi","n":null,"a":[true]}"#.utf8))
        #expect(value["id"] == .integer(42))
        #expect(value["x"] == .number(1.5))
        #expect(value["s"]?.stringValue == "hi")
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([.bool(true)]))
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) == value)
    }
}

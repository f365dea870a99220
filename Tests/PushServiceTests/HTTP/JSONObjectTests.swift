import Foundation
import Testing

@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct JSONObjectTests {
    /// Integers written as `1.0` or `1e2` were accepted when Foundation's decoder parsed REST bodies;
    /// PushCore's parser reads them as doubles, and the readers still take them. A fraction is not
    /// an integer.
    @Test func integralDoublesAreIntegersAndFractionsAreNot() throws {
        let body = try JSONObject.parse(Data(#"{"a": 1.0, "b": 1e2, "c": 1.5, "d": 7, "e": "7"}"#.utf8))
        #expect(try body.integer("a") == 1)
        #expect(try body.integer("b") == 100)
        #expect(try body.integer("d") == 7)
        #expect(throws: APIError.self) { try body.integer("c") }
        #expect(throws: APIError.self) { try body.integer("e") }
        #expect(try body.integer("e", allowNumericString: true) == 7)
    }

    @Test func aBodyThatIsNotAnObjectOrNotJSONIsRefused() throws {
        #expect(throws: APIError.self) { try JSONObject.parse(Data("[1]".utf8)) }
        #expect(throws: APIError.self) { try JSONObject.parse(Data(#"{"a": "#.utf8)) }
        #expect(try JSONObject.parse(Data(" \n".utf8)).fields.isEmpty)
    }
}

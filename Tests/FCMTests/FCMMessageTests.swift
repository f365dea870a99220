import Foundation
import Testing
@testable import FCM

@Suite(.timeLimit(.minutes(5))) struct FCMMessageTests {
    static func parse(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func theBodyWrapsTheDataWithTokenPriorityAndTTL() throws {
        let data = Array(#"{"message":"hi","sendbird":"{}"}"#.utf8)
        let body = try Self.parse(FCMMessage.body(data: data, token: "tok:en\"\\", ttlSeconds: 3600))
        let message = try #require(body["message"] as? [String: Any])
        #expect(message["token"] as? String == "tok:en\"\\", "escaped, and read back as given")
        #expect(message["data"] as? [String: String] == ["message": "hi", "sendbird": "{}"])
        #expect(message["android"] as? [String: String] == ["priority": "high", "ttl": "3600s"])
        #expect(body["validate_only"] == nil)
        let probe = try Self.parse(FCMMessage.body(data: data, token: "t", ttlSeconds: 0, validateOnly: true))
        #expect(probe["validate_only"] as? Bool == true)
    }
}

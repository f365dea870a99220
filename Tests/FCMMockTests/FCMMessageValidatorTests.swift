import Foundation
import Testing
@testable import FCMMock

/// fcm-mock refuses what FCM refuses, with Google's status and error code.
@Suite(.timeLimit(.minutes(5))) struct FCMMessageValidatorTests {
    static let token = "device:APA91b" + String(repeating: "z", count: 140)

    static func validate(_ json: String) -> Result<FCMMessageValidator.Message, FCMMockAnswer> {
        FCMMessageValidator.validate(body: Data(json.utf8))
    }

    static func refusal(_ json: String) -> String? {
        guard case .failure(let answer) = validate(json) else { return nil }
        #expect(answer.status == 400)
        return String(decoding: answer.body, as: UTF8.self)
    }

    @Test func theRelaysShapeIsAccepted() throws {
        let result = Self.validate(
            #"{"message":{"android":{"priority":"high","ttl":"86400s"},"data":{"message":"hi","sendbird":"{}"},"token":"\#(Self.token)"}}"#)
        let message = try result.get()
        #expect(message.token == Self.token)
        #expect(message.data == ["message": "hi", "sendbird": "{}"])
        #expect(message.android == RecordedMessage.Android(priority: "high", ttl: "86400s"))
        #expect(!message.validateOnly)
        #expect(try Self.validate(#"{"message":{"token":"\#(Self.token)"},"validate_only":true}"#).get().validateOnly)
    }

    @Test func dataMustBeStringsWithinFCMsLimitAndNotReserved() {
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","data":{"n":1}}}"#)?.contains("INVALID_ARGUMENT") == true)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","data":{"from":"x"}}}"#)?.contains("from") == true)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","data":{"google.x":"x"}}}"#) != nil)
        // 4,096 bytes of keys and values pass, one more does not.
        let fits = String(repeating: "a", count: 4096 - 7)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","data":{"message":"\#(fits)"}}}"#) == nil)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","data":{"message":"\#(fits)a"}}}"#)?.contains("too big") == true)
    }

    @Test func oneWellFormedTokenIsTheOnlyTarget() {
        #expect(Self.refusal(#"{"message":{"data":{}}}"#) != nil)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","topic":"news"}}"#) != nil)
        #expect(Self.refusal(#"{"message":{"token":"has space"}}"#)?.contains("not a valid FCM registration token") == true)
        #expect(Self.refusal(#"{"message":{"token":""}}"#) != nil)
        #expect(Self.refusal(#"{"msg":{}}"#) != nil)
        #expect(Self.refusal("not json") != nil)
    }

    @Test func androidOptionsAreChecked() {
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","android":{"priority":"urgent"}}}"#) != nil)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","android":{"ttl":"86400"}}}"#) != nil)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","android":{"ttl":"2419201s"}}}"#) != nil)
        #expect(Self.refusal(#"{"message":{"token":"\#(Self.token)","android":{"ttl":"3.5s","priority":"NORMAL"}}}"#) == nil)
    }
}

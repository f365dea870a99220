import Foundation
import Testing
@testable import HMSMock

/// hms-mock refuses what HMS Push Kit refuses, with Huawei's result code.
@Suite(.timeLimit(.minutes(5))) struct HMSMessageValidatorTests {
    static let token = "IQAAAACy0kYkAAB" + String(repeating: "z", count: 110)

    static func validate(_ json: String) -> Result<HMSMessageValidator.Message, HMSMessageValidator.Refusal> {
        HMSMessageValidator.validate(body: Data(json.utf8))
    }

    static func refusal(_ json: String) -> HMSResultCode? {
        guard case .failure(let refusal) = validate(json) else { return nil }
        return refusal.code
    }

    @Test func theRelaysShapeIsAccepted() throws {
        let message = try Self.validate(
            #"{"validate_only":false,"message":{"data":"{\"message\":\"hi\",\"sendbird\":{\"n\":1}}","android":{"urgency":"HIGH","ttl":"86400s"},"token":["\#(Self.token)"]}}"#
        ).get()
        #expect(message.tokens == [Self.token])
        #expect(message.data == .object(["message": .string("hi"), "sendbird": .object(["n": .integer(1)])]))
        #expect(message.android == RecordedMessage.Android(urgency: "HIGH", ttl: "86400s"))
        #expect(!message.validateOnly)
        #expect(try Self.validate(#"{"validate_only":true,"message":{"data":"{}","token":["t"]}}"#).get().validateOnly)
    }

    @Test func dataMustBeAStringHoldingAJSONObject() {
        #expect(Self.refusal(#"{"message":{"token":["t"]}}"#) == .parameterError)
        #expect(Self.refusal(#"{"message":{"data":"[1]","token":["t"]}}"#) == .parameterError)
        #expect(Self.refusal(#"{"message":{"data":"hello","token":["t"]}}"#) == .parameterError)
        #expect(Self.refusal(#"{"message":{"data":{"a":"b"},"token":["t"]}}"#) == .incorrectMessageStructure)
    }

    @Test func tokensAreAnArrayOfOneToAThousand() {
        #expect(Self.refusal(#"{"message":{"data":"{}","token":"t"}}"#) == .incorrectMessageStructure)
        #expect(Self.refusal(#"{"message":{"data":"{}","token":[]}}"#) == .tokenCountOutOfRange)
        #expect(Self.refusal(#"{"message":{"data":"{}"}}"#) == .tokenCountOutOfRange)
        let thousand = Array(repeating: "\"t\"", count: 1000).joined(separator: ",")
        #expect(Self.refusal(#"{"message":{"data":"{}","token":[\#(thousand)]}}"#) == nil)
        #expect(Self.refusal(#"{"message":{"data":"{}","token":[\#(thousand),"t"]}}"#) == .tokenCountOutOfRange)
        #expect(Self.refusal(#"{"message":{"data":"{}","topic":"news","token":["t"]}}"#) == .parameterError)
    }

    @Test func theMessageWithoutItsTokensFitsIn4096Bytes() {
        let longToken = String(repeating: "T", count: 3000)
        func body(_ filler: Int, token: String) -> String {
            #"{"message":{"data":"{\"m\":\"\#(String(repeating: "x", count: filler))\"}","token":["\#(token)"]}}"#
        }
        let frame = body(0, token: "").utf8.count
        // Tokens do not count: the same message fits with a 3,000-byte token.
        #expect(Self.refusal(body(4096 - frame, token: longToken)) == nil)
        #expect(Self.refusal(body(4096 - frame + 1, token: longToken)) == .messageTooLarge)
    }

    @Test func androidOptionsAreChecked() {
        func with(_ android: String) -> HMSResultCode? {
            Self.refusal(#"{"message":{"data":"{}","android":\#(android),"token":["t"]}}"#)
        }
        #expect(with(#"{"urgency":"high"}"#) == .parameterError)
        #expect(with(#"{"urgency":"URGENT"}"#) == .parameterError)
        #expect(with(#"{"ttl":"a day"}"#) == .parameterError)
        #expect(with(#"{"ttl":"s"}"#) == .parameterError)
        #expect(with(#"{"ttl":86400}"#) == .incorrectMessageStructure)
        #expect(with(#"{"urgency":"NORMAL","ttl":"20","category":"IM"}"#) == nil)
    }

    @Test func durationsAreSecondsAsHuaweisSDKsWriteThem() {
        for valid in ["86400s", "20", "20S", "3.5s", "0.123456789"] { #expect(HMSMessageValidator.isDuration(valid), "\(valid)") }
        for invalid in ["", "s", "1.s", ".5s", "1.1234567890", "-1s", "1e3s", "86400ms"] {
            #expect(!HMSMessageValidator.isDuration(invalid), "\(invalid)")
        }
    }

    @Test func whatIsNotTheMessageStructureSaysSo() {
        #expect(Self.refusal("not json") == .incorrectMessageStructure)
        #expect(Self.refusal(#"{"msg":{}}"#) == .incorrectMessageStructure)
        #expect(Self.refusal(#"{"message":{"data":"{}","token":[1]}}"#) == .incorrectMessageStructure)
    }
}

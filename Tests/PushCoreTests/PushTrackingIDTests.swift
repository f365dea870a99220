import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct PushTrackingIDTests {
    @Test func roundTripsAndTellsRecipientsApart() throws {
        let id = PushTrackingID(messageID: 4_633_387_838, recipient: "bob")
        #expect(id.description.hasPrefix("4633387838-"))
        #expect(id.description.count == "4633387838-".count + 16)
        let parsed = try #require(PushTrackingID(id.description))
        #expect(parsed == id)
        #expect(parsed.names("bob"))
        #expect(!parsed.names("carol"))
        #expect(PushTrackingID(messageID: -5, recipient: "x").description.hasPrefix("-5-"))
        #expect(PushTrackingID(PushTrackingID(messageID: -5, recipient: "x").description)?.messageID == -5)
        // FNV-1a is fixed: the same id on every build and relay.
        #expect(PushTrackingID.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(PushTrackingID.hash("a") == 0xaf63_dc4c_8601_ec8c)
    }

    @Test(arguments: [
        "", "12", "12-", "x-0123456789abcdef", "12-0123456789abcdeg", "12-0123456789abcde", "12-+123456789abcdef",
        String(repeating: "9", count: 40) + "-0123456789abcdef",
    ])
    func refusesWhatItDidNotWrite(text: String) {
        #expect(PushTrackingID(text) == nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct PushTrackingIDTextTests {
    @Test func theTextIsTheMessageIDAndSixteenZeroPaddedHexDigits() {
        #expect(PushTrackingID(messageID: 1, recipient: "").description == "1-cbf29ce484222325")
        for n in 0..<500 {
            let id = PushTrackingID(messageID: Int64(n) * 7_919 - 1_000, recipient: "user-\(n)")
            let hex = String(id.recipientHash, radix: 16)
            #expect(id.description == "\(id.messageID)-" + String(repeating: "0", count: 16 - hex.count) + hex)
        }
    }
}

import NIOCore
import NIOHPACK
import Testing

@testable import APNsMock

@Suite("APNsRequestValidator", .timeLimit(.minutes(5)))
struct APNsRequestValidatorTests {
    @Test("method and path")
    func methodAndPath() {
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/device/ab12") == .success("ab12"))
        #expect(APNsRequestValidator.deviceToken(method: "PUT", path: "/3/device/ab12") == .failure(.methodNotAllowed))
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/devices/ab12") == .failure(.badPath))
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/device") == .failure(.missingDeviceToken))
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/device/") == .failure(.missingDeviceToken))
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/device/ab1") == .failure(.badDeviceToken))
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/device/ab/12") == .failure(.badDeviceToken))
        #expect(APNsRequestValidator.deviceToken(method: "POST", path: "/3/device/AB12") == .success("AB12"))
    }

    @Test("apns-* headers")
    func headers() {
        func check(_ extra: [(String, String)], topic: Bool = true) -> APNsErrorAnswer? {
            var headers = HPACKHeaders(topic ? [("apns-topic", "t")] : [])
            for (name, value) in extra { headers.add(name: name, value: value) }
            return APNsRequestValidator.checkHeaders(headers)
        }
        #expect(check([]) == nil)
        #expect(check([], topic: false) == .missingTopic)
        #expect(
            check([("apns-push-type", "liveactivity")]) == .topicDisallowed, "a Live Activity's topic is <bundle>.push-type.liveactivity")
        #expect(
            APNsRequestValidator.checkHeaders(
                HPACKHeaders([("apns-topic", "com.example.app.push-type.liveactivity"), ("apns-push-type", "liveactivity")])) == nil)
        #expect(check([("apns-push-type", "Alert")]) == .invalidPushType)
        #expect(check([("apns-priority", "1")]) == nil)
        #expect(check([("apns-priority", "0")]) == .badPriority)
        #expect(check([("apns-push-type", "background"), ("apns-priority", "5")]) == nil)
        #expect(check([("apns-push-type", "background"), ("apns-priority", "10")]) == .badPriority)
        #expect(check([("apns-expiration", "1700000000")]) == nil)
        #expect(check([("apns-expiration", "1.5")]) == .badExpirationDate)
        #expect(check([("apns-id", "e2c8a7b0-1d2f-4c3b-9a8e-7f6d5c4b3a21")]) == nil)
        #expect(check([("apns-id", "e2c8a7b01d2f4c3b9a8e7f6d5c4b3a21")]) == .badMessageId)
        #expect(check([("apns-id", "g2c8a7b0-1d2f-4c3b-9a8e-7f6d5c4b3a21")]) == .badMessageId)
        #expect(check([("apns-collapse-id", String(repeating: "é", count: 33))]) == .badCollapseId)
        #expect(APNsRequestValidator.duplicateHeader(in: HPACKHeaders([("a", "1"), ("b", "2"), ("a", "3")])) == "a")
        #expect(APNsRequestValidator.duplicateHeader(in: HPACKHeaders([(":path", "/"), ("a", "1")])) == nil)
    }

    @Test("payload")
    func payload() {
        func check(_ text: String, pushType: String? = nil) -> APNsErrorAnswer? {
            APNsRequestValidator.checkPayload(ByteBuffer(string: text), length: text.utf8.count, pushType: pushType)
        }
        #expect(APNsRequestValidator.checkPayload(nil, length: 0, pushType: nil) == .payloadEmpty)
        #expect(check(#"{"aps":{}}"#) == nil)
        #expect(check(#"{"aps":[]}"#) == .invalidPayload)
        #expect(check("[1]") == .invalidPayload)
        // Apple's documented aps keys, each with its type; keys Apple does not define pass.
        let good = #"""
            {"aps":{"alert":{"title":"T","body":"B","loc-args":["a"]},"badge":3,"sound":{"critical":1,"name":"x","volume":0.5},
            "thread-id":"c","category":"C","content-available":1,"mutable-content":1,"target-content-id":"w",
            "interruption-level":"time-sensitive","relevance-score":0.3,"filter-criteria":"work","x-own":true}}
            """#
        #expect(check(good) == nil)
        for bad in [
            #""alert":3"#, #""alert":{"body":1}"#, #""alert":{"loc-args":[1]}"#, #""badge":"3""#, #""badge":true"#,
            #""sound":1"#, #""sound":{"volume":2}"#, #""thread-id":7"#, #""content-available":"1""#,
            #""interruption-level":"urgent""#, #""relevance-score":1.5"#, #""relevance-score":"0.5""#,
            #""filter-criteria":["work"]"#, #""target-content-id":null"#,
        ] {
            #expect(check(#"{"aps":{\#(bad)}}"#) == .invalidPayload, "\(bad)")
        }
        #expect(APNsRequestValidator.checkPayload(nil, length: 4097, pushType: "alert") == .payloadTooLarge)
        #expect(APNsRequestValidator.checkPayload(nil, length: 5121, pushType: "voip") == .payloadTooLarge)
    }

    /// Apple's Live Activity payloads: a start (push-to-start), an update and an end, and each rule
    /// broken once.
    @Test("Live Activity payloads")
    func liveActivityPayloads() {
        func check(_ aps: String) -> APNsErrorAnswer? {
            let text = #"{"aps":{\#(aps)}}"#
            return APNsRequestValidator.checkPayload(ByteBuffer(string: text), length: text.utf8.count, pushType: "liveactivity")
        }
        let start =
            #""timestamp":1700000000,"event":"start","content-state":{"score":1},"attributes-type":"Match","attributes":{"home":"A"},"alert":{"title":"T","body":"B"},"input-push-token":1"#
        let update = #""timestamp":1700000000,"event":"update","content-state":{"score":2},"stale-date":1700003600,"relevance-score":75"#
        let end = #""timestamp":1700000000,"event":"end","dismissal-date":1700007200"#
        for good in [start, update, end] { #expect(check(good) == nil, "\(good)") }
        for bad in [
            #""event":"update","content-state":{}"#,  // no timestamp
            #""timestamp":"1700000000","event":"update","content-state":{}"#,
            #""timestamp":1700000000,"event":"pause","content-state":{}"#,
            #""timestamp":1700000000,"event":"update""#,  // no content-state
            #""timestamp":1700000000,"event":"start","content-state":{},"attributes":{}"#,  // no attributes-type
            #""timestamp":1700000000,"event":"start","content-state":{},"attributes-type":"Match""#,  // no attributes
            #""timestamp":1700000000,"event":"end","dismissal-date":"soon""#,
            #""timestamp":1700000000,"event":"update","content-state":{},"relevance-score":"high""#,
        ] {
            #expect(check(bad) == .invalidPayload, "\(bad)")
        }
    }

    @Test("error bodies are Apple's JSON")
    func errorBodies() {
        #expect(APNsErrorAnswer.badPath.body == #"{"reason":"BadPath"}"#)
        #expect(APNsErrorAnswer(status: 418, reason: #"a"b"#).body == #"{"reason":"a\"b"}"#)
        #expect(
            APNsErrorAnswer.unregistered(since: .init(timeIntervalSince1970: 1.5)).body
                == #"{"reason":"Unregistered","timestamp":1500}"#
        )
    }
}

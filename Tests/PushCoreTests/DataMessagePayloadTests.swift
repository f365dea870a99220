import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct DataMessagePayloadTests {
    let now = instant("2022-11-22T14:26:35Z")

    func build(_ event: WebhookEvent, templates: PushTemplateSet = .sendbirdDefaults, rules: [any DataMessageSizeRule] = [])
        throws -> DataMessagePayload
    {
        let builder = PayloadBuilder()
        return try DataMessagePayload.build(
            builder: builder, prepared: builder.prepare(event, now: now), member: member("bob", nickname: "Bob", unread: 5),
            alert: TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: templates),
            recipientTemplate: .default, sound: "default", rules: rules)
    }

    /// Sendbird's Android shape: `message`, and `sendbird` as a JSON string holding what the APNs
    /// payload's `sendbird` holds.
    @Test func carriesTheRenderedTextAndTheSendbirdDictionaryAsAString() throws {
        let event = makeEvent(text: "hello")
        let fcm = try build(event)
        #expect(Set(fcm.data.keys) == ["message", "sendbird"])
        #expect(fcm.data["message"] == "Alice: hello")
        let apns = try PayloadBuilder().build(
            event: event, member: member("bob", nickname: "Bob", unread: 5),
            alert: TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults),
            recipientTemplate: .default, sound: "default", now: now)
        let sendbird = try JSONValue.parse(Data(try #require(fcm.data["sendbird"]).utf8))
        #expect(sendbird == (try JSONValue.parse(apns.data)).objectValue?["sendbird"])
        #expect(try JSONValue.parse(fcm.json) == .object(fcm.data.mapValues(JSONValue.string)))
        #expect(!fcm.isShortened)
    }

    @Test func aTemplateTitleGoesToPushTitle() throws {
        let event = makeEvent(text: "hello")
        var alert = TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults)
        alert.title = "From {sender_name}"
        let builder = PayloadBuilder()
        let fcm = try DataMessagePayload.build(
            builder: builder, prepared: builder.prepare(event, now: now), member: member("bob"), alert: alert,
            recipientTemplate: .default, sound: "default")
        #expect(fcm.data["push_title"] == "From Alice")
        #expect(try build(event).data["push_title"] == nil, "no title, no key")
    }

    /// A long message is cut on a character boundary so every key and value fits FCM's 4,096
    /// bytes, the same text in `message` and in `sendbird.message`.
    @Test(arguments: [5_000, 20_000]) func aLongMessageIsCutToFCMsLimit(length: Int) throws {
        let text = String(repeating: "é👋a", count: length / 3)
        let fcm = try build(makeEvent(text: text))
        #expect(fcm.isShortened)
        #expect(fcm.dataByteCount <= DataMessagePayload.maximumDataBytes)
        #expect(fcm.dataByteCount > DataMessagePayload.maximumDataBytes - 64, "cut no more than needed")
        let message = try #require(fcm.data["message"])
        #expect(message.hasSuffix("…"))
        let sendbird = try JSONValue.parse(Data(try #require(fcm.data["sendbird"]).utf8))
        guard case .string(let inner)? = sendbird.objectValue?["message"] else {
            Issue.record("no sendbird.message")
            return
        }
        #expect(message == "Alice: " + inner)
        #expect(text.hasPrefix(String(inner.dropLast())))
    }

    /// The builder says where `sendbird` stands in its payload, so the FCM form copies those bytes
    /// instead of parsing the payload: the result is the same as from a parse, byte for byte,
    /// with and without a title, quotes and non-ASCII text.
    /// A provider's own count also holds (here one like HMS's, in which the map is one JSON
    /// string inside a body: quotes, many in `sendbird` and in a text full of them, cost twice).
    @Test(arguments: ["é👋a", #"say "hi" \ "#]) func aLongMessageIsCutToTheProvidersOwnLimitToo(unit: String) throws {
        let event = makeEvent(text: String(repeating: unit, count: 6_000 / unit.count))
        let rule = StringInABody()
        let mapOnly = try build(event)
        let both = try build(event, rules: [rule])
        #expect(rule.bytes(of: mapOnly) > rule.maximumBytes, "the map's fit alone is too long for the rule")
        #expect(rule.bytes(of: both) <= rule.maximumBytes)
        // Cut no more than needed: a few characters (a quote in the text costs 12 bytes here).
        #expect(rule.bytes(of: both) > rule.maximumBytes - 160)
        #expect(both.dataByteCount <= DataMessagePayload.maximumDataBytes)
        #expect(both.isShortened)
        #expect(both.data["message"]?.hasSuffix("…") == true)
        let short = try build(makeEvent(text: "short"), rules: [rule])
        #expect(try short == build(makeEvent(text: "short")), "short texts are not touched")
    }

    @Test(arguments: ["hello", #"say "hi" \ to Zoë 👋"#, String(repeating: "long ", count: 2_000)])
    func theSendbirdBytesAreTakenAsTheBuilderWroteThem(text: String) throws {
        let event = makeEvent(text: text)
        for title in [nil, "From {sender_name}"] {
            var alert = TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults)
            alert.title = title
            let apns = try PayloadBuilder().build(
                event: event, member: member("bob", nickname: "Bob \"B\"", unread: 5), alert: alert, recipientTemplate: .default,
                sound: "default", now: now)
            let range = try #require(apns.sendbirdRange)
            let bytes = apns.data[apns.data.startIndex + range.lowerBound..<apns.data.startIndex + range.upperBound]
            #expect(try JSONValue.parse(Data(bytes)) == (try JSONValue.parse(apns.data)).objectValue?["sendbird"])
            var parsedOnly = apns
            parsedOnly.sendbirdRange = nil
            let fast = try #require(DataMessagePayload(apns))
            let parsed = try #require(DataMessagePayload(parsedOnly))
            #expect(fast.json == parsed.json)
            #expect(fast.data == parsed.data)
            #expect(JSONWriter.data(.object(fast.data.mapValues(JSONValue.string))) == fast.json)
        }
    }
}

/// A provider's count in which the map is one JSON string inside a body of 100 bytes.
private struct StringInABody: DataMessageSizeRule {
    let maximumBytes = 4096

    func bytes(of payload: DataMessagePayload) -> Int {
        var escaped: [UInt8] = []
        JSONWriter.writeString(String(decoding: payload.json, as: UTF8.self), into: &escaped)
        return 100 + escaped.count
    }
}

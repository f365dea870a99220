import Foundation
import Testing
@testable import PushCore

/// Fitting and rendering for arbitrary template × message: the payload always fits, is the one a
/// full render would give, keeps the longest prefix that fits, and the work done (bytes rendered)
/// is bounded by the limit and the template's length — never by template × message.
@Suite(.timeLimit(.minutes(5))) struct PayloadFittingPropertyTests {
    let now = instant("2022-11-22T14:26:35Z")

    /// Deterministic, so a failure reproduces (SplitMix64).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let templateTokens = [
        "{message}", "{sender_name}", "{channel_name}", "{filename}", "{file_type_friendly}",
        "{", "}", "{unknown}", "{{message}", "hi ", "\"", "\\", "\u{1}", "\n", "한", "👩‍👩‍👧‍👦", " ",
    ]
    static let messageTokens = [
        "a", "bc ", "\"", "\\", "\u{0}", "\u{1b}", "\t", "가나", "👩‍👩‍👧‍👦", "🏳️‍🌈", "e\u{301}",
        "{message}", "x",
    ]

    static func text(_ tokens: [String], count: Int, using generator: inout Generator) -> String {
        var text = ""
        for _ in 0..<count { text += tokens.randomElement(using: &generator)! }
        return text
    }

    /// The old, obviously correct renderer: one left-to-right pass, values not expanded again.
    static func referenceRender(_ text: String, values: TemplateValues) -> String {
        var output = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let value = values[variable: rest[afterOpen..<close]]
            {
                output += value
                rest = rest[rest.index(after: close)...]
            } else {
                output.append("{")
                rest = rest[afterOpen...]
            }
        }
        return output + rest
    }

    @Test func renderingMatchesTheReferenceForArbitraryTemplates() {
        var generator = Generator(state: 7)
        for _ in 0..<2_000 {
            let template = Self.text(Self.templateTokens, count: Int.random(in: 0...40, using: &generator), using: &generator)
            let values = TemplateValues(
                senderName: "Al{message}ice", message: Self.text(Self.messageTokens, count: 5, using: &generator),
                filename: "f\"ile", channelName: "{channel_name}", fileTypeFriendly: "Image")
            #expect(
                TemplateRenderer.render(template, values: values) == Self.referenceRender(template, values: values),
                "template \(template.debugDescription)")
        }
    }

    @Test func everyPayloadFitsIsFaithfulAndMaximal() throws {
        var generator = Generator(state: 42)
        for round in 0..<400 {
            let limit = Int.random(in: 700...4096, using: &generator)
            let body = Self.text(Self.templateTokens, count: Int.random(in: 0...60, using: &generator), using: &generator)
            let title =
                Bool.random(using: &generator)
                ? Self.text(Self.templateTokens, count: Int.random(in: 0...20, using: &generator), using: &generator) : nil
            let message = Self.text(Self.messageTokens, count: Int.random(in: 0...1_500, using: &generator), using: &generator)
            let event = makeEvent(text: message, templateOverride: .custom(title: title, body: body))
            let options = AppPushOptions(maxPayloadBytes: limit)
            let alert = TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults)
            let recipient = member("bob", nickname: "Bob")
            let payload: PushPayload
            do {
                payload = try PayloadBuilder(options: options).build(
                    event: event, member: recipient, alert: alert, recipientTemplate: .default, sound: "default", now: now)
            } catch {
                // Too large even with "…": the version with "…" alone must indeed not fit.
                let bare = try build(event, alert: alert, message: PayloadBuilder.ellipsis)
                #expect(bare.data.count > limit, "round \(round): refused though \"…\" fits")
                continue
            }
            #expect(payload.data.count <= limit, "round \(round)")
            let root = try decodePayload(payload.data)
            let sent = try #require((root["sendbird"] as? [String: Any])?["message"] as? String)
            var values = alert.values
            values.message = sent
            #expect(
                (root["aps"] as? [String: Any])?["alert"] as? String == Self.referenceRender(alert.body, values: values),
                "round \(round): the alert is the full render of the sent message")
            if let title {
                #expect((root["sendbird"] as? [String: Any])?["push_title"] as? String == Self.referenceRender(title, values: values))
            }
            guard payload.isShortened else {
                #expect(sent == message)
                continue
            }
            let kept = Array(sent.dropLast())
            let characters = Array(message)
            #expect(characters.starts(with: kept), "round \(round): a prefix of whole characters")
            // Maximal: one more character does not fit.
            let longer = String(characters.prefix(kept.count + 1)) + PayloadBuilder.ellipsis
            let bigger = try build(event, alert: alert, message: longer)
            #expect(bigger.data.count > limit, "round \(round): a longer prefix would have fit")
        }
    }

    /// The payload for `message` as is, under a limit nothing reaches.
    func build(_ event: WebhookEvent, alert: AlertTemplate, message: String) throws -> PushPayload {
        var event = event
        event.message.message = message
        var alert = alert
        alert.values.message = message
        return try PayloadBuilder(options: AppPushOptions(maxPayloadBytes: 1 << 24)).build(
            event: event, member: member("bob", nickname: "Bob"), alert: alert, recipientTemplate: .default,
            sound: "default", now: now)
    }

    @Test func renderingWorkIsBoundedByTheBudgetNotByTemplateTimesMessage() {
        var generator = Generator(state: 3)
        for _ in 0..<300 {
            let template = Self.text(Self.templateTokens, count: Int.random(in: 0...300, using: &generator), using: &generator)
            let name = Self.text(Self.messageTokens, count: Int.random(in: 0...60, using: &generator), using: &generator)
            let values = TemplateValues(
                senderName: name, message: String(repeating: "m", count: 100_000),
                filename: name, channelName: name)
            let budget = Int.random(in: 0...4096, using: &generator)
            let slots = TemplateRenderer.slots(template, values: values, budget: budget)
            // Rendering stops at the first append past the budget; one append is at most a value
            // or a literal run of the template.
            let longestAppend = 6 * max(name.utf8.count, template.utf8.count)
            #expect(slots.escapedByteCount <= budget + longestAppend)
            #expect(slots.pieces.map(\.utf8.count).reduce(0, +) <= budget + longestAppend)
            // The message is never copied into the pieces, however often the template names it.
            #expect(!slots.pieces.contains { $0.contains("mmmm") })
        }
    }

    /// The hostile webhook of the trust-boundary issue, as it reaches the builder after intake:
    /// 20,000 × `{message}` and a 100 KB message.
    @Test func aHostileTemplateAndMessageStillGiveOneBoundedPayload() throws {
        let template = String(repeating: "{message}", count: 20_000).cut(toBytes: TextLimits.templateBytes)
        let message = String(repeating: "0123456789", count: 10_000).cut(toScalars: TextLimits.messageScalars)
        #expect(template.utf8.count <= TextLimits.templateBytes)
        #expect(message.unicodeScalars.count == TextLimits.messageScalars)
        let event = makeEvent(text: message, templateOverride: .custom(title: template, body: template))
        let alert = TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults)
        let payload = try PayloadBuilder().build(
            event: event, member: member("bob"), alert: alert,
            recipientTemplate: .default, sound: "default", now: now)
        #expect(payload.data.count <= 4096)
        #expect(payload.isShortened)
    }

    @Test func cuttingKeepsWholeCharactersAndIsCheapOnHugeClusters() {
        #expect("héllo".cut(toBytes: 2) == "h")
        #expect("héllo".cut(toBytes: 3) == "hé")
        #expect("👩‍👩‍👧‍👦x".cut(toBytes: 24) == "")
        #expect("👩‍👩‍👧‍👦x".cut(toBytes: 25) == "👩‍👩‍👧‍👦")
        #expect("abc".cut(toBytes: 10) == "abc")
        // One character of 200,001 scalars: nothing of it fits in 10 bytes.
        let zalgo = "a" + String(repeating: "\u{301}", count: 200_000)
        #expect(zalgo.cut(toBytes: 10) == "")
        #expect(zalgo.cut(toScalars: 3).unicodeScalars.count == 3)
        #expect("abc".cut(toScalars: 3) == "abc")
    }
}

import Foundation
import Testing
@testable import PushCore

/// A payload patched from another member's (`PayloadMolds`) is byte for byte the one the builder
/// builds for that member: the same bytes, texts, `sendbird` range and shared spans, whatever the
/// member's id, nickname and counts, the app's badge and presentation settings, and however close
/// the message is to the limit (where a member's longer values make the builder cut it).
@Suite(.timeLimit(.minutes(2))) struct PayloadMoldTests {
    let now = instant("2022-11-22T14:26:35Z")

    static let idPieces = ["u", "7", "\"", "\\", "\u{1}", "한", "👩‍👩‍👧‍👦", " ", "/", "\n"]

    static func randomMember(using generator: inout PayloadFittingPropertyTests.Generator) -> WebhookMember {
        func text(_ count: ClosedRange<Int>) -> String {
            PayloadFittingPropertyTests.text(Self.idPieces, count: Int.random(in: count, using: &generator), using: &generator)
        }
        let counts = [0, 7, 42, 999, 123_456, 2_147_483_647]
        return WebhookMember(
            userID: "m" + text(0...12), nickname: text(0...20),
            totalUnreadMessageCount: counts.randomElement(using: &generator)!,
            channelUnreadMessageCount: counts.randomElement(using: &generator)!)
    }

    @Test func patchedPayloadsAreTheBuiltOnes() throws {
        var generator = PayloadFittingPropertyTests.Generator(state: 11)
        var patched = 0
        var cut = 0
        for round in 0..<300 {
            let members = (0..<8).map { _ in Self.randomMember(using: &generator) }
            let message = PayloadFittingPropertyTests.text(
                PayloadFittingPropertyTests.messageTokens, count: Int.random(in: 0...120, using: &generator), using: &generator)
            let mentioned = members.prefix(Int.random(in: 0...3, using: &generator)).map(\.userID)
            let event = makeEvent(text: message, members: members, mentioned: mentioned)
            let options = AppPushOptions(
                badge: Bool.random(using: &generator), mutableContent: Bool.random(using: &generator),
                maxPayloadBytes: Int.random(in: 900...2_400, using: &generator),
                presentation: AlertPresentation(
                    interruptionLevel: .active, mentionInterruptionLevel: Bool.random(using: &generator) ? .timeSensitive : nil))
            let builder = PayloadBuilder(options: options)
            let prepared = builder.prepare(event, now: now)
            let alert = builder.prepare(TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults))
            var molds = PayloadMolds()
            var firstCut = false
            for (index, member) in members.enumerated() {
                let built = try? builder.build(prepared: prepared, member: member, alert: alert, recipientTemplate: .default, sound: "ding")
                let made = try? molds.payload(
                    builder: builder, prepared: prepared, member: member, alert: alert, template: .default, sound: "ding",
                    translation: nil)
                #expect(made == built, "round \(round), member \(index)")
                if index == 0 { firstCut = made?.isShortened ?? true }
                // (A member's message cut although the first member's was not: the patch refused.)
                if index > 0, !firstCut, let made { if made.isShortened { cut += 1 } else { patched += 1 } }
            }
        }
        // Both ways were taken: members patched, and members whose values made the message be cut.
        #expect(patched > 500)
        #expect(cut > 5)
    }

    @Test func aMemberOfAnotherKindIsBuiltNotPatched() throws {
        let event = makeEvent(members: [member("alice"), member("bob"), member("carol")], mentioned: ["carol"])
        let builder = PayloadBuilder(
            options: AppPushOptions(presentation: AlertPresentation(interruptionLevel: .passive, mentionInterruptionLevel: .timeSensitive)))
        let prepared = builder.prepare(event, now: now)
        let alert = builder.prepare(TemplateRenderer.alertTemplate(for: event, recipientChoice: .default, templates: .sendbirdDefaults))
        var molds = PayloadMolds()
        func payload(_ member: WebhookMember, sound: String = "default", translation: String? = nil) throws -> [String: Any] {
            try decodePayload(
                molds.payload(
                    builder: builder, prepared: prepared, member: member, alert: alert, template: .default, sound: sound,
                    translation: translation
                ).data)
        }
        // Canonically equivalent, different bytes: each member gets the sound as they chose it.
        let composed = try payload(member("frank"), sound: "caf\u{E9}")
        let decomposed = try payload(member("grace"), sound: "cafe\u{301}")
        #expect(((composed["aps"] as? [String: Any])?["sound"] as? String)?.utf8.count == 5)
        #expect(((decomposed["aps"] as? [String: Any])?["sound"] as? String)?.utf8.count == 6)
        let bob = try payload(member("bob"))
        let carol = try payload(member("carol"))
        let translated = try payload(member("dave"), translation: "bonjour")
        let ding = try payload(member("erin"), sound: "ding")
        #expect((bob["aps"] as? [String: Any])?["interruption-level"] as? String == "passive")
        #expect((carol["aps"] as? [String: Any])?["interruption-level"] as? String == "time-sensitive")
        #expect((translated["sendbird"] as? [String: Any])?["message"] as? String == "bonjour")
        #expect((ding["aps"] as? [String: Any])?["sound"] as? String == "ding")
        #expect(((ding["sendbird"] as? [String: Any])?["recipient"] as? [String: Any])?["id"] as? String == "erin")
    }
}

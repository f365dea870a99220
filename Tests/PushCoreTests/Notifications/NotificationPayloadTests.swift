import Foundation
import Testing

@testable import PushCore

/// A notification's payload and the rules around it, pure: the forms per provider, fitting, the
/// language each user reads, templates, local times of day and the policy.
@Suite(.timeLimit(.minutes(1))) struct NotificationPayloadTests {
    static let content = NotificationContent(
        texts: NotificationTexts(standard: NotificationText(title: "Shipped", body: "Order A-17")),
        data: ["order": .string("A-17")], deepLink: "app://orders/A-17", category: "ORDER", sound: "ding", badge: 3,
        interruptionLevel: .timeSensitive)

    @Test func theNotificationFormCarriesTheApsKeysAndTheDetails() throws {
        let payload = NotificationPayload(content: Self.content, notificationID: 42, defaultSound: nil)
        let built = try payload.notification(Self.content.texts.standard, user: "alice")
        let json = try JSONValue.parse(built.data)
        #expect(
            json["aps"]
                == .object([
                    "alert": .object(["title": .string("Shipped"), "body": .string("Order A-17")]), "sound": .string("ding"),
                    "badge": .int(3), "category": .string("ORDER"), "interruption-level": .string("time-sensitive"),
                ]))
        #expect(json["push_notification"]?["id"] == .int(42) && json["push_notification"]?["deep_link"] == .string("app://orders/A-17"))
        let tracking = try #require(json["push_notification"]?["push_tracking_id"]?.lenientString.flatMap(PushTrackingID.init))
        #expect(tracking.messageID == -42 && tracking.names("alice"))
        // An app whose chat pushes are mutable gets its notifications so too (its service extension runs).
        let mutable = NotificationPayload(content: Self.content, notificationID: 42, defaultSound: nil, mutableContent: true)
        let aps = try JSONValue.parse(try mutable.notification(Self.content.texts.standard, user: "alice").data)["aps"]
        #expect(aps?["mutable-content"] == .int(1))
    }

    @Test func theDataFormIsAMapAndBothFitTheirLimitsByCuttingTheBody() throws {
        var long = Self.content
        long.texts.standard.body = String(repeating: "é", count: 5000)
        let payload = NotificationPayload(content: long, notificationID: 1, defaultSound: "default")
        let notification = try payload.notification(long.texts.standard, user: "u")
        #expect(notification.data.count <= 4096 && notification.isShortened && notification.alert.hasSuffix("…"))
        let data = try payload.dataMessage(long.texts.standard, user: "u", rules: [DataMapSize()])
        #expect(data.dataByteCount <= DataMessagePayload.maximumDataBytes && data.data["body"]?.hasSuffix("…") == true)
        #expect(data.data["title"] == "Shipped" && data.data["push_notification"]?.contains("\"id\":1") == true)
        // Data that leaves no room for even "…" is a skip, not a crash.
        var huge = Self.content
        huge.data = ["blob": .string(String(repeating: "x", count: 5000))]
        let tooLarge = NotificationPayload(content: huge, notificationID: 1, defaultSound: nil)
        #expect(throws: PayloadError.self) { try tooLarge.notification(huge.texts.standard, user: "u") }
    }

    @Test func eachUserReadsTheirFirstPreferredLanguageTheTextsHave() throws {
        let texts = NotificationTexts(
            standard: NotificationText(body: "Hello"),
            translations: ["de": NotificationText(body: "Hallo"), "pt-BR": NotificationText(body: "Olá")])
        #expect(texts.text(for: try PreferredLanguages(["fr", "DE"])).body == "Hallo")
        #expect(texts.text(for: try PreferredLanguages(["pt-br"])).body == "Olá")
        #expect(texts.text(for: .none).body == "Hello")
        #expect(texts.text(for: try PreferredLanguages(["ja"])).body == "Hello")
    }

    @Test func aTemplateFillsItsVariablesAndRefusesAMissingOne() throws {
        let template = NotificationTemplate(
            texts: NotificationTexts(
                standard: NotificationText(title: "{{Order}}", body: "Order {order} ships {when}"),
                translations: ["de": NotificationText(body: "Bestellung {order}")]))
        #expect(template.variableNames == ["order", "when"])
        let rendered = try template.render(["order": "A-17", "when": "today"])
        #expect(rendered.standard == NotificationText(title: "{Order}", body: "Order A-17 ships today"))
        #expect(rendered.translations["de"]?.body == "Bestellung A-17")
        #expect(throws: NotificationTemplate.Problem.missingVariable("when")) { try template.render(["order": "A-17"]) }
        let open = NotificationTemplate(texts: NotificationTexts(standard: NotificationText(body: "Order {order")))
        #expect(throws: NotificationTemplate.Problem.unclosedPlaceholder) { try open.render(["order": "1"]) }
    }

    @Test func nineInTheMorningComesOnEachUsersOwnClock() throws {
        let nine = try #require(LocalTimeOfDay("09:00"))
        #expect(LocalTimeOfDay("9:00") == nil && LocalTimeOfDay("24:00") == nil && LocalTimeOfDay("09:60") == nil)
        #expect(nine.description == "09:00")
        // 2025-11-28 12:00 UTC.
        let start = Date(timeIntervalSince1970: 1_764_331_200)
        let hour = 3600.0
        #expect(nine.next(onOrAfter: start, timezone: "America/New_York") == start.addingTimeInterval(2 * hour))
        #expect(nine.next(onOrAfter: start, timezone: "Asia/Tokyo") == start.addingTimeInterval(12 * hour))
        #expect(nine.next(onOrAfter: start, timezone: "Europe/Berlin") == start.addingTimeInterval(20 * hour))
        // An unknown zone reads as UTC; exactly at the time counts as now.
        #expect(nine.next(onOrAfter: start, timezone: "Mars/Olympus") == start.addingTimeInterval(21 * hour))
        let atNine = start.addingTimeInterval(21 * hour)
        #expect(nine.next(onOrAfter: atNine, timezone: "UTC") == atNine)
        // 02:30 does not exist in Berlin on 2026-03-29 (clocks jump from 02:00 to 03:00): the first
        // instant after the gap.
        let halfPastTwo = try #require(LocalTimeOfDay("02:30"))
        let dayOfChange = Date(timeIntervalSince1970: 1_774_742_400)  // 2026-03-29 00:00 UTC
        let due = halfPastTwo.next(onOrAfter: dayOfChange, timezone: "Europe/Berlin")
        #expect(due > dayOfChange && due <= dayOfChange.addingTimeInterval(1.5 * hour))
    }

    @Test func thePolicyAppliesTheUsersRulesAndTimeSensitivePassesQuietHours() {
        let now = Date(timeIntervalSince1970: 1_764_331_200)
        var quiet = UserPushPreferences()
        quiet.doNotDisturb = true
        quiet.dndWindow = TimeWindow(startHour: 0, startMin: 0, endHour: 23, endMin: 59)
        #expect(NotificationPolicy.decide(preferences: quiet, deviceTokenCount: 1, timeSensitive: false, now: now) == .skip(.doNotDisturb))
        #expect(NotificationPolicy.decide(preferences: quiet, deviceTokenCount: 1, timeSensitive: true, now: now) == .push)
        var off = quiet
        off.pushTriggerOption = .off
        #expect(NotificationPolicy.decide(preferences: off, deviceTokenCount: 1, timeSensitive: true, now: now) == .skip(.triggerOff))
        var mentions = UserPushPreferences()
        mentions.pushTriggerOption = .mentionOnly
        #expect(NotificationPolicy.decide(preferences: mentions, deviceTokenCount: 1, timeSensitive: false, now: now) == .push)
        #expect(NotificationPolicy.decide(preferences: mentions, deviceTokenCount: 0, timeSensitive: false, now: now) == .skip(.noToken))
    }

    @Test func theStoredContentReadsBackAsItWas() throws {
        var content = Self.content
        content.texts.translations = ["de": NotificationText(body: "Bestellung")]
        content.collapseKey = "orders"
        content.timeToLiveSeconds = 60
        #expect(NotificationContent(stored: content.stored) == content)
        #expect(NotificationContent(stored: "[]") == nil)
        #expect(CollapseID.forMessage(-42) == "notification-42" && CollapseID.forMessage(0) == nil)
    }
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? { objectValue?[key] }
}

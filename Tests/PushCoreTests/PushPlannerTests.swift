import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct PushPlannerTests {
    let now = instant("2026-01-05T12:00:00Z")
    let bobTokens = [DeviceToken(token: "aa11", registeredAtMs: 1), DeviceToken(token: "bb22", registeredAtMs: 2)]

    /// APNs takes the notification, the others the data message.
    static func formats(_ providers: Set<PushProvider>) -> [PushProvider: PayloadFormat] {
        Dictionary(uniqueKeysWithValues: providers.map { ($0, $0 == .apns ? .notification : .dataMessage(DataMapSize())) })
    }

    /// An app without FCM settings pushes to APNs tokens only: a member whose only token is an
    /// FCM one has nothing to push to.
    @Test func tokensOfProvidersTheAppLacksAreNotPlanned() throws {
        let event = makeEvent(members: [member("alice"), member("bob"), member("carol")])
        let fcm = DeviceToken(token: "fcm-token", registeredAtMs: 3, provider: .fcm)
        let lookup = RecipientLookup(deviceTokens: ["bob": bobTokens + [fcm], "carol": [fcm]])
        let plan = PushPlanner().plan(event, lookup: lookup, now: now)
        #expect(plan.recipients.map(\.decision) == [.skip(.sender), .push, .skip(.noToken)])
        #expect(plan.deliveries.map(\.deviceToken.token) == ["aa11", "bb22"])
        #expect(plan.recipients[1].dataPayload == nil, "no Android form built for nobody")

        let fcmOnly = PushPlanner(formats: Self.formats([.fcm])).plan(event, lookup: lookup, now: now)
        #expect(fcmOnly.recipients.map(\.decision) == [.skip(.sender), .push, .push])
        #expect(fcmOnly.deliveries.map(\.deviceToken.token) == ["fcm-token", "fcm-token"])
    }

    /// One decision per member, then each token gets its provider's payload: the APNs bytes for
    /// APNs tokens, the FCM `data` map (same text, same `sendbird` dictionary) for FCM tokens.
    @Test func eachTokenGetsThePayloadOfItsProvider() throws {
        let event = makeEvent(members: [member("alice"), member("bob", unread: 3)])
        let fcm = DeviceToken(token: "fcm-token", registeredAtMs: 3, provider: .fcm)
        let lookup = RecipientLookup(deviceTokens: ["bob": bobTokens + [fcm]])
        let plan = PushPlanner(formats: Self.formats([.apns, .fcm])).plan(event, lookup: lookup, now: now)
        #expect(plan.recipients.map(\.decision) == [.skip(.sender), .push])
        let bob = plan.recipients[1]
        let apns = try #require(bob.payload)
        let android = try #require(bob.dataPayload)
        #expect(plan.deliveries.map(\.deviceToken.token) == ["aa11", "bb22", "fcm-token"])
        #expect(plan.deliveries[0].payload == apns.data && plan.deliveries[1].payload == apns.data)
        #expect(plan.deliveries[2].payload == android.json)

        #expect(android.data["message"] == apns.alert)
        let sendbirdJSON = try #require(android.data["sendbird"])
        let sendbird = try #require(JSONSerialization.jsonObject(with: Data(sendbirdJSON.utf8)) as? [String: Any])
        let apnsSendbird = try #require(try decodePayload(apns.data)["sendbird"] as? [String: Any])
        #expect(NSDictionary(dictionary: sendbird).isEqual(to: apnsSendbird), "the same dictionary on both platforms")
    }

    /// The alert is made once per template in an event: members alternating between the two
    /// templates each get their own template's text, whichever was seen first.
    /// Each reader sees the message in their first preferred language when the message carries
    /// that translation (on every provider), the original otherwise; every translation stays in
    /// `sendbird.translations`.
    @Test func eachReaderSeesTheTranslationIntoTheirFirstPreferredLanguage() throws {
        let translations = ["ko": "좋은 아침", "es": "Buenos días"]
        let event = makeEvent(
            text: "Good morning", members: [member("alice"), member("bora"), member("carl"), member("dan")], translations: translations)
        let fcm = DeviceToken(token: "fcm-token-of-bora", registeredAtMs: 3, provider: .fcm)
        var states: [ExactID: RecipientPushState] = [:]
        func reader(_ user: String, _ languages: [String], _ tokens: [DeviceToken]) throws {
            var state = RecipientPushState.defaults(for: user)
            state.tokens = tokens
            state.languages = try PreferredLanguages(languages)
            states[ExactID(user)] = state
        }
        try reader("bora", ["KO", "en"], bobTokens + [fcm])
        try reader("carl", ["fr", "es"], bobTokens)
        try reader("dan", [], bobTokens)
        let plan = PushPlanner(formats: Self.formats([.apns, .fcm])).plan(event, lookup: RecipientLookup(states), now: now)
        let (bora, carl, dan) = (plan.recipients[1], plan.recipients[2], plan.recipients[3])
        #expect(bora.payload?.alert == "Alice: 좋은 아침", "a code compares without case")
        #expect(bora.dataPayload?.data["message"] == "Alice: 좋은 아침", "the same on Android")
        let sendbird = try JSONValue.parse(bora.payload!.data).objectValue?["sendbird"]?.objectValue
        #expect(sendbird?["message"] == .string("좋은 아침"))
        #expect(sendbird?["translations"] == .object(translations.mapValues(JSONValue.string)))
        #expect(carl.payload?.alert == "Alice: Good morning", "only the first preferred language counts")
        #expect(dan.payload?.alert == "Alice: Good morning")
    }

    /// Sendbird's two multi-device modes, for every provider: a member online somewhere gets no
    /// push by default, and with multi-device support every one of their devices gets it.
    @Test func multiDeviceSupportPushesEveryDeviceOfAnOnlineMember() throws {
        var online = member("bob")
        online.isOnline = true
        let event = makeEvent(members: [member("alice"), online])
        let devices =
            bobTokens + [
                DeviceToken(token: "fcm-token-of-bob", registeredAtMs: 3, provider: .fcm),
                DeviceToken(token: "hms-token-of-bob", registeredAtMs: 4, provider: .hms),
            ]
        let lookup = RecipientLookup(deviceTokens: ["bob": devices])
        let all: Set<PushProvider> = [.apns, .fcm, .hms]
        let plain = PushPlanner(formats: Self.formats(all)).plan(event, lookup: lookup, now: now)
        #expect(plain.recipients[1].decision == .skip(.online))
        let multi = PushPlanner(options: AppPushOptions(multiDevice: true), formats: Self.formats(all)).plan(
            event, lookup: lookup, now: now)
        #expect(multi.recipients[1].decision == .push)
        #expect(Set(multi.deliveries.map(\.deviceToken.provider)) == all)
        #expect(multi.deliveries.count == 4)
    }

    @Test func membersOfOneEventGetTheAlertOfTheirOwnTemplate() throws {
        let names = ["b1", "b2", "b3", "b4", "b5"]
        let event = makeEvent(members: [member("alice")] + names.map { member($0) })
        var choices: [ExactID: PushTemplateName] = [:]
        for (index, name) in names.enumerated() where index % 2 == 1 { choices[ExactID(name)] = .alternative }
        let lookup = RecipientLookup(
            deviceTokens: Dictionary(uniqueKeysWithValues: names.map { (ExactID($0), bobTokens) }), templateChoices: choices)
        let plan = PushPlanner().plan(event, lookup: lookup, now: now)
        let templates = PushTemplateSet.sendbirdDefaults
        for recipient in plan.recipients.dropFirst() {
            let choice = choices[ExactID(recipient.userID)] ?? .default
            let expected = TemplateRenderer.alertTemplate(for: event, recipientChoice: choice, templates: templates).render().body
            #expect(try #require(recipient.payload).alert == expected, "\(recipient.userID)")
        }
        #expect(Set(plan.recipients.dropFirst().compactMap(\.payload?.alert)).count == 2)
    }

    @Test func plansEveryMemberInOrder() throws {
        let event = makeEvent(members: [
            member("alice"), member("bob", nickname: "Bob", unread: 7), member("carol"),
            WebhookMember(userID: "dave", isOnline: true), member("erin"), member("bob"),
        ])
        let lookup = RecipientLookup(
            userPreferences: ["erin": UserPushPreferences(pushTriggerOption: .off)],
            channelPreferences: ["bob": ChannelPushPreference(triggerOption: .all, pushSound: "bell.caf")],
            deviceTokens: ["bob": bobTokens, "erin": bobTokens],
            templateChoices: ["bob": .alternative]
        )
        let plan = PushPlanner().plan(event, lookup: lookup, now: now)
        #expect(plan.appID == "APP-1")
        #expect(plan.channelURL == "ch_1")
        #expect(plan.messageID == 4_633_387_838)
        #expect(plan.recipients.map(\.userID) == ["alice", "bob", "carol", "dave", "erin"], "duplicates planned once")
        #expect(
            plan.recipients.map(\.decision) == [
                .skip(.sender), .push, .skip(.noToken), .skip(.online), .skip(.triggerOff),
            ])
        #expect(plan.skipCounts == [.sender: 1, .noToken: 1, .online: 1, .triggerOff: 1])

        let bob = plan.recipients[1]
        let payload = try #require(bob.payload)
        #expect(payload.alert == "New message arrived!")
        #expect(bob.deviceTokens == bobTokens)
        #expect(plan.deliveries.map(\.deviceToken.token) == ["aa11", "bb22"])
        #expect(plan.deliveries.allSatisfy { $0.payload == payload.data && $0.userID == "bob" })

        let root = try decodePayload(payload.data)
        let aps = try #require(root["aps"] as? [String: Any])
        #expect(aps["sound"] as? String == "bell.caf")
        #expect(aps["badge"] as? Int == 7)
        let sendbird = try #require(root["sendbird"] as? [String: Any])
        #expect((sendbird["recipient"] as? [String: Any])?["push_template"] as? String == "alternative")
        #expect((sendbird["sqs_ts"] as? NSNumber)?.int64Value == UnixTime.milliseconds(now))
        #expect(plan.recipients.filter { $0.decision != .push }.allSatisfy { $0.payload == nil && $0.deliveries.isEmpty })
    }

    @Test func appOptionsAndTemplatesAreUsed() throws {
        let planner = PushPlanner(
            options: AppPushOptions(badge: false, pushAdminMessages: true, defaultSound: "app.caf"),
            templates: PushTemplateSet(defaultTemplate: PushMessageTemplate(mesg: "m", file: "f", admm: "Notice: {message}"))
        )
        let event = makeEvent(type: .admm, text: "Down at 3", sender: nil)
        let plan = planner.plan(event, lookup: RecipientLookup(deviceTokens: ["bob": bobTokens, "alice": bobTokens]), now: now)
        #expect(plan.recipients.map(\.decision) == [.push, .push], "no sender: nobody is skipped as sender")
        let adminPayload = try #require(plan.recipients[1].payload)
        let aps = try #require(try decodePayload(adminPayload.data)["aps"] as? [String: Any])
        #expect(aps["alert"] as? String == "Notice: Down at 3")
        #expect(aps["sound"] as? String == "app.caf")
        #expect(aps["badge"] == nil)
    }

    @Test func payloadThatCannotFitBecomesASkip() {
        let event = makeEvent(sender: WebhookSender(userID: "alice", nickname: String(repeating: "N", count: 5000)))
        let plan = PushPlanner().plan(event, lookup: RecipientLookup(deviceTokens: ["bob": bobTokens]), now: now)
        #expect(plan.recipients.map(\.decision) == [.skip(.sender), .skip(.payloadTooLarge)])
        #expect(plan.deliveries.isEmpty)
    }

    @Test func decodedWebhookPlansEndToEnd() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        var members = try #require(object["members"] as? [[String: Any]])
        var bob = members[0]
        bob["user_id"] = "Bob"
        bob["nickname"] = "Bob"
        members.append(bob)
        object["members"] = members
        let event = try WebhookEvent(json: try jsonData(object))
        let plan = PushPlanner().plan(
            event, lookup: RecipientLookup(deviceTokens: ["Bob": bobTokens]),
            now: instant("2018-10-29T07:35:56Z"))
        #expect(plan.recipients.map(\.decision) == [.skip(.sender), .push])
        let root = try decodePayload(try #require(plan.recipients[1].payload).data)
        #expect((root["aps"] as? [String: Any])?["alert"] as? String == "Oldies but goodies: Webhook simulation")
        let sendbird = try #require(root["sendbird"] as? [String: Any])
        #expect((sendbird["message_id"] as? NSNumber)?.int64Value == 238_303_376)
        #expect(sendbird["channel_type"] as? String == "group_messaging")
        #expect((sendbird["channel"] as? [String: Any])?["custom_type"] as? String == "business")
        #expect((sendbird["channel"] as? [String: Any])?["channel_unread_message_count"] as? Int == 5)
        #expect(sendbird["unread_message_count"] as? Int == 16)
        #expect(sendbird["translations"] as? [String: String] == ["en": "", "de": ""])
    }
}

import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct PayloadBuilderTests {
    let now = instant("2022-11-22T14:26:35Z")

    func build(
        _ event: WebhookEvent,
        member recipient: WebhookMember = member("bob", nickname: "Bob", unread: 5, channelUnread: 2),
        choice: PushTemplateName = .default,
        sound: String = "default",
        options: AppPushOptions = .defaults
    ) throws -> PushPayload {
        try PayloadBuilder(options: options).build(
            event: event, member: recipient,
            alert: TemplateRenderer.alertTemplate(for: event, recipientChoice: choice, templates: .sendbirdDefaults),
            recipientTemplate: choice, sound: sound, now: now
        )
    }

    @Test func matchesTheDocumentedFormatFieldByField() throws {
        let event = makeEvent(text: "hello", mentioned: ["carol"], translations: ["ko": "안녕"])
        let payload = try build(event)
        let root = try decodePayload(payload.data)
        #expect(Set(root.keys) == ["aps", "sendbird"])

        let aps = try #require(root["aps"] as? [String: Any])
        #expect(Set(aps.keys) == ["alert", "sound", "badge", "thread-id"])
        #expect(aps["thread-id"] as? String == "ch_1", "iOS groups a channel's notifications")
        #expect(aps["alert"] as? String == "Alice: hello")
        #expect(aps["sound"] as? String == "default")
        #expect(aps["badge"] as? Int == 5)

        let sendbird = try #require(root["sendbird"] as? [String: Any])
        #expect(
            Set(sendbird.keys) == [
                "category", "type", "message", "data", "custom_type", "message_id", "created_at", "app_id",
                "unread_message_count", "channel", "channel_type", "sender", "recipient", "files", "translations",
                "push_title", "push_sound", "audience_type", "mentioned_users", "notification_action", "sqs_ts",
                "push_tracking_id",
            ])
        #expect(sendbird["push_tracking_id"] as? String == PushTrackingID(messageID: 4_633_387_838, recipient: "bob").description)
        #expect(sendbird["category"] as? String == "messaging:offline_notification")
        #expect(sendbird["type"] as? String == "MESG")
        #expect(sendbird["message"] as? String == "hello")
        #expect(sendbird["data"] as? String == #"{"k":1}"#)
        #expect(sendbird["custom_type"] as? String == "greeting")
        #expect((sendbird["message_id"] as? NSNumber)?.int64Value == 4_633_387_838)
        #expect((sendbird["created_at"] as? NSNumber)?.int64Value == 1_669_127_194_985)
        #expect(sendbird["app_id"] as? String == "APP-1")
        #expect(sendbird["unread_message_count"] as? Int == 5)
        #expect(sendbird["channel_type"] as? String == "group_messaging")
        #expect(sendbird["push_title"] is NSNull)
        #expect(sendbird["push_sound"] as? String == "default")
        #expect(sendbird["audience_type"] as? String == "only")
        #expect(sendbird["notification_action"] as? String == "create")
        #expect((sendbird["sqs_ts"] as? NSNumber)?.int64Value == 1_669_127_195_000)
        #expect(sendbird["translations"] as? [String: String] == ["ko": "안녕"])
        #expect((sendbird["files"] as? [Any])?.isEmpty == true)

        let channel = try #require(sendbird["channel"] as? [String: Any])
        #expect(Set(channel.keys) == ["channel_url", "name", "custom_type", "channel_unread_message_count"])
        #expect(channel["channel_url"] as? String == "ch_1")
        #expect(channel["name"] as? String == "Team")
        #expect(channel["custom_type"] as? String == "")
        #expect(channel["channel_unread_message_count"] as? Int == 2)

        let sender = try #require(sendbird["sender"] as? [String: Any])
        #expect(Set(sender.keys) == ["id", "name", "profile_url", "require_auth_for_profile_image"])
        #expect(sender["id"] as? String == "alice")
        #expect(sender["name"] as? String == "Alice")
        #expect(sender["profile_url"] as? String == "")
        #expect(sender["require_auth_for_profile_image"] as? Bool == false)

        let recipient = try #require(sendbird["recipient"] as? [String: Any])
        #expect(Set(recipient.keys) == ["id", "name", "push_template"])
        #expect(recipient["id"] as? String == "bob")
        #expect(recipient["name"] as? String == "Bob")
        #expect(recipient["push_template"] as? String == "default")

        let mentioned = try #require(sendbird["mentioned_users"] as? [[String: Any]])
        #expect(mentioned.count == 1)
        #expect(mentioned[0]["user_id"] as? String == "carol")
        #expect(mentioned[0]["nickname"] as? String == "carol nick")
        #expect(mentioned[0]["profile_url"] as? String == "")
        #expect(mentioned[0]["require_auth_for_profile_image"] as? Bool == false)

        #expect(payload.alert == "Alice: hello")
        #expect(payload.message == "hello")
        #expect(!payload.isShortened)
    }

    @Test func bytesAreCompactSortedAndStable() throws {
        let event = makeEvent()
        let first = try build(event)
        let second = try build(event)
        #expect(first.data == second.data)
        let text = String(decoding: first.data, as: UTF8.self)
        #expect(
            text.hasPrefix(#"{"aps":{"alert":"Alice: hello","badge":5,"sound":"default","thread-id":"ch_1"},"sendbird":{"app_id":"APP-1","#)
        )
        #expect(!text.contains(" :") && !text.contains("\n"))
    }

    /// The builder writes keys in sorted order by hand; re-serialising its output with the
    /// canonical sorted-key writer must give the same bytes, for every shape of payload.
    @Test(arguments: [
        AppPushOptions.defaults,
        AppPushOptions(badge: false, mutableContent: true, contentAvailable: true),
        AppPushOptions(mutableContent: true, contentAvailable: true, presentation: PayloadBuilderTests.everyPresentationKey),
    ])
    func bytesEqualTheCanonicalSortedWriter(options: AppPushOptions) throws {
        let photo = WebhookFile(url: "https://cdn/x/a.jpg", name: "a \"b\".jpg", contentType: "image/jpeg", size: 7)
        let events = [
            makeEvent(),
            makeEvent(type: .file, text: "", files: [photo]),
            makeEvent(sender: nil, mentioned: ["carol", "dave"], translations: ["ko": "안녕", "es": "hola\n"]),
            makeEvent(text: String(repeating: "가나다 ", count: 1500)),  // shortened to fit
        ]
        // The recipient's id and name are written by hand: quotes, a backslash, controls and
        // wide characters must come out as the writer escapes them.
        let odd = member("b\"o\\b/ü", nickname: "Bob \"the\" 🚀\n\u{1}", unread: 5, channelUnread: 2)
        for event in events {
            for recipient in [member("bob", nickname: "Bob", unread: 5, channelUnread: 2), odd] {
                let payload = try build(event, member: recipient, choice: .alternative, options: options)
                let canonical = JSONWriter.data(try JSONParser.parse(payload.data))
                #expect(payload.data == canonical, "\(String(decoding: payload.data, as: UTF8.self))")
                // The runs the store keeps once per event are where the spans say, and all of
                // the shared bytes are used once each, in order.
                let shared = PayloadBuilder(options: options).prepare(event, now: now).sharedBytes
                let bytes = [UInt8](payload.data)
                #expect(payload.sharedSpans.count == 4)
                var offset = 0
                var position = 0
                for span in payload.sharedSpans {
                    #expect(span.offset == offset && span.position >= position && span.length > 0)
                    #expect(bytes[span.position..<span.position + span.length] == shared[span.offset..<span.offset + span.length])
                    offset += span.length
                    position = span.position + span.length
                }
                #expect(offset == shared.count)
            }
        }
    }

    static let everyPresentationKey = AlertPresentation(
        interruptionLevel: .passive, mentionInterruptionLevel: .timeSensitive, relevanceScore: 0.25,
        targetContentID: "chat/{channel_url}", filterCriteria: "{channel_custom_type}")

    /// The app's presentation keys, rendered for the channel; a mention raises the mentioned
    /// member's level only; a template that renders empty leaves its key out.
    @Test func presentationKeysFollowTheAppAndTheMention() throws {
        let options = AppPushOptions(presentation: Self.everyPresentationKey)
        let channel = WebhookChannel(channelURL: "sendbird_group_channel_7", name: "Ops", customType: "work")
        let event = makeEvent(mentioned: ["bob"], channel: channel)
        let bob = try #require(try decodePayload(try build(event, options: options).data)["aps"] as? [String: Any])
        #expect(bob["thread-id"] as? String == "sendbird_group_channel_7")
        #expect(bob["interruption-level"] as? String == "time-sensitive")
        #expect(bob["relevance-score"] as? Double == 0.25)
        #expect(bob["target-content-id"] as? String == "chat/sendbird_group_channel_7")
        #expect(bob["filter-criteria"] as? String == "work")
        let carol = member("carol", nickname: "Carol", unread: 1, channelUnread: 1)
        let notMentioned = try #require(try decodePayload(try build(event, member: carol, options: options).data)["aps"] as? [String: Any])
        #expect(notMentioned["interruption-level"] as? String == "passive")
        let everyone = makeEvent(mentionType: .channel, channel: channel)
        let channelMention = try #require(
            try decodePayload(try build(everyone, member: carol, options: options).data)["aps"] as? [String: Any])
        #expect(channelMention["interruption-level"] as? String == "time-sensitive")

        // One pass: a channel URL that reads like a placeholder stays as it is.
        let odd = makeEvent(channel: WebhookChannel(channelURL: "c-{channel_custom_type}", name: "", customType: "work"))
        let oddAPS = try #require(try decodePayload(try build(odd, options: options).data)["aps"] as? [String: Any])
        #expect(oddAPS["target-content-id"] as? String == "chat/c-{channel_custom_type}")

        var none = AlertPresentation(threadByChannel: false, filterCriteria: "{channel_custom_type}")
        none.mentionInterruptionLevel = nil
        let plain = try #require(
            try decodePayload(try build(makeEvent(), options: AppPushOptions(presentation: none)).data)["aps"] as? [String: Any])
        #expect(Set(plain.keys) == ["alert", "badge", "sound"], "no thread, and an empty custom type is no filter")
    }

    @Test func appOptionsShapeTheApsDictionary() throws {
        let options = AppPushOptions(badge: false, mutableContent: true, contentAvailable: true)
        let aps = try #require(try decodePayload(try build(makeEvent(), options: options).data)["aps"] as? [String: Any])
        #expect(aps["badge"] == nil)
        #expect(aps["mutable-content"] as? Int == 1)
        #expect(aps["content-available"] as? Int == 1)
    }

    @Test func filePayloadListsTheFiles() throws {
        let photo = WebhookFile(url: "https://cdn/x/squirrel.jpg", name: "squirrel.jpg", contentType: "image/jpeg", size: 48_213)
        let event = makeEvent(type: .file, text: "", files: [photo])
        let payload = try build(event, options: AppPushOptions(requireAuthForFiles: true))
        let sendbird = try #require(try decodePayload(payload.data)["sendbird"] as? [String: Any])
        #expect(sendbird["type"] as? String == "FILE")
        let files = try #require(sendbird["files"] as? [[String: Any]])
        #expect(files.count == 1)
        #expect(Set(files[0].keys) == ["type", "url", "name", "size", "require_auth"])
        #expect(files[0]["type"] as? String == "image/jpeg")
        #expect(files[0]["url"] as? String == "https://cdn/x/squirrel.jpg")
        #expect(files[0]["name"] as? String == "squirrel.jpg")
        #expect(files[0]["size"] as? Int == 48_213)
        #expect(files[0]["require_auth"] as? Bool == true)
        #expect(payload.alert == "squirrel.jpg")
        #expect(!String(decoding: payload.data, as: UTF8.self).contains(#"\/"#), "slashes are not escaped")
    }

    @Test func channelTypes() {
        #expect(WebhookChannel(channelURL: "c", isDistinct: true, isPublic: true).pushChannelType == "messaging")
        #expect(WebhookChannel(channelURL: "c", isDistinct: false, isPublic: false).pushChannelType == "group_messaging")
        #expect(WebhookChannel(channelURL: "c", isDistinct: false, isPublic: true).pushChannelType == "chat")
    }

    @Test func templateTitleGoesToPushTitle() throws {
        let event = makeEvent(templateOverride: .custom(title: "{sender_name} in Team", body: nil))
        let sendbird = try #require(try decodePayload(try build(event).data)["sendbird"] as? [String: Any])
        #expect(sendbird["push_title"] as? String == "Alice in Team")
    }

    @Test func adminMessageWithoutSenderOmitsSender() throws {
        let event = makeEvent(type: .admm, text: "Maintenance", sender: nil)
        let payload = try build(event, options: AppPushOptions(pushAdminMessages: true))
        let sendbird = try #require(try decodePayload(payload.data)["sendbird"] as? [String: Any])
        #expect(sendbird["sender"] == nil)
        #expect(payload.alert == "Maintenance")
    }

    @Test func soundPrecedence() {
        let app = AppPushOptions(defaultSound: "app.caf")
        #expect(
            PayloadBuilder.sound(
                channel: ChannelPushPreference(pushSound: "ch.caf"),
                user: UserPushPreferences(pushSound: "user.caf"), options: app) == "ch.caf")
        #expect(
            PayloadBuilder.sound(channel: .defaults, user: UserPushPreferences(pushSound: "user.caf"), options: app)
                == "user.caf")
        #expect(PayloadBuilder.sound(channel: ChannelPushPreference(pushSound: ""), user: .defaults, options: app) == "app.caf")
        #expect(PayloadBuilder.sound(channel: .defaults, user: .defaults, options: .defaults) == "default")
    }

    // MARK: Unicode

    @Test func unicodeRoundTrips() throws {
        let text =
            "Quote \" backslash \\ tab\t nl\n cr\r nul\u{0} bell\u{7} esc\u{1B} del\u{7F} 안녕 👩‍👩‍👧‍👦 🇰🇷 שלום مرحبا \u{202E}rtl\u{202C} e\u{301} \u{2028}"
        let event = makeEvent(
            text: text, sender: WebhookSender(userID: "ünï/çødé", nickname: "민수 🚀"),
            channel: WebhookChannel(channelURL: "ch/1", name: "팀 \"A\""))
        let payload = try build(event)
        let raw = String(decoding: payload.data, as: UTF8.self)
        #expect(Array(raw.utf8) == Array(payload.data), "valid UTF-8")
        #expect(raw.contains(#"\u0000"#) && raw.contains(#"\u0007"#) && raw.contains(#"\u001b"#))
        #expect(raw.contains("안녕 👩‍👩‍👧‍👦"), "non-ASCII is written raw, not \\u-escaped")
        let root = try decodePayload(payload.data)
        let sendbird = try #require(root["sendbird"] as? [String: Any])
        #expect(sendbird["message"] as? String == text)
        #expect((root["aps"] as? [String: Any])?["alert"] as? String == "민수 🚀: \(text)")
        #expect((sendbird["sender"] as? [String: Any])?["id"] as? String == "ünï/çødé")
        #expect((sendbird["channel"] as? [String: Any])?["name"] as? String == "팀 \"A\"")
    }

    // MARK: fitting into 4096 bytes

    func checkShortened(_ text: String, options: AppPushOptions = .defaults, sourceLine: SourceLocation = #_sourceLocation)
        throws -> PushPayload
    {
        let payload = try build(makeEvent(text: text), options: options)
        let limit = options.maxPayloadBytes
        #expect(payload.data.count <= limit, sourceLocation: sourceLine)
        #expect(payload.isShortened, sourceLocation: sourceLine)
        let raw = try #require(String(data: payload.data, encoding: .utf8), "valid UTF-8", sourceLocation: sourceLine)
        #expect(!raw.isEmpty)
        let root = try decodePayload(payload.data)
        let message = try #require((root["sendbird"] as? [String: Any])?["message"] as? String)
        let alert = try #require((root["aps"] as? [String: Any])?["alert"] as? String)
        #expect(message.hasSuffix("…"), sourceLocation: sourceLine)
        #expect(alert == "Alice: \(message)", "alert and message are cut identically", sourceLocation: sourceLine)
        let kept = String(message.dropLast())
        #expect(text.hasPrefix(kept), "a prefix of whole characters", sourceLocation: sourceLine)
        #expect(Array(text).starts(with: Array(kept)), sourceLocation: sourceLine)
        // Maximal: one more character would not fit.
        let longer = String(Array(text).prefix(kept.count + 1)) + "…"
        let bigger = try build(makeEvent(text: longer), options: AppPushOptions(maxPayloadBytes: 1 << 20))
        #expect(bigger.data.count > limit, "the longest prefix that fits", sourceLocation: sourceLine)
        return payload
    }

    @Test func shortensKoreanText() throws {
        let text = String(repeating: "가나다라마바사아자차카타파하", count: 200)  // 3 bytes per character
        let payload = try checkShortened(text)
        #expect(payload.data.count > 4096 - 6, "within one character (3 bytes in the alert, 3 in the message) of the limit")
    }

    @Test func shortensWithoutSplittingZWJEmoji() throws {
        let family = "👩‍👩‍👧‍👦"  // 25 bytes, one Character
        let text = String(repeating: "\(family)🏳️‍🌈a", count: 150)
        let payload = try checkShortened(text)
        let kept = payload.message.dropLast()
        #expect(kept.unicodeScalars.last != "\u{200D}", "never ends inside a ZWJ sequence")
        #expect(kept.allSatisfy { $0 == Character(family) || $0 == Character("🏳️‍🌈") || $0 == "a" })
    }

    @Test func shortensEscapeHeavyText() throws {
        _ = try checkShortened(String(repeating: "\"\u{1}\\", count: 1500))
    }

    @Test func respectsASmallerLimit() throws {
        _ = try checkShortened(String(repeating: "hello world ", count: 100), options: AppPushOptions(maxPayloadBytes: 1200))
    }

    @Test func keepsAPayloadExactlyAtTheLimit() throws {
        let base = try build(makeEvent(text: ""))
        let fill = 4096 - base.data.count
        let exact = String(repeating: "x", count: fill / 2)  // in message and alert
        let payload = try build(makeEvent(text: exact))
        #expect(payload.data.count == 4096 - fill % 2)
        #expect(!payload.isShortened)
        let oneMore = try build(makeEvent(text: exact + "xx"))
        #expect(oneMore.isShortened)
    }

    @Test func cannotFitWhenEverythingElseIsTooBig() {
        let hugeName = String(repeating: "N", count: 5000)
        let event = makeEvent(text: "hi", sender: WebhookSender(userID: "alice", nickname: hugeName))
        #expect(
            performing: { try build(event) },
            throws: { error in
                guard case PayloadError.tooLarge(let minimum, let limit) = error else { return false }
                return minimum > 4096 && limit == 4096
            })
    }
}

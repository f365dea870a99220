import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct WebhookEventTests {
    @Test func decodesSendbirdsDocumentedExampleVerbatim() throws {
        let event = try WebhookEvent(json: Data(sendbirdExampleWebhook.utf8))
        #expect(event.category == "group_channel:message_send")
        #expect(event.isOfflineMessageEvent)
        #expect(event.appID == "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
        let sender = try #require(event.sender)
        #expect(sender.userID == "Jeff")
        #expect(sender.nickname == "Oldies but goodies")
        #expect(sender.profileURL == "…")
        #expect(sender.isBot == false)
        #expect(event.silent == false)
        #expect(event.customType == "")
        #expect(event.mentionType == .users)
        #expect(event.mentionedUsers.isEmpty)
        #expect(event.type == .mesg)
        #expect(event.sdk == "API")
        #expect(event.deliveryOption == .default)
        #expect(event.templateOverride == nil)

        #expect(event.message.messageID == 238_303_376)
        #expect(event.message.customType == "")
        #expect(event.message.message == "Webhook simulation")
        #expect(event.message.translations == ["en": "", "de": ""])
        #expect(event.message.createdAt == 1_540_798_555_343)
        #expect(event.message.data == "")
        #expect(event.message.files.isEmpty)

        #expect(event.channel == WebhookChannel(channelURL: "sendbird_group_channel_…", name: "…", customType: "business"))

        #expect(event.members.count == 1)
        let jeff = event.members[0]
        #expect(jeff.userID == "Jeff")
        #expect(jeff.isActive && !jeff.isOnline)
        #expect(jeff.hiddenState == 0)
        #expect(jeff.state == .joined)
        #expect(!jeff.isBlockingSender && !jeff.isBlockedBySender)
        #expect(jeff.unreadMessageCount == 16)
        #expect(jeff.totalUnreadMessageCount == 16)
        #expect(jeff.channelUnreadMessageCount == 5)
        #expect(jeff.channelMentionCount == 0)
        #expect(jeff.pushEnabled == false)
        #expect(jeff.pushTriggerOption == .default)
        #expect(jeff.doNotDisturb == false)
    }

    @Test func keepsLargeMessageIDsExact() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        var payload = try #require(object["payload"] as? [String: Any])
        payload["message_id"] = Int64(9_007_199_254_740_993)  // 2^53 + 1: a Double would round it
        object["payload"] = payload
        let event = try WebhookEvent(json: try jsonData(object))
        #expect(event.message.messageID == 9_007_199_254_740_993)
    }

    @Test func acceptsSendbirdsInconsistentTypes() throws {
        let body = #"""
            {"category": "group_channel:message_send", "app_id": "A", "type": "MESG", "silent": "false",
             "sender": {"user_id": 42, "nickname": "Bot", "is_bot": 1, "surprise": [1, 2]},
             "mention_type": "channel", "mentioned_users": ["u1", {"user_id": "u2", "nickname": "Two"}, {"nickname": "no id"}, 7],
             "members": [
               {"user_id": "m1", "push_trigger_option": true, "is_hidden": true, "is_online": "true",
                "unread_message_count": "12", "channel_unread_message_count": 4.0, "is_active": 1},
               {"user_id": "m2", "push_trigger_option": false, "is_hidden": 2, "state": "invited"},
               {"user_id": "m3", "push_trigger_option": "MENTION_ONLY"},
               {"user_id": "m4", "push_trigger_option": "weird"},
               {"user_id": "m5"}
             ],
             "payload": {"message_id": "238303376", "created_at": "1540798555343", "message": "hi",
                         "data": {"nested": true}, "translations": {"ko": "안녕", "bad": 3, "nil": null},
                         "push_notification_delivery_option": "FORCE"},
             "channel": {"channel_url": "c", "is_distinct": "1", "is_super": 0},
             "extra_top_level": {"ignored": true}}
            """#
        let event = try WebhookEvent(json: Data(body.utf8))
        #expect(event.sender?.userID == "42")
        #expect(event.sender?.isBot == true)
        #expect(event.silent == false)
        #expect(event.mentionType == .channel)
        #expect(event.mentionedUsers.map(\.userID) == ["u1", "u2"])
        #expect(event.message.messageID == 238_303_376)
        #expect(event.message.createdAt == 1_540_798_555_343)
        #expect(event.message.data == #"{"nested":true}"#)
        #expect(event.message.translations == ["ko": "안녕", "bad": "3"])
        #expect(event.deliveryOption == .force)
        #expect(event.channel.isDistinct && !event.channel.isSuper)

        let m = event.members
        #expect(m[0].pushTriggerOption == .default)
        #expect(m[0].hiddenState == 1)
        #expect(m[0].isOnline)
        #expect(m[0].isActive)
        #expect(m[0].unreadMessageCount == 12)
        #expect(m[0].totalUnreadMessageCount == 12, "total falls back to unread_message_count")
        #expect(m[0].channelUnreadMessageCount == 4)
        #expect(m[1].pushTriggerOption == .off)
        #expect(m[1].hiddenState == 2)
        #expect(m[1].state == .invited)
        #expect(m[2].pushTriggerOption == .mentionOnly)
        #expect(m[3].pushTriggerOption == .default)
        #expect(m[4].pushTriggerOption == nil)
        #expect(m[4].isActive, "missing is_active defaults to active")
        #expect(m[4].state == .joined, "missing state defaults to joined")
    }

    @Test func readsDeliveryOptionAndTemplateFromTopLevelOrPayload() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        object["push_notification_delivery_option"] = "suppress"
        object["push_message_template"] = ["title": "{sender_name} says", "body": "{message}!"]
        var event = try WebhookEvent(json: try jsonData(object))
        #expect(event.deliveryOption == .suppress)
        #expect(event.templateOverride == .custom(title: "{sender_name} says", body: "{message}!"))

        object = try jsonObject(sendbirdExampleWebhook)
        var payload = try #require(object["payload"] as? [String: Any])
        payload["push_message_template"] = "alternative"
        payload["push_notification_delivery_option"] = "something_new"
        object["payload"] = payload
        event = try WebhookEvent(json: try jsonData(object))
        #expect(event.templateOverride == .named(.alternative))
        #expect(event.deliveryOption == .unknown("something_new"))
    }

    @Test func decodesFileMessagesWithSingleFileOrFilesArray() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        object["type"] = "FILE"
        object["payload"] = [
            "message_id": 1, "filename": "squirrel.jpg", "url": "https://f/x.jpg",
            "content_type": "image/jpeg", "content_size": 2048, "require_auth": true,
        ]
        var event = try WebhookEvent(json: try jsonData(object))
        #expect(event.type == .file)
        #expect(
            event.message.files == [
                WebhookFile(
                    url: "https://f/x.jpg", name: "squirrel.jpg",
                    contentType: "image/jpeg", size: 2048, requireAuth: true)
            ])
        #expect(event.message.filename == "squirrel.jpg")

        object["payload"] = [
            "message_id": 1,
            "files": [
                ["url": "u1", "file_name": "a.mp3", "file_type": "audio/mpeg", "file_size": 10],
                ["url": "u2", "name": "b.mov", "type": "video/quicktime", "size": "20"],
            ],
        ]
        event = try WebhookEvent(json: try jsonData(object))
        #expect(event.message.files.map(\.name) == ["a.mp3", "b.mov"])
        #expect(event.message.files.map(\.contentType) == ["audio/mpeg", "video/quicktime"])
        #expect(event.message.files.map(\.size) == [10, 20])
    }

    @Test func membersMissingIsItsOwnError() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        object.removeValue(forKey: "members")
        #expect(throws: WebhookEventError.membersMissing) { try WebhookEvent(json: try jsonData(object)) }
        #expect(WebhookEventError.membersMissing.description == "member information must be included in the webhook")

        object["members"] = NSNull()
        #expect(throws: WebhookEventError.membersMissing) { try WebhookEvent(json: try jsonData(object)) }

        object["members"] = "everyone"
        #expect(throws: WebhookEventError.invalidField("members", expected: "an array of member objects")) {
            try WebhookEvent(json: try jsonData(object))
        }
    }

    @Test(arguments: [
        ("category", WebhookEventError.missingField("category")),
        ("app_id", .missingField("app_id")),
        ("type", .missingField("type")),
        ("channel", .missingField("channel")),
        ("payload", .missingField("payload")),
        ("sender", .missingField("sender")),
    ])
    func requiredTopLevelFields(key: String, expected: WebhookEventError) throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        object.removeValue(forKey: key)
        #expect(throws: expected) { try WebhookEvent(json: try jsonData(object)) }
    }

    @Test func requiredNestedFieldsNameTheirPath() throws {
        func failure(_ edit: (inout [String: Any]) throws -> Void) throws -> WebhookEventError? {
            var object = try jsonObject(sendbirdExampleWebhook)
            try edit(&object)
            let data = try jsonData(object)
            do throws(WebhookEventError) {
                _ = try WebhookEvent(json: data)
                return nil
            } catch {
                return error
            }
        }
        #expect(
            try failure { o in
                var c = try #require(o["channel"] as? [String: Any]); c.removeValue(forKey: "channel_url"); o["channel"] = c
            } == .missingField("channel.channel_url"))
        #expect(
            try failure { o in
                var c = try #require(o["channel"] as? [String: Any]); c["channel_url"] = ""; o["channel"] = c
            } == .invalidField("channel.channel_url", expected: "a non-empty string"))
        #expect(
            try failure { o in
                var p = try #require(o["payload"] as? [String: Any]); p.removeValue(forKey: "message_id"); o["payload"] = p
            } == .missingField("payload.message_id"))
        #expect(
            try failure { o in
                var p = try #require(o["payload"] as? [String: Any]); p["message_id"] = "abc"; o["payload"] = p
            } == .invalidField("payload.message_id", expected: "an integer"))
        #expect(
            try failure { o in
                var s = try #require(o["sender"] as? [String: Any]); s.removeValue(forKey: "user_id"); o["sender"] = s
            } == .missingField("sender.user_id"))
        #expect(try failure { o in o["type"] = "BRDM" } == .invalidField("type", expected: "one of MESG, FILE, ADMM"))
        #expect(try failure { o in o["channel"] = "c" } == .invalidField("channel", expected: "an object"))
        #expect(
            try failure { o in
                o["members"] = [["user_id": "a"], ["nickname": "no id"]]
            } == .missingField("members[1].user_id"))
        #expect(try failure { o in o["members"] = [["user_id": "a"], 5] } == .invalidField("members[1]", expected: "an object"))
    }

    @Test func errorsDescribeTheField() {
        #expect(WebhookEventError.missingField("payload.message_id").description == #"webhook field "payload.message_id" is missing"#)
        #expect(WebhookEventError.invalidField("type", expected: "one of MESG, FILE, ADMM").field == "type")
        #expect(WebhookEventError.membersMissing.field == "members")
    }

    @Test func aSenderWithRoleBotIsABot() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        object["sender"] = ["user_id": "helper", "role": "BOT"]
        #expect(try WebhookEvent(json: try jsonData(object)).sender?.isBot == true)
        object["sender"] = ["user_id": "op", "role": "operator"]
        #expect(try WebhookEvent(json: try jsonData(object)).sender?.isBot == false)
    }

    @Test func adminMessagesMayComeWithoutSender() throws {
        var object = try jsonObject(sendbirdExampleWebhook)
        object["type"] = "ADMM"
        object.removeValue(forKey: "sender")
        let event = try WebhookEvent(json: try jsonData(object))
        #expect(event.type == .admm)
        #expect(event.sender == nil)
        object["sender"] = ["user_id": ""]
        #expect(try WebhookEvent(json: try jsonData(object)).sender == nil)
        object["type"] = "MESG"
        #expect(throws: WebhookEventError.invalidField("sender.user_id", expected: "a non-empty string")) {
            try WebhookEvent(json: try jsonData(object))
        }
    }

    @Test func rejectsBodiesThatAreNotJSONObjects() {
        for body in ["", "not json", "[1,2]", "\"text\""] {
            #expect(
                performing: { try WebhookEvent(json: Data(body.utf8)) },
                throws: { error in
                    if case WebhookEventError.invalidJSON = error { true } else { false }
                })
        }
    }

    @Test func envelopeSeparatesOtherCategories() throws {
        let body = #"{"category": "group_channel:message_read", "app_id": "A", "read_updates": []}"#
        let envelope = try WebhookEnvelope(json: Data(body.utf8))
        #expect(envelope.category == "group_channel:message_read")
        #expect(envelope.appID == "A")
        #expect(!envelope.isOfflineMessageEvent)
        #expect(throws: WebhookEventError.notOfflineMessageEvent(category: "group_channel:message_read")) {
            try envelope.offlineMessageEvent()
        }
        #expect(throws: WebhookEventError.missingField("app_id")) {
            try WebhookEnvelope(json: Data(#"{"category": "x"}"#.utf8))
        }
    }

    @Test func mentionsCountOnlyTheFirstTenUsers() {
        let ids = (1...12).map { "u\($0)" }
        let event = makeEvent(mentioned: ids)
        #expect(event.mentions(userID: "u1"))
        #expect(event.mentions(userID: "u10"))
        #expect(!event.mentions(userID: "u11"))
        #expect(!event.mentions(userID: "u12"))
        #expect(!event.mentions(userID: "bob"))
        let channelWide = makeEvent(mentionType: .channel)
        #expect(channelWide.mentions(userID: "bob"))
    }
}

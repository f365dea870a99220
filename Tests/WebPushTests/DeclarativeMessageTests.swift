import Foundation
import PushCore
import PushSending
import Testing

@testable import WebPush

@Suite(.timeLimit(.minutes(1))) struct DeclarativeMessageTests {
    static let payload = Array(
        #"""
        {"aps":{"alert":"Jane: hello","sound":"default","badge":5},
         "sendbird":{"type":"MESG","message":"hello","message_id":42,"push_title":null,
          "channel":{"channel_url":"sendbird group/1","name":"Team"},"sender":{"id":"jane","name":"Jane"},
          "translations":{},"push_tracking_id":"42-abc"}}
        """#.utf8)

    /// The notification comes from the same payload iOS gets: the alert as body, the sender as
    /// title, the channel's page, the badge, and the `sendbird` dictionary as it is.
    @Test func theMessageIsDeclarativeAndCarriesSendbirdsDictionary() throws {
        let message = DeclarativeMessage(navigateTemplate: "https://chat.example.com/c/{channel_url}")
        let rendered = try #require(message.render(notificationPayload: Self.payload, maximumBytes: 3993))
        let json = try JSONValue.parse(Data(rendered.json)).objectValue
        #expect(json?["web_push"] == .int(8030))
        #expect(json?["app_badge"] == .int(5))
        let notification = json?["notification"]?.objectValue
        #expect(notification?["title"] == .string("Jane"))
        #expect(notification?["body"] == .string("Jane: hello"))
        #expect(notification?["navigate"] == .string("https://chat.example.com/c/sendbird%20group%2F1"))
        #expect(notification?["tag"] == .string("sendbird group/1"))
        #expect(notification?["silent"] == .bool(false))
        #expect(json?["sendbird"]?.objectValue?["message_id"] == .int(42))
        #expect(rendered.channel == "sendbird group/1")
    }

    /// A member who got a translation gets `lang`: the language whose text `sendbird.message` is,
    /// also when it was cut to fit; the original text has none.
    @Test func aTranslatedMessageNamesItsLanguage() throws {
        func lang(message: String) throws -> JSONValue? {
            let payload = #"{"aps":{"alert":"x"},"sendbird":{"message":"\#(message)","translations":{"es":"hola a todos","ko":"안녕"}}}"#
            let rendered = try #require(
                DeclarativeMessage(navigateTemplate: "https://x.example/").render(
                    notificationPayload: Array(payload.utf8), maximumBytes: 3993))
            return try JSONValue.parse(Data(rendered.json)).objectValue?["notification"]?.objectValue?["lang"]
        }
        #expect(try lang(message: "안녕") == .string("ko"))
        #expect(try lang(message: "hola a…") == .string("es"))
        #expect(try lang(message: "hello everyone") == nil)
    }

    /// Too long whole: the `sendbird` dictionary keeps only its ids; still too long: nothing.
    @Test func aMessageThatDoesNotFitLosesTheDictionaryFirst() throws {
        let message = DeclarativeMessage(navigateTemplate: "https://chat.example.com/")
        let whole = try #require(message.render(notificationPayload: Self.payload, maximumBytes: 3993)).json.count
        let cut = try #require(message.render(notificationPayload: Self.payload, maximumBytes: whole - 1))
        let sendbird = try JSONValue.parse(Data(cut.json)).objectValue?["sendbird"]?.objectValue
        #expect(sendbird?["message"] == nil && sendbird?["push_tracking_id"] == .string("42-abc"))
        #expect(message.render(notificationPayload: Self.payload, maximumBytes: 100) == nil)
    }

    /// RFC 8030's answers as the dispatcher acts on them.
    @Test func answersAreClassified() {
        #expect(WebPushAnswer.outcome(status: 201, location: "l", retryAfter: nil, startedAtMs: 5) == .delivered(providerID: "l"))
        #expect(WebPushAnswer.outcome(status: 410, location: nil, retryAfter: nil, startedAtMs: 5) == .tokenDead(.registeredBefore(5)))
        #expect(WebPushAnswer.outcome(status: 404, location: nil, retryAfter: nil, startedAtMs: 5) == .tokenDead(.registeredBefore(5)))
        #expect(WebPushAnswer.outcome(status: 413, location: nil, retryAfter: nil, startedAtMs: 5) == .rejected)
        #expect(WebPushAnswer.outcome(status: 429, location: nil, retryAfter: .seconds(7), startedAtMs: 5) == .retry(after: .seconds(7)))
        #expect(WebPushAnswer.outcome(status: 503, location: nil, retryAfter: nil, startedAtMs: 5) == .retry(after: .zero))
        #expect(WebPushAnswer.outcome(status: 403, location: nil, retryAfter: nil, startedAtMs: 5) == .credentialsRefused)
        #expect(WebPushAnswer.expired.result(startedAtMs: 0, latency: .zero).outcome == .tokenDead(.always))
    }

    /// A notification of the app's server: its title and body, its https deep link to open (else the
    /// app's page), and its details as the notification's `data`.
    @Test func anAppServersNotificationOpensItsLinkAndCarriesItsDetails() throws {
        let message = DeclarativeMessage(navigateTemplate: "https://chat.example.com/c/{channel_url}")
        func render(link: String) throws -> [String: JSONValue]? {
            let payload =
                #"{"aps":{"alert":{"title":"Shipped","body":"Order A-17"},"badge":2},"push_notification":{"id":7,"push_tracking_id":"-7-00","deep_link":"\#(link)","data":{"order":"A-17"}}}"#
            let rendered = try #require(message.render(notificationPayload: Array(payload.utf8), maximumBytes: 3993))
            return try JSONValue.parse(Data(rendered.json)).objectValue
        }
        let json = try render(link: "https://shop.example.com/orders/A-17")
        let notification = json?["notification"]?.objectValue
        #expect(notification?["title"] == .string("Shipped") && notification?["body"] == .string("Order A-17"))
        #expect(notification?["navigate"] == .string("https://shop.example.com/orders/A-17"))
        #expect(notification?["data"]?.objectValue?["id"] == .int(7))
        #expect(notification?["silent"] == .bool(true) && json?["app_badge"] == .int(2) && json?["sendbird"] == nil)
        #expect(try render(link: "shop://orders/A-17")?["notification"]?.objectValue?["navigate"] == .string("https://chat.example.com/c/"))
    }
}

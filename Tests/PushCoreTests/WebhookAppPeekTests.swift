import Foundation
import Testing
@testable import PushCore

/// The body's top-level `app_id`, read without parsing: only a hint for which key to try, so a
/// body it cannot read plainly gives nil (the webhook then refuses it).
@Suite(.timeLimit(.minutes(5))) struct WebhookAppPeekTests {
    static func peek(_ json: String) -> String? {
        Array(json.utf8).withUnsafeBytes { WebhookAppPeek.appID(in: $0) }
    }

    @Test(arguments: [
        (#"{"app_id":"A"}"#, "A"),
        (#" { "category" : "x", "app_id" : "app-1" } "#, "app-1"),
        (#"{"members":[{"app_id":"inner"},{"user_id":"u"}],"payload":{"app_id":"deep","s":"]}\"{"},"app_id":"outer"}"#, "outer"),
        (#"{"n":1.5e3,"b":true,"z":null,"arr":[1,[2,[3]]],"app_id":"after-scalars"}"#, "after-scalars"),
        (#"{"app_id":"caf\#u{E9}"}"#, "caf\u{E9}"),
    ])
    func findsTheTopLevelAppID(json: String, expected: String) {
        #expect(Self.peek(json).map { Array($0.utf8) } == Array(expected.utf8))
    }

    @Test(arguments: [
        "", "[]", #"{"a":1}"#, #"{"app_id":1}"#, #"{"app_id":"esc\\u0041ped"}"#, #"{"app_id":"unterminated}"#,
        #"{"app\u005fid":"A"}"#, #"{"a" 1, "app_id":"A"}"#, #"{"a":"x""#,
    ])
    func givesNilForWhatItCannotReadPlainly(json: String) {
        #expect(Self.peek(json) == nil)
    }

    @Test func anOverlongIDIsNoHint() {
        #expect(Self.peek(#"{"app_id":"\#(String(repeating: "a", count: 300))"}"#) == nil)
    }
}

import Crypto
import Foundation
import PushCore
import Testing

@testable import WebPush

@Suite(.timeLimit(.minutes(1))) struct WebPushSubscriptionTests {
    static let browserKey = P256.KeyAgreement.PrivateKey()
    static let auth: [UInt8] = Array(0..<16)

    static func json(endpoint: String = "https://fcm.googleapis.com/fcm/send/abc:def", expiration: JSONValue = .null) -> JSONValue {
        .object([
            "endpoint": .string(endpoint), "expirationTime": expiration,
            "keys": .object([
                "p256dh": .string(Base64URL.encode(browserKey.publicKey.x963Representation)), "auth": .string(Base64URL.encode(auth)),
            ]),
        ])
    }

    /// The browser's `toJSON()` becomes one canonical token, and the token gives it back.
    @Test func aSubscriptionRoundTripsThroughItsToken() throws {
        let subscription = try WebPushSubscription(json: Self.json(expiration: .int(1_900_000_000_000)))
        let token = subscription.token
        #expect(
            token.utf8.allSatisfy {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39)
                    || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
            })
        let back = try WebPushSubscription(token: token)
        #expect(back == subscription)
        #expect(back.expiresAtMs == 1_900_000_000_000)
        #expect(back.origin == "https://fcm.googleapis.com")
    }

    /// Another spelling of the same bytes (padding) is not the token: one subscription, one token.
    @Test func aNonCanonicalTokenIsRefused() throws {
        let token = try WebPushSubscription(json: Self.json()).token
        #expect(throws: (any Error).self) { try WebPushSubscription(token: token + "=") }
        #expect(throws: (any Error).self) { try WebPushSubscription(token: token.replacingOccurrences(of: ".", with: "..")) }
    }

    /// Keys that are not a P-256 point or a 16-byte secret, and endpoints that are not https,
    /// are refused with what is wrong.
    @Test(arguments: [
        ("http://fcm.googleapis.com/x", "https"), ("https://user:pw@fcm.googleapis.com/x", "user info"),
    ])
    func aBadEndpointIsRefused(endpoint: String, words: String) {
        let error = #expect(throws: (any Error).self) { try WebPushSubscription(json: Self.json(endpoint: endpoint)) }
        #expect("\(error!)".contains(words))
    }

    @Test func badKeysAreRefused() {
        var point = Array(Self.browserKey.publicKey.x963Representation)
        point[64] ^= 1  // off the curve
        #expect(throws: (any Error).self) {
            try WebPushSubscription(endpoint: URL(string: "https://fcm.googleapis.com/x")!, p256dh: point, auth: Self.auth)
        }
        #expect(throws: (any Error).self) {
            try WebPushSubscription(
                endpoint: URL(string: "https://fcm.googleapis.com/x")!, p256dh: Array(Self.browserKey.publicKey.x963Representation),
                auth: Array(Self.auth.prefix(8)))
        }
    }

    /// The public push services are admitted; anything else, another port or plain http is not,
    /// unless listed.
    @Test func theAllowlistAdmitsThePublicPushServicesOnly() throws {
        let list = EndpointAllowlist.default
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/x", "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/QO-x", "https://wns2-by3p.notify.windows.com/w/?token=x",
        ] {
            #expect(list.admits(URL(string: endpoint)!), "\(endpoint)")
        }
        for endpoint in [
            "https://169.254.169.254/latest", "https://fcm.googleapis.com:8443/x", "http://fcm.googleapis.com/x",
            "https://notify.windows.com.evil.example/x", "https://evilfcm.googleapis.com.example/x",
        ] {
            #expect(!list.admits(URL(string: endpoint)!), "\(endpoint)")
        }
        let extended = list.adding(try EndpointAllowlist(["https://push.example.org:8443"]))
        #expect(extended.admits(URL(string: "https://push.example.org:8443/up/1")!))
        #expect(throws: (any Error).self) { try EndpointAllowlist(["http://push.example.org"]) }
        #expect(throws: (any Error).self) { try EndpointAllowlist(["https://push.example.org/path"]) }
    }
}

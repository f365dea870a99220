import Crypto
import Foundation
import PushCore
import Testing

@testable import WebPush

@Suite(.timeLimit(.minutes(1))) struct VAPIDAuthorizationTests {
    static let pem = P256.Signing.PrivateKey().pemRepresentation

    /// `vapid t=<JWT>,k=<key>`: an ES256 JWT for the origin that verifies with `k`, and `k` is
    /// the key the web app subscribed with.
    @Test func theHeaderCarriesAJWTForTheOriginSignedByItsKey() throws {
        let key = try VAPIDKey(text: Self.pem)
        let vapid = VAPIDAuthorization(key: key, subject: "mailto:ops@example.com")
        let header = try vapid.header(origin: "https://fcm.googleapis.com", now: 1_000_000)
        let parts = header.dropFirst("vapid t=".count).components(separatedBy: ",k=")
        #expect(parts.count == 2 && parts[1] == key.publicKey)
        let jwt = parts[0].split(separator: ".").map(String.init)
        let claims = try JSONValue.parse(Data(Base64URL.decode(jwt[1])!)).objectValue
        #expect(claims?["aud"] == .string("https://fcm.googleapis.com"))
        #expect(claims?["sub"] == .string("mailto:ops@example.com"))
        #expect(claims?["exp"] == .int(1_000_000 + VAPIDAuthorization.lifetime))
        let publicKey = try P256.Signing.PublicKey(x963Representation: Base64URL.decode(parts[1])!)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(jwt[2])!)
        #expect(publicKey.isValidSignature(signature, for: Data((jwt[0] + "." + jwt[1]).utf8)))
    }

    /// Reused per origin until an hour before it ends, then signed again.
    @Test func aJWTIsReusedUntilNearItsEnd() throws {
        let vapid = VAPIDAuthorization(key: try VAPIDKey(text: Self.pem), subject: "mailto:ops@example.com")
        let first = try vapid.header(origin: "https://a.example", now: 0)
        #expect(try vapid.header(origin: "https://a.example", now: VAPIDAuthorization.lifetime - VAPIDAuthorization.renewal - 1) == first)
        #expect(try vapid.header(origin: "https://b.example", now: 0) != first)
        #expect(try vapid.header(origin: "https://a.example", now: VAPIDAuthorization.lifetime - VAPIDAuthorization.renewal) != first)
    }

    /// The `web-push` tools' raw base64url private key is read too; anything else is refused.
    @Test func aRawKeyIsReadAndGarbageIsNot() throws {
        let key = P256.Signing.PrivateKey()
        #expect(try VAPIDKey(text: Base64URL.encode(key.rawRepresentation)).publicKey == Base64URL.encode(key.publicKey.x963Representation))
        #expect(throws: VAPIDKeyError.self) { try VAPIDKey(text: "not a key") }
        #expect(throws: VAPIDKeyError.self) { try VAPIDKey(text: "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----") }
    }
}

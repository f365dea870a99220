import Crypto
import Foundation
import ProviderDriver

/// `check-config --probe` for Web Push: there is no account to ask, so the probe proves the key
/// locally: a JWT signed with it verifies against the public key the web app subscribes with.
enum WebPushProbe {
    static func run(_ configuration: WebPushClientConfiguration) -> ProbeFinding {
        let key = configuration.vapidKey
        do {
            let jwt = try key.token(audience: "https://push.example", subject: configuration.subject, expiresAt: 0)
            let parts = jwt.split(separator: ".").map(String.init)
            guard parts.count == 3, let signature = Base64URL.decode(parts[2]),
                let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
                key.signing.publicKey.isValidSignature(parsed, for: Data((parts[0] + "." + parts[1]).utf8))
            else {
                return ProbeFinding(ok: false, message: "webpush probe: a JWT signed with the VAPID key does not verify")
            }
            return ProbeFinding(
                ok: true, message: "webpush probe: the VAPID key signs and verifies; applicationServerKey \(key.publicKey)")
        } catch {
            return ProbeFinding(ok: false, message: "webpush probe: cannot sign with the VAPID key: \(error)")
        }
    }
}

import Crypto
import Foundation
import PushCore
import PushStore
import StoreContract

/// Finds the app an `Api-Token` belongs to. Tokens are compared as SHA-256 digests in constant
/// time, over every app without stopping early, so response timing reveals neither a token's
/// prefix nor which app matched.
public struct AppRegistry: Sendable {
    private struct Entry: Sendable {
        let app: AppConfiguration
        let digest: [UInt8]
    }

    private let entries: [Entry]
    /// Where each app id stands in `apps` (the first, should one be listed twice): every webhook
    /// names its app, so finding it costs one hash, not a comparison per configured app.
    /// Keyed by the id's bytes (`ExactID`): a request naming a look-alike of an app's id names
    /// no app.
    private let indexByID: [ExactID: Int]
    /// The apps, in configuration order. Kept, not rebuilt per use: the webhook without an app in
    /// its path reads them for every request.
    public let apps: [AppConfiguration]
    /// Each app's webhook key, ready for HMAC, in the order of `apps`.
    public let webhookKeys: [WebhookSignature.Key]

    public init(apps: [AppConfiguration]) {
        entries = apps.map { Entry(app: $0, digest: Self.digest($0.apiToken.value)) }
        webhookKeys = apps.map { WebhookSignature.Key($0.webhookSecret.value) }
        indexByID = Dictionary(apps.enumerated().map { (ExactID($1.appID), $0) }, uniquingKeysWith: { first, _ in first })
        self.apps = apps
    }

    /// The app whose master API token this is.
    public func app(forAPIToken token: String) -> AppConfiguration? {
        app(forDigest: Self.digest(token))
    }

    /// The app whose master API token has this SHA-256 digest.
    func app(forDigest presented: [UInt8]) -> AppConfiguration? {
        var found: AppConfiguration?
        for entry in entries where Self.constantTimeEqual(entry.digest, presented) {
            found = entry.app
        }
        return found
    }

    /// Whether `digestHex` (`CredentialIssuer`) is the digest of `appID`'s master API token.
    func isMasterToken(digestHex: String, ofApp appID: String) -> Bool {
        guard let index = index(ofApp: appID) else { return false }
        return AppRegistry.constantTimeEqual(Array(CredentialIssuer.hex(entries[index].digest).utf8), Array(digestHex.utf8))
    }

    /// The app with this id (webhooks name their app in the body).
    public func app(withID appID: String) -> AppConfiguration? {
        indexByID[ExactID(appID)].map { apps[$0] }
    }

    /// Where the app with this id stands in `apps`. For the webhook, which reads the few fields
    /// it needs in place: an `AppConfiguration` holds a few dozen references, and copying and
    /// dropping it three times per request was about 1 % of the relay's CPU.
    public func index(ofApp appID: String) -> Int? {
        indexByID[ExactID(appID)]
    }

    static func digest(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

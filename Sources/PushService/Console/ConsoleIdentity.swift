import Foundation

/// Who signed in to the console, as the session keeps it: never the secret itself, only what is
/// needed to check on every request that the credential still holds.
enum ConsoleIdentity: Sendable, Hashable {
    /// An app's API token (master or secondary), by its SHA-256 digest: checked again on every
    /// request through the REST API's own credential code, so a revoked token ends its sessions
    /// on every relay.
    case apiToken(app: String, digest: [UInt8])
    /// A `console.users` entry, by name and a keyed fingerprint of the secret it signed in with
    /// (`ConsoleAccess`): a secret changed or removed in the configuration ends its sessions at
    /// their next request, on every relay that reads the new configuration.
    case user(name: String, fingerprint: [UInt8])

    /// As the store keeps it: a kind, a name (the token's app, the user's name; with the kind,
    /// the share of the session table it counts in) and the token's digest or the secret's
    /// fingerprint.
    var stored: (kind: String, name: String, digest: Data?) {
        switch self {
        case .apiToken(let app, let digest): (Self.apiTokenKind, app, Data(digest))
        case .user(let name, let fingerprint): (Self.userKind, name, Data(fingerprint))
        }
    }

    static let apiTokenKind = "api_token"
    static let userKind = "user"

    /// The identity a stored session names; nil for a kind this relay does not know, or a user's
    /// session stored before secrets were fingerprinted (it cannot be tied to one: it ends).
    init?(kind: String, name: String, digest: Data?) {
        switch (kind, digest) {
        case (Self.apiTokenKind, let digest?): self = .apiToken(app: name, digest: Array(digest))
        case (Self.userKind, let fingerprint?): self = .user(name: name, fingerprint: Array(fingerprint))
        default: return nil
        }
    }

    /// What the pages say about who is signed in.
    var label: String {
        switch self {
        case .apiToken: "API token"
        case .user(let name, _): name
        }
    }
}

import Foundation

/// Who signed in to the console, as the session keeps it: never the secret itself, only what is
/// needed to check on every request that the credential still holds.
enum ConsoleIdentity: Sendable, Hashable {
    /// An app's API token (master or secondary), by its SHA-256 digest: checked again on every
    /// request through the REST API's own credential code, so a revoked token ends its sessions
    /// on every relay.
    case apiToken(app: String, digest: [UInt8])
    /// A `console.users` entry, by name.
    case user(name: String)

    /// As the store keeps it: a kind, a name (the token's app, the user's name; with the kind,
    /// the share of the session table it counts in) and the token's digest.
    var stored: (kind: String, name: String, digest: Data?) {
        switch self {
        case .apiToken(let app, let digest): ("api_token", app, Data(digest))
        case .user(let name): ("user", name, nil)
        }
    }

    /// The identity a stored session names; nil for a kind this relay does not know.
    init?(kind: String, name: String, digest: Data?) {
        switch (kind, digest) {
        case ("api_token", let digest?): self = .apiToken(app: name, digest: Array(digest))
        case ("user", _): self = .user(name: name)
        default: return nil
        }
    }

    /// What the pages say about who is signed in.
    var label: String {
        switch self {
        case .apiToken: "API token"
        case .user(let name): name
        }
    }
}

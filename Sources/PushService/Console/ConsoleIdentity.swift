/// Who signed in to the console, as the session keeps it: never the secret itself, only what is
/// needed to check on every request that the credential still holds.
enum ConsoleIdentity: Sendable, Hashable {
    /// An app's API token (master or secondary), by its SHA-256 digest: checked again on every
    /// request through the REST API's own credential code, so a revoked token ends its sessions
    /// on every relay.
    case apiToken(app: String, digest: [UInt8])
    /// A `console.users` entry, by name.
    case user(name: String)

    /// Whose share of the session table a session counts in: an API token's app, or a console
    /// user (by the bytes of the id, as every identity).
    var tenant: [UInt8] {
        switch self {
        case .apiToken(let app, _): [0] + Array(app.utf8)
        case .user(let name): [1] + Array(name.utf8)
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

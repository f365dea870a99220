/// Who signed in to the console, as the session keeps it: never the secret itself, only what is
/// needed to check on every request that the credential still holds.
enum ConsoleIdentity: Sendable, Hashable {
    /// An app's API token (master or secondary), by its SHA-256 digest: checked again on every
    /// request through the REST API's own credential code, so a revoked token ends its sessions
    /// on every relay.
    case apiToken(app: String, digest: [UInt8])
    /// A `console.users` entry, by name.
    case user(name: String)

    /// What the pages say about who is signed in.
    var label: String {
        switch self {
        case .apiToken: "API token"
        case .user(let name): name
        }
    }
}

import Foundation

/// A console session as the store keeps it (docs/console.md), shared by every relay on the
/// database: found by the SHA-256 of its cookie, which is never stored.
public struct StoredConsoleSession: Sendable, Hashable {
    /// Who signed in: `api_token` (an app's API token) or `user` (a `console.users` entry).
    public var identityKind: String
    /// The API token's app, or the console user's name. With the kind, the share of the table
    /// the session counts in.
    public var identityName: String
    /// The API token's SHA-256 (kind `api_token`): checked against the fleet's tokens on every request.
    public var tokenDigest: Data?
    /// The app the pages show.
    public var app: String
    /// Put in every form and compared on every POST.
    public var csrfToken: String
    /// Unix milliseconds.
    public var createdAtMs: Int64
    /// Unix milliseconds of the last request (kept to within `ConsoleSessionRules`' touch interval).
    public var lastSeenAtMs: Int64

    public init(
        identityKind: String, identityName: String, tokenDigest: Data?, app: String, csrfToken: String, createdAtMs: Int64,
        lastSeenAtMs: Int64
    ) {
        self.identityKind = identityKind
        self.identityName = identityName
        self.tokenDigest = tokenDigest
        self.app = app
        self.csrfToken = csrfToken
        self.createdAtMs = createdAtMs
        self.lastSeenAtMs = lastSeenAtMs
    }
}

/// When a console session has ended, as `ConsoleSessionStore.addConsoleSession` clears them:
/// seen last at or before `idleByMs`, or created at or before `createdByMs` (Unix ms).
public struct ConsoleSessionCutoff: Sendable, Hashable {
    public var idleByMs: Int64
    public var createdByMs: Int64

    public init(idleByMs: Int64, createdByMs: Int64) {
        self.idleByMs = idleByMs
        self.createdByMs = createdByMs
    }
}

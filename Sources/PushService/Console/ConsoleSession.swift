/// One signed-in browser: who, which app it is looking at, and its CSRF token.
struct ConsoleSession: Sendable, Hashable {
    var identity: ConsoleIdentity
    /// The app every page shows: the API token's app, or one of a console user's apps.
    var app: String
    /// Put in every form and compared on every POST (`ConsoleCSRF`).
    var csrfToken: String
}

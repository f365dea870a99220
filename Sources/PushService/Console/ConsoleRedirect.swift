/// Thrown by a console handler to send the browser elsewhere (303 See Other): to sign in when
/// the session has ended, or to a page after a form was handled.
struct ConsoleRedirect: Error, Sendable {
    var location: String
    /// Set-Cookie values to send with it (a new session, or one cleared).
    var cookies: [String] = []

    static let signIn = ConsoleRedirect(location: "/console/sign-in")
}

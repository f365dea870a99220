/// Cross-site request forgery: every POST form carries its session's token in a hidden field
/// `csrf`, compared here in constant time (`AppRegistry.constantTimeEqual`). The sign-in form,
/// which has no session yet, pairs the field with a cookie of the same value (`signInCookieName`):
/// another site can make a browser post, but can neither read nor set that cookie.
enum ConsoleCSRF {
    static let fieldName = "csrf"
    static let signInCookieName = "pushrelay_console_signin"

    /// Whether the form's token is the expected one. Both empty never passes.
    static func matches(presented: String?, expected: String?) -> Bool {
        guard let presented, let expected, !expected.isEmpty else { return false }
        return AppRegistry.constantTimeEqual(Array(presented.utf8), Array(expected.utf8))
    }
}

import Foundation
import PushStore
import StoreContract

/// A browser's proof that a console user signed in from it before (OWASP's "device cookie"
/// defence against online guessing without locking users out): set on a named user's sign-in,
/// it carries 256 random bits and an HMAC tag over them and the user's name, under a key the
/// fleet shares, so it needs no storage and cannot be made up. A sign-in that presents a valid one
/// for the name it tries is limited per cookie (`ConsoleSignInLimiter`), not by the name's limit
/// that every other client shares: someone guessing a user's password from elsewhere exhausts
/// that limit without keeping the user, in their own browser, out.
struct ConsoleDeviceCookie: Sendable {
    static let name = "pushrelay_console_device"
    /// How long a browser is trusted after a sign-in; each sign-in renews it.
    static let maxAgeSeconds = 90 * 86_400

    private let keys: SessionTokenFormat

    init(keys: SessionTokenFormat) {
        self.keys = keys.derived(for: "console_device")
    }

    /// A new cookie value for `user`.
    func issue(for user: String) -> String {
        let random = CredentialToken.generate()
        return random + tag(random, user)
    }

    /// Whether `value` is a cookie this fleet issued for `user`.
    func isValid(_ value: String, for user: String) -> Bool {
        let length = SessionTokenFormat.randomLength
        guard value.utf8.count == length + 32 else { return false }
        let random = String(value.prefix(length))
        return AppRegistry.constantTimeEqual(Array(tag(random, user).utf8), Array(value.utf8.suffix(32)))
    }

    private func tag(_ random: String, _ user: String) -> String {
        CredentialIssuer.hex(keys.fingerprint(random + "\u{0}" + user).prefix(16))
    }
}

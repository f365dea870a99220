import Crypto
import Foundation
import PushStore
import StoreContract

/// Session tokens that prove on their own that the fleet issued them: 64 hex characters of
/// randomness (256 bits) and 16 of a tag, the first 8 bytes of HMAC-SHA256 over those 64
/// characters under a key every relay of the fleet shares (stored in the database, created by
/// the first relay: `CredentialStore.relaySecret`).
///
/// Why: a session token is looked up in the database by its digest. A well-formed random token
/// cost that lookup (a PostgreSQL pool connection) before it was refused; now a forged one fails
/// the tag, which costs one HMAC, and only a token the fleet made reaches the database (a guess
/// passes with probability 2⁻⁶⁴).
///
/// Tokens issued before (64 hex characters, no tag) are still looked up, but only until the last
/// of them has reached the longest session lifetime (`CredentialDirectory.legacyUntilMs`).
struct SessionTokenFormat: Sendable {
    static let randomLength = 64
    static let tagLength = 16
    static let length = randomLength + tagLength
    /// The form issued before tags.
    static let legacyLength = 64
    /// The name of the key in `relay_secrets`.
    static let secretName = "session_token_tag"

    enum Kind: Equatable {
        /// Issued by this fleet (the tag matches): worth a lookup.
        case tagged
        /// 64 hex characters: a token issued before tags, or a guess.
        case legacy
        /// Anything else, or a tag that does not match.
        case forged
    }

    private let key: SymmetricKey

    init(key: Data) {
        self.key = SymmetricKey(data: key)
    }

    /// The same format under a key of its own for `purpose` (HMAC of the purpose under this
    /// key): a token of one kind is never taken for a token of the other.
    func derived(for purpose: String) -> SessionTokenFormat {
        SessionTokenFormat(key: Data(HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: key)))
    }

    /// A keyed fingerprint of `text` (HMAC-SHA256 under this format's key): equal for equal
    /// texts on every relay of the fleet, and useless to whoever reads it without the key.
    func fingerprint(_ text: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key))
    }

    func generate() -> String {
        let random = CredentialToken.generate()
        return random + tag(random)
    }

    func classify(_ token: String) -> Kind {
        let utf8 = token.utf8
        guard utf8.allSatisfy(Self.isLowercaseHex) else { return .forged }
        switch utf8.count {
        case Self.legacyLength:
            return .legacy
        case Self.length:
            let random = String(token.prefix(Self.randomLength))
            let presented = Array(token.utf8.suffix(Self.tagLength))
            return AppRegistry.constantTimeEqual(Array(tag(random).utf8), presented) ? .tagged : .forged
        default:
            return .forged
        }
    }

    private func tag(_ random: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(random.utf8), using: key)
        return CredentialIssuer.hex(mac.prefix(Self.tagLength / 2))
    }

    private static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}

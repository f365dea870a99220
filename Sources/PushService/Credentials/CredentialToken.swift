import Crypto
import Foundation
import LogRedaction
import PushStore
import StoreContract

/// The tokens the relay issues itself, session tokens and secondary API tokens: 32 random bytes
/// (256 bits, from the system's CSPRNG via swift-crypto) as 64 lowercase hex characters. Only
/// their SHA-256 digests are stored or kept in memory; the token is shown once, to whoever
/// created it.
enum CredentialToken {
    /// Hex characters of a token.
    static let length = 64
    /// How many leading characters a listing shows and the store keeps (`abcd…`, as
    /// `Redaction` shows any secret); 16 of the 256 bits.
    static let visiblePrefixLength = Redaction.shownCharacters

    static func generate() -> String {
        CredentialIssuer.hex(randomBytes(count: 32))
    }

    /// `count` bytes from the system's CSPRNG.
    static func randomBytes(count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    static func digest(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    /// Whether `text` could be a token the relay issued. Checked before any lookup, so junk in
    /// a header never reaches the database.
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func prefix(of token: String) -> String { String(token.prefix(visiblePrefixLength)) }
}

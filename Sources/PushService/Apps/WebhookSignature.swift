import Crypto
import Foundation

/// Sendbird's `x-sendbird-signature`: lowercase hex HMAC-SHA256 of the raw body, keyed by the
/// app's webhook secret (its master API token unless `webhook_secret` is configured).
///
/// The intake checks it before it parses anything: a header that is not 64 lowercase hex digits
/// costs nothing, and any other body costs one HMAC per app that could have signed it.
public enum WebhookSignature {
    public static func expected(body: some DataProtocol, apiToken: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(apiToken.utf8)))
        return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { buffer in
            var index = 0
            for byte in mac {
                buffer[index] = hexDigits[Int(byte >> 4)]
                buffer[index + 1] = hexDigits[Int(byte & 0x0f)]
                index += 2
            }
            return index
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The 32 bytes a well-formed header carries; nil when it is missing, of another length, or
    /// not lowercase hex (Sendbird sends lowercase).
    public static func digest(fromHeader header: String?) -> [UInt8]? {
        guard let header, header.utf8.count == SHA256.byteCount * 2 else { return nil }
        var digest: [UInt8] = []
        digest.reserveCapacity(SHA256.byteCount)
        var high: UInt8?
        for character in header.utf8 {
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            default: return nil
            }
            if let first = high {
                digest.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return digest
    }

    /// Whether `digest` is the body's HMAC under `key`; constant time over the digest.
    public static func matches(_ digest: [UInt8], body: some DataProtocol, key: String) -> Bool {
        Key(key).matches(digest, body: body)
    }

    /// An app's key, set up once (`AppRegistry` holds one per app): HMAC's key schedule (the
    /// padded key hashed into the inner and outer states) is then not redone for every request.
    public struct Key: Sendable {
        private let keyed: HMAC<SHA256>

        public init(_ key: String) {
            keyed = HMAC(key: SymmetricKey(data: Data(key.utf8)))
        }

        /// Whether `digest` is the body's HMAC under this key; constant time over the digest.
        public func matches(_ digest: [UInt8], body: some DataProtocol) -> Bool {
            var mac = keyed  // a copy: the digest state is copied on the first update
            mac.update(data: body)
            return AppRegistry.constantTimeEqual(Array(mac.finalize()), digest)
        }
    }

    /// Whether `presented` (the header) is the body's signature under `apiToken`.
    public static func isValid(_ presented: String?, body: some DataProtocol, apiToken: String) -> Bool {
        guard let digest = digest(fromHeader: presented) else { return false }
        return matches(digest, body: body, key: apiToken)
    }
}

import Crypto
import Foundation

/// Sendbird's `x-sendbird-signature`: lowercase hex HMAC-SHA256 of the raw body, keyed by the
/// app's master API token.
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

    /// Constant-time over the expected length; case-insensitive hex is not accepted (Sendbird
    /// sends lowercase).
    public static func isValid(_ presented: String?, body: some DataProtocol, apiToken: String) -> Bool {
        guard let presented else { return false }
        let expected = Array(expected(body: body, apiToken: apiToken).utf8)
        let given = Array(presented.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}

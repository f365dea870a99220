import Crypto
import Foundation

/// Sendbird's `x-sendbird-signature`: lowercase hex HMAC-SHA256 of the raw body, keyed by the
/// app's master API token.
enum WebhookSignature {
    static func expected(body: some DataProtocol, apiToken: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(apiToken.utf8)))
        return mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Constant-time over the expected length; case-insensitive hex is not accepted (Sendbird
    /// sends lowercase).
    static func isValid(_ presented: String?, body: some DataProtocol, apiToken: String) -> Bool {
        guard let presented else { return false }
        let expected = Array(expected(body: body, apiToken: apiToken).utf8)
        let given = Array(presented.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}

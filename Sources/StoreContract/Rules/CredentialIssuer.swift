import Foundation

/// How a session records the API token that issued it: the lowercase hex of the token's
/// SHA-256 digest (the digest the API token tables and `AppRegistry` keep).
public enum CredentialIssuer {
    public static func hex(_ digest: some Sequence<UInt8>) -> String {
        String(decoding: digest.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

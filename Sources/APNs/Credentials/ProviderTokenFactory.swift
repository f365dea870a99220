import Foundation
import HTTP2Transport

/// Builds APNs provider tokens: ES256 JWTs with header `{"alg":"ES256","kid":"<KeyID>"}` and
/// claims `{"iss":"<TeamID>","iat":<seconds>}`, as Apple specifies for token-based connections.
public struct ProviderTokenFactory: Sendable {
    public let key: APNsSigningKey
    /// The 10-character ID of the key in the Apple Developer account.
    public let keyID: String
    /// The 10-character Apple Developer Team ID.
    public let teamID: String

    /// - Throws: `.invalidKeyID` / `.invalidTeamID` unless both are 10 letters or digits.
    public init(key: APNsSigningKey, keyID: String, teamID: String) throws(APNsCredentialError) {
        try APNsIdentifier.validateKeyID(keyID)
        try APNsIdentifier.validateTeamID(teamID)
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
    }

    /// The `iat` value for `date`: whole seconds since 1970, rounded down.
    public static func issuedAtSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// A signed JWT issued at `issuedAt` (rounded down to the second).
    public func makeJWT(issuedAt: Date) throws(APNsCredentialError) -> String {
        // Key and Team IDs are validated as [A-Za-z0-9]{10}, so no JSON escaping is needed.
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims = #"{"iss":"\#(teamID)","iat":\#(Self.issuedAtSeconds(issuedAt))}"#
        let signingInput = Base64URL.encode(header.utf8) + "." + Base64URL.encode(claims.utf8)
        let signature = try key.signES256(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// A token issued at `issuedAt` carrying `generation`.
    public func makeToken(issuedAt: Date, generation: UInt64) throws(APNsCredentialError) -> ProviderToken {
        let seconds = Self.issuedAtSeconds(issuedAt)
        let jwt = try makeJWT(issuedAt: issuedAt)
        return ProviderToken(
            jwt: jwt, generation: generation,
            issuedAt: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}

import Crypto
import Foundation

/// Mints APNs provider tokens with the development key (or any P-256 key).
enum TestJWT {
    static let devKey: P256.Signing.PrivateKey = {
        let pem = try! String(contentsOfFile: DevCertificates.authKeyP8, encoding: .utf8)
        return try! P256.Signing.PrivateKey(pemRepresentation: pem)
    }()

    static func make(
        keyID: String = DevCertificates.keyID,
        teamID: String = DevCertificates.teamID,
        issuedAt: Date,
        algorithm: String = "ES256",
        key: P256.Signing.PrivateKey = TestJWT.devKey
    ) -> String {
        let header = base64URL(Data(#"{"alg":"\#(algorithm)","kid":"\#(keyID)"}"#.utf8))
        let claims = base64URL(Data(#"{"iss":"\#(teamID)","iat":\#(Int64(issuedAt.timeIntervalSince1970))}"#.utf8))
        let signingInput = "\(header).\(claims)"
        let signature = try! key.signature(for: Data(signingInput.utf8)).rawRepresentation
        return "\(signingInput).\(base64URL(signature))"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

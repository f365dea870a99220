import Foundation
import HTTP2Transport
import Testing
@testable import APNs

@Suite(.timeLimit(.minutes(5))) struct ProviderTokenFactoryTests {
    let factory: ProviderTokenFactory

    init() throws {
        factory = try ProviderTokenFactory(
            key: APNsSigningKey(p8File: CredentialFixtures.p8),
            keyID: CredentialFixtures.keyID, teamID: CredentialFixtures.teamID)
    }

    @Test func jwtHasExactlyApplesHeaderAndClaims() throws {
        let issuedAt = Date(timeIntervalSince1970: 1_700_000_123.9)
        let jwt = try factory.makeJWT(issuedAt: issuedAt)
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        for part in parts {
            #expect(!part.contains("="))
            #expect(part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        }
        let header = try #require(Base64URL.decode(parts[0]))
        let claims = try #require(Base64URL.decode(parts[1]))
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"DEVKEY1234"}"#)
        #expect(String(decoding: claims, as: UTF8.self) == #"{"iss":"TEAM123456","iat":1700000123}"#)
        #expect(signature.count == 64)
    }

    @Test func tokenCarriesGenerationAndWholeSecondIssueTime() throws {
        let token = try factory.makeToken(issuedAt: Date(timeIntervalSince1970: 1_700_000_000.75), generation: 7)
        #expect(token.generation == 7)
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(token.authorizationHeader == "bearer \(token.jwt)")
        #expect(!token.description.contains(token.jwt))
    }

    /// Our OpenSSL signer checked by other code: Python `cryptography` (scripts/verify_jwt.py).
    @Test func signatureVerifiesIndependently() throws {
        let jwt = try factory.makeJWT(issuedAt: Date())
        let result = try CredentialFixtures.verifyWithPython(jwt: jwt, publicKeyPath: CredentialFixtures.p8PublicKey)
        #expect(result.status == 0, "verify_jwt.py: \(result.message)")
    }

    /// The same check must fail for a JWT whose claims were changed after signing, and for a
    /// signature made with another key: otherwise the test above proves nothing.
    @Test func tamperedOrForeignJWTFailsIndependentVerification() throws {
        let jwt = try factory.makeJWT(issuedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let parts = jwt.split(separator: ".").map(String.init)
        let forgedClaims = Base64URL.encode(#"{"iss":"TEAM123456","iat":1700009999}"#.utf8)
        let tampered = [parts[0], forgedClaims, parts[2]].joined(separator: ".")
        let tamperedResult = try CredentialFixtures.verifyWithPython(
            jwt: tampered,
            publicKeyPath: CredentialFixtures.p8PublicKey)
        #expect(tamperedResult.status == 1, "verify_jwt.py: \(tamperedResult.message)")

        // A valid P-256 signature by a different key (the dev CA key) must not verify either.
        let otherKey = try APNsSigningKey(p8File: CredentialFixtures.dev("ca.key"))
        let foreign = try ProviderTokenFactory(
            key: otherKey, keyID: CredentialFixtures.keyID,
            teamID: CredentialFixtures.teamID
        ).makeJWT(issuedAt: Date())
        let foreignResult = try CredentialFixtures.verifyWithPython(
            jwt: foreign,
            publicKeyPath: CredentialFixtures.p8PublicKey)
        #expect(foreignResult.status == 1, "verify_jwt.py: \(foreignResult.message)")
    }

    @Test(arguments: ["", "DEVKEY123", "DEVKEY12345", "DEVKEY-123", "DEVKEY 123", "DÉVKEY1234"])
    func invalidKeyIDIsRejected(keyID: String) throws {
        let key = try APNsSigningKey(p8File: CredentialFixtures.p8)
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try ProviderTokenFactory(key: key, keyID: keyID, teamID: CredentialFixtures.teamID)
        }
        #expect(error == .invalidKeyID(keyID))
        #expect(error?.description.contains("\"\(keyID)\"") == true)
    }

    @Test(arguments: ["", "TEAM12345", "TEAM1234567", "team_12345"])
    func invalidTeamIDIsRejected(teamID: String) throws {
        let key = try APNsSigningKey(p8File: CredentialFixtures.p8)
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try ProviderTokenFactory(key: key, keyID: CredentialFixtures.keyID, teamID: teamID)
        }
        #expect(error == .invalidTeamID(teamID))
        #expect(error?.description.contains("Team ID \"\(teamID)\"") == true)
    }
}

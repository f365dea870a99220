import Crypto
import Foundation
import Testing

@testable import APNsMock

@Suite("ProviderTokenVerifier", .timeLimit(.minutes(5)))
struct ProviderTokenVerifierTests {
    let verifier: ProviderTokenVerifier
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        self.verifier = try ProviderTokenVerifier(
            keyFiles: [DevCertificates.keyID: DevCertificates.authKeyPublicPEM],
            keyPEMs: [:],
            teamID: DevCertificates.teamID
        )
    }

    @Test("a dev-key token verifies and yields its claims")
    func valid() throws {
        let jwt = TestJWT.make(issuedAt: self.now)
        let token = try self.verifier.verify(Substring(jwt)).get()
        #expect(token == VerifiedProviderToken(keyID: DevCertificates.keyID, issuer: DevCertificates.teamID, issuedAt: 1_800_000_000))
    }

    @Test("each defect has its own rejection")
    func rejections() {
        func verdict(_ jwt: String) -> ProviderTokenRejection? {
            if case .failure(let rejection) = self.verifier.verify(Substring(jwt)) { return rejection }
            return nil
        }
        #expect(verdict(TestJWT.make(issuedAt: self.now, key: P256.Signing.PrivateKey())) == .badSignature)
        #expect(verdict(TestJWT.make(keyID: "NOPE", issuedAt: self.now)) == .unknownKeyID("NOPE"))
        #expect(verdict(TestJWT.make(issuedAt: self.now, algorithm: "RS256")) == .unsupportedAlgorithm("RS256"))
        #expect(verdict(TestJWT.make(teamID: "ELSEWHERE1", issuedAt: self.now)) == .badIssuer("ELSEWHERE1"))
        let valid = TestJWT.make(issuedAt: self.now)
        let parts = valid.split(separator: ".")
        // A DER signature instead of raw R‖S.
        let der = try! TestJWT.devKey.signature(for: Data("\(parts[0]).\(parts[1])".utf8)).derRepresentation
        guard case .malformed = verdict("\(parts[0]).\(parts[1]).\(TestJWT.base64URL(der))") else {
            Issue.record("a DER signature must be malformed")
            return
        }
        let stringIat = TestJWT.base64URL(Data(#"{"iss":"TEAM123456","iat":"1800000000"}"#.utf8))
        guard case .malformed = verdict("\(parts[0]).\(stringIat).\(parts[2])") else {
            Issue.record("a string iat must be malformed")
            return
        }
    }

    @Test("age: over an hour is expired, over five minutes ahead is invalid")
    func age() {
        #expect(ProviderTokenVerifier.judgeAge(issuedAt: 1000, now: 1000 + 3600) == .fresh)
        #expect(ProviderTokenVerifier.judgeAge(issuedAt: 1000, now: 1000 + 3601) == .expired)
        #expect(ProviderTokenVerifier.judgeAge(issuedAt: 1300, now: 1000) == .fresh)
        #expect(ProviderTokenVerifier.judgeAge(issuedAt: 1301, now: 1000) == .inFuture)
    }

    @Test("an unusable key is reported with its key ID")
    func badKey() {
        #expect(throws: APNsMockError.self) {
            _ = try ProviderTokenVerifier(keyFiles: [:], keyPEMs: ["K1": "not a key"], teamID: nil)
        }
        #expect(throws: APNsMockError.self) {
            _ = try ProviderTokenVerifier(keyFiles: ["K2": "/nonexistent.pem"], keyPEMs: [:], teamID: nil)
        }
    }
}

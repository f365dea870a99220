import Crypto
import Foundation
import MockSupport

/// A provider token (JWT) whose form, key and signature checked out. Its age is judged per
/// request, against the clock, by ``ProviderTokenVerifier/judgeAge(issuedAt:now:)``.
struct VerifiedProviderToken: Sendable, Equatable {
    let keyID: String
    let issuer: String
    /// `iat`, seconds since 1970.
    let issuedAt: Int64
}

/// What a provider token amounts to right now.
enum ProviderTokenVerdict: Equatable {
    case fresh
    case expired
    case invalid
}

/// Why a provider token was refused; every case maps to 403 `InvalidProviderToken`.
enum ProviderTokenRejection: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)
    case unsupportedAlgorithm(String)
    case unknownKeyID(String)
    case badIssuer(String)
    case badSignature

    var description: String {
        switch self {
        case .malformed(let detail): "malformed JWT: \(detail)"
        case .unsupportedAlgorithm(let alg): "JWT alg \"\(alg)\" is not ES256"
        case .unknownKeyID(let kid): "JWT kid \"\(kid)\" is not a configured key"
        case .badIssuer(let iss): "JWT iss \"\(iss)\" is not the expected 10-character team ID"
        case .badSignature: "JWT signature does not verify"
        }
    }
}

/// Checks APNs provider tokens: `base64url(header).base64url(claims).base64url(R‖S)`, header
/// `{"alg":"ES256","kid":…}`, claims `{"iss":<team>,"iat":<seconds>}`, ES256 over the first two
/// parts. Pure: no clock, no cache (the server caches results by JWT string).
struct ProviderTokenVerifier: Sendable {
    /// Apple rejects tokens older than an hour.
    static let maximumAge: Int64 = 3600
    /// Tolerated clock skew for `iat` in the future.
    static let maximumFutureSkew: Int64 = 300

    enum AgeVerdict: Equatable {
        case fresh
        case expired
        case inFuture
    }

    let keys: [String: P256.Signing.PublicKey]
    let teamID: String?

    /// Loads keys from PEM files and PEM strings.
    init(keyFiles: [String: String], keyPEMs: [String: String], teamID: String?) throws {
        var keys: [String: P256.Signing.PublicKey] = [:]
        for (keyID, path) in keyFiles {
            let pem: String
            do {
                pem = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw APNsMockError.invalidJWTKey(keyID: keyID, detail: "cannot read \(path): \(error)")
            }
            keys[keyID] = try Self.parse(pem: pem, keyID: keyID)
        }
        for (keyID, pem) in keyPEMs {
            keys[keyID] = try Self.parse(pem: pem, keyID: keyID)
        }
        self.keys = keys
        self.teamID = teamID
    }

    private static func parse(pem: String, keyID: String) throws -> P256.Signing.PublicKey {
        do {
            return try P256.Signing.PublicKey(pemRepresentation: pem)
        } catch {
            throw APNsMockError.invalidJWTKey(keyID: keyID, detail: "not a P-256 PEM public key (\(error))")
        }
    }

    /// Verifies form, algorithm, key, issuer and signature of `jwt`.
    func verify(_ jwt: Substring) -> Result<VerifiedProviderToken, ProviderTokenRejection> {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.malformed("expected 3 parts, got \(parts.count)")) }
        guard let headerData = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { return .failure(.malformed("header is not base64url JSON with string alg and kid")) }
        guard header.alg == "ES256" else { return .failure(.unsupportedAlgorithm(header.alg)) }
        guard let key = self.keys[header.kid] else { return .failure(.unknownKeyID(header.kid)) }
        guard let claimsData = Base64URL.decode(parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else { return .failure(.malformed("claims are not base64url JSON with string iss and integer iat")) }
        guard claims.iss.count == 10, self.teamID == nil || claims.iss == self.teamID else {
            return .failure(.badIssuer(claims.iss))
        }
        guard let signatureBytes = Base64URL.decode(parts[2]), signatureBytes.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { return .failure(.malformed("signature is not 64 raw R‖S bytes")) }
        let signingInput = Data(jwt[jwt.startIndex..<parts[1].endIndex].utf8)
        guard key.isValidSignature(signature, for: signingInput) else { return .failure(.badSignature) }
        return .success(VerifiedProviderToken(keyID: header.kid, issuer: claims.iss, issuedAt: claims.iat))
    }

    /// Judges `iat` against `now` (seconds since 1970).
    static func judgeAge(issuedAt: Int64, now: Int64) -> AgeVerdict {
        if now - issuedAt > Self.maximumAge { return .expired }
        if issuedAt - now > Self.maximumFutureSkew { return .inFuture }
        return .fresh
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String
    }

    private struct Claims: Decodable {
        let iss: String
        let iat: Int64
    }
}

import Foundation
import HTTP2Transport
import TestSupport
import PushSending
import Testing
@testable import FCM

@Suite(.timeLimit(.minutes(5))) struct FCMAccessTokenTests {
    /// A throwaway RSA key made by the openssl command, and a service account around it.
    static func account(in directory: URL) throws -> (FCMServiceAccount, URL) {
        let keyFile = directory.appendingPathComponent("key.pem")
        try run("/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyFile.path])
        let fields = [
            "type": "service_account", "project_id": "chat-app", "private_key_id": "kid-1",
            "private_key": try String(contentsOf: keyFile, encoding: .utf8), "client_email": "relay@chat-app.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.example/token",
        ]
        return (try FCMServiceAccount(json: try JSONSerialization.data(withJSONObject: fields), source: "sa.json"), keyFile)
    }

    /// Through `ChildProcess`, not Foundation's `Process`, whose `run()` can read past a buffer
    /// and crash the whole test process (see `ChildProcess`; it did, in a full run on 2026-11-25).
    static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ChildProcess.runBlocking(tool, arguments)
        guard result.status == 0 else { throw CocoaError(.executableLoad) }
    }

    /// The assertion is a JWT Google accepts: RS256 header with the key id, the account as
    /// issuer, FCM's scope, the token URI as audience, an hour's validity, and a signature the
    /// key's public half verifies (checked by the openssl command, not by this code).
    @Test func theAssertionIsASignedJWTForTheTokenURI() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (account, keyFile) = try Self.account(in: directory)
        let key = try FCMSigningKey(account: account, source: "sa.json")
        let jwt = try FCMAccessTokenRequest.assertion(account: account, key: key, now: 1_700_000_000)
        let parts = jwt.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let headerBytes = try #require(Base64URL.decode(parts[0]))
        let claimBytes = try #require(Base64URL.decode(parts[1]))
        let signature = try #require(Base64URL.decode(parts[2]))
        let header = try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: String]
        #expect(header == ["alg": "RS256", "typ": "JWT", "kid": "kid-1"])
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any])
        #expect(claims["iss"] as? String == "relay@chat-app.iam.gserviceaccount.com")
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
        #expect(claims["aud"] as? String == "https://oauth2.example/token")
        #expect(claims["iat"] as? Int == 1_700_000_000 && claims["exp"] as? Int == 1_700_003_600)

        try Data((parts[0] + "." + parts[1]).utf8).write(to: directory.appendingPathComponent("input"))
        try Data(signature).write(to: directory.appendingPathComponent("signature"))
        try Self.run(
            "/usr/bin/openssl", ["pkey", "-in", keyFile.path, "-pubout", "-out", directory.appendingPathComponent("pub.pem").path])
        #expect(throws: Never.self) {
            try Self.run(
                "/usr/bin/openssl",
                [
                    "dgst", "-sha256", "-verify", directory.appendingPathComponent("pub.pem").path, "-signature",
                    directory.appendingPathComponent("signature").path, directory.appendingPathComponent("input").path,
                ])
        }
        let body = String(decoding: try FCMAccessTokenRequest.body(account: account, key: key, now: 1_700_000_000), as: UTF8.self)
        #expect(body.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="))
    }

    @Test func aKeyThatIsNotRSAIsRefusedByName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fcm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("ec.pem")
        try Self.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile.path])
        let fields = [
            "type": "service_account", "project_id": "p", "private_key": try String(contentsOf: keyFile, encoding: .utf8),
            "client_email": "e@x", "token_uri": "https://t/token",
        ]
        let account = try FCMServiceAccount(json: try JSONSerialization.data(withJSONObject: fields), source: "sa.json")
        #expect {
            try FCMSigningKey(account: account, source: "sa.json")
        } throws: { error in
            String(describing: error).contains("not an RSA key") && !String(describing: error).contains("BEGIN")
        }
    }

    @Test func theTokenEndpointsAnswerBecomesAToken() {
        let token = FCMAccessTokenRequest.accessToken(
            from: Data(#"{"access_token": "ya29.secret", "expires_in": 3599, "token_type": "Bearer"}"#.utf8), receivedAt: 1_000)
        #expect(token == AccessToken(value: "ya29.secret", expiresAt: 4_599))
        #expect(token?.description.contains("secret") == false)
        #expect(FCMAccessTokenRequest.accessToken(from: Data(#"{"error": "invalid_grant"}"#.utf8), receivedAt: 0) == nil)
    }
}

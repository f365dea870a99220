import Foundation
import Testing
@testable import APNs

@Suite(.timeLimit(.minutes(5))) struct APNsSigningKeyTests {
    @Test func loadsAppleP8AndSigns64ByteRawSignatures() throws {
        let key = try APNsSigningKey(p8File: CredentialFixtures.p8)
        #expect(key.source == CredentialFixtures.p8)
        for message in [[UInt8](), Array("hello".utf8), [UInt8](repeating: 7, count: 5000)] {
            #expect(try key.signES256(message).count == 64)
        }
        // ECDSA signatures are randomised: two signatures of the same input differ.
        #expect(try key.signES256([1, 2, 3]) != key.signES256([1, 2, 3]))
    }

    @Test func loadsFromPEMString() throws {
        let text = try String(contentsOfFile: CredentialFixtures.p8, encoding: .utf8)
        let key = try APNsSigningKey(pemString: text, source: "env APNS_KEY")
        #expect(key.source == "env APNS_KEY")
        #expect(try key.signES256([0]).count == 64)
    }

    @Test func keyIDFromAppleFileName() {
        #expect(APNsSigningKey.keyID(fromFileName: "/etc/keys/AuthKey_ABCDE12345.p8") == "ABCDE12345")
        #expect(APNsSigningKey.keyID(fromFileName: "AuthKey_DEVKEY1234.p8") == "DEVKEY1234")
        #expect(APNsSigningKey.keyID(fromFileName: "/etc/keys/key.p8") == nil)
        #expect(APNsSigningKey.keyID(fromFileName: "AuthKey_SHORT.p8") == nil)
    }

    // MARK: - Bad files

    @Test func missingFile() {
        let path = CredentialFixtures.dev("AuthKey_NOPE.p8")
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try APNsSigningKey(p8File: path)
        }
        #expect(error == .credential(.fileNotFound(path: path)))
        #expect(error?.description.contains(path) == true)
    }

    @Test func directoryInsteadOfFileIsUnreadable() {
        let path = CredentialFixtures.dev("bad")
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try APNsSigningKey(p8File: path)
        }
        #expect(error == .credential(.unreadable(path: path, reason: "it is a directory, not a file")))
        #expect(error?.description.contains(path) == true)
    }

    /// Root reads files regardless of their mode, so this needs an unprivileged user.
    @Test(.enabled(if: getuid() != 0, "running as root: file permissions do not stop root from reading"))
    func fileWithoutReadPermissionIsUnreadable() throws {
        try CredentialFixtures.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("AuthKey_DEVKEY1234.p8").path
            try FileManager.default.copyItem(atPath: CredentialFixtures.p8, toPath: path)
            chmod(path, 0)
            let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
                try APNsSigningKey(p8File: path)
            }
            #expect(error == .credential(.unreadable(path: path, reason: String(cString: strerror(EACCES)))))
        }
    }

    @Test(arguments: ["garbage.p8", "truncated.p8", "encrypted.p8"])
    func unusableFileIsWrongFormat(name: String) throws {
        let path = CredentialFixtures.bad(name)
        let error = try #require(
            CredentialFixtures.credentialError { () throws(APNsCredentialError) in
                try APNsSigningKey(p8File: path)
            })
        guard case .credential(.wrongFormat(let errorPath, let detail)) = error else {
            Issue.record("expected wrongFormat, got \(error)")
            return
        }
        #expect(errorPath == path)
        #expect(!detail.isEmpty)
        #expect(error.description.contains(path))
    }

    @Test func certificateInsteadOfKeyIsWrongFormat() throws {
        let path = CredentialFixtures.dev("client.pem")
        let error = try #require(
            CredentialFixtures.credentialError { () throws(APNsCredentialError) in
                try APNsSigningKey(p8File: path)
            })
        #expect(error == .credential(.wrongFormat(path: path, detail: "not a PEM PKCS#8 private key (it holds other PEM data)")))
    }

    @Test func emptyFileIsWrongFormat() throws {
        try CredentialFixtures.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("empty.p8").path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
                try APNsSigningKey(p8File: path)
            }
            #expect(error == .credential(.wrongFormat(path: path, detail: "the file is empty")))
        }
    }

    @Test(arguments: [("rsa.p8", "RSA 2048"), ("p384.p8", "EC P-384")])
    func otherKeyTypesAreRejected(name: String, found: String) {
        let path = CredentialFixtures.bad(name)
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try APNsSigningKey(p8File: path)
        }
        #expect(error == .credential(.wrongKeyType(path: path, found: found, expected: "EC P-256")))
        #expect(error?.description == "credential file \(path) holds a key of type \(found), but type EC P-256 is required")
    }

    @Test func pemStringErrorsNameTheSource() {
        let error = CredentialFixtures.credentialError { () throws(APNsCredentialError) in
            try APNsSigningKey(pemString: "nonsense", source: "env APNS_KEY")
        }
        guard case .credential(.wrongFormat(let path, _)) = error else {
            Issue.record("expected wrongFormat, got \(String(describing: error))")
            return
        }
        #expect(path == "env APNS_KEY")
    }
}

import COpenSSL

/// The EC P-256 private key of an APNs auth key (`AuthKey_<KeyID>.p8`), used to sign provider
/// tokens (ES256).
///
/// `@unchecked Sendable` is safe: the wrapped `EVP_PKEY` is never modified after `init`, and
/// OpenSSL 3 allows concurrent signing with one key as long as each call uses its own
/// `EVP_MD_CTX` (which `signES256` creates per call). The key is freed in `deinit`.
public final class APNsSigningKey: @unchecked Sendable {
    /// The file (or other source) the key came from, for messages.
    public let source: String
    private let key: OpaquePointer

    /// Loads an Apple `.p8` file: a PEM PKCS#8 EC P-256 private key, not encrypted.
    public convenience init(p8File path: String) throws(APNsCredentialError) {
        let bytes = try CredentialFile.read(path)
        try self.init(pemBytes: bytes, source: path)
    }

    /// Loads the key from the contents of a `.p8` file (e.g. from a secret store).
    /// - Parameter source: names where the text came from in error messages (not the key).
    public convenience init(pemString: String, source: String) throws(APNsCredentialError) {
        try self.init(pemBytes: Array(pemString.utf8), source: source)
    }

    private init(pemBytes: [UInt8], source: String) throws(APNsCredentialError) {
        OpenSSLLibrary.initialize()
        let key: OpaquePointer
        do throws(APNsCredentialError) {
            key = try PrivateKeyReader.read(
                pemBytes, password: nil, path: source,
                expected: "PEM PKCS#8 private key")
        } catch {
            switch error {
            case .passwordRequired:
                throw .wrongFormat(
                    path: source,
                    detail: "the key is password-protected; Apple's .p8 keys are not (use the file as downloaded from Apple)")
            case .missingPrivateKey:
                throw .wrongFormat(path: source, detail: "not a PEM PKCS#8 private key (it holds other PEM data)")
            default:
                throw error
            }
        }
        let found = EVPKeyInfo.typeDescription(key)
        guard found == "EC P-256" else {
            EVP_PKEY_free(key)
            throw .wrongKeyType(path: source, found: found, expected: "EC P-256")
        }
        self.key = key
        self.source = source
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Signs `message` with ECDSA P-256 / SHA-256 and returns the JWS form of the signature:
    /// raw `R ‖ S`, 32 big-endian bytes each (RFC 7518 §3.4), not OpenSSL's DER.
    public func signES256(_ message: [UInt8]) throws(APNsCredentialError) -> [UInt8] {
        let der: [UInt8]
        do {
            der = try EVPDigestSigner.signSHA256(message, with: key)
        } catch {
            throw .signingFailed(source: source, reason: error.description)
        }
        let derLength = der.count
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, derLength)
        }
        guard let signature else { throw failure("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> (Int32, Int32) in
            (BN_bn2binpad(r, buffer.baseAddress, 32), BN_bn2binpad(s, buffer.baseAddress! + 32, 32))
        }
        guard written == (32, 32) else { throw failure("BN_bn2binpad") }
        return raw
    }

    private func failure(_ operation: String) -> APNsCredentialError {
        .signingFailed(source: source, reason: OpenSSLError.capture(operation).description)
    }

    /// The Key ID in an Apple key file name, `AuthKey_<KeyID>.p8`, if the name has that shape.
    public static func keyID(fromFileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
        return APNsIdentifier.isValid(id) ? id : nil
    }
}

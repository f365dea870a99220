import COpenSSL

/// A private key as OpenSSL holds it (`EVP_PKEY`), read from a key file's contents, signing with
/// SHA-256: what each provider's signing key (APNs' ES256 `.p8`, FCM's RS256 service account) is
/// built on, so that no provider module touches OpenSSL.
///
/// `@unchecked Sendable` is safe: the wrapped `EVP_PKEY` is never modified after `init`, and
/// OpenSSL 3 allows concurrent signing with one key as long as each call uses its own
/// `EVP_MD_CTX` (which every signing call creates). The key is freed in `deinit`.
package final class EVPPrivateKey: @unchecked Sendable {
    private let key: OpaquePointer

    /// Decodes PEM PKCS#8, PEM traditional ("RSA/EC PRIVATE KEY"), encrypted PEM or DER.
    /// - Parameters:
    ///   - path: names where the bytes came from in errors (never the key).
    ///   - expected: what the bytes should be, for messages ("PEM PKCS#8 private key").
    package init(_ bytes: [UInt8], password: String?, path: String, expected: String) throws(CredentialError) {
        OpenSSLLibrary.initialize()
        key = try PrivateKeyReader.read(bytes, password: password, path: path, expected: expected)
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// E.g. "EC P-256", "EC P-384", "RSA 2048", "ED25519".
    package var typeDescription: String { EVPKeyInfo.typeDescription(key) }

    /// The signature as OpenSSL gives it: DER for ECDSA, raw for RSA (RS256's form as it is).
    package func signSHA256(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        try EVPDigestSigner.signSHA256(message, with: key)
    }

    /// Signs `message` with ECDSA P-256 / SHA-256 and returns the JWS form of the signature:
    /// raw `R ‖ S`, 32 big-endian bytes each (RFC 7518 §3.4), not OpenSSL's DER.
    package func signES256(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        let der = try signSHA256(message)
        let derLength = der.count
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, derLength)
        }
        guard let signature else { throw OpenSSLError.capture("d2i_ECDSA_SIG") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer -> (Int32, Int32) in
            (BN_bn2binpad(r, buffer.baseAddress, 32), BN_bn2binpad(s, buffer.baseAddress! + 32, 32))
        }
        guard written == (32, 32) else { throw OpenSSLError.capture("BN_bn2binpad") }
        return raw
    }
}

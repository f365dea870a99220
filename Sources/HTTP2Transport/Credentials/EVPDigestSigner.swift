import COpenSSL

/// A SHA-256 signature with an `EVP_PKEY`, as OpenSSL gives it (DER for ECDSA, raw for RSA):
/// the one signing sequence of APNs provider tokens (ES256) and FCM's OAuth assertions (RS256).
enum EVPDigestSigner {
    static func signSHA256(_ message: [UInt8], with key: OpaquePointer) throws(OpenSSLError) -> [UInt8] {
        OpenSSLError.clearQueue()
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.capture("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else { throw OpenSSLError.capture("EVP_DigestSignInit") }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw OpenSSLError.capture("EVP_DigestSign (length)")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw OpenSSLError.capture("EVP_DigestSign")
        }
        return Array(signature.prefix(length))
    }
}

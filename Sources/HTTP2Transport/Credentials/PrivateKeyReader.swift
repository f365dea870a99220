import COpenSSL

/// Decodes a private key file (PEM PKCS#8, PEM traditional "RSA/EC PRIVATE KEY", encrypted PEM,
/// or DER) into an `EVP_PKEY`, classifying failures for `CredentialError`.
enum PrivateKeyReader {
    /// Returns a new `EVP_PKEY` the caller must free with `EVP_PKEY_free`.
    /// - Parameter expected: what the file should be, for messages ("PEM PKCS#8 private key").
    static func read(
        _ bytes: [UInt8], password: String?, path: String,
        expected: String
    ) throws(CredentialError) -> OpaquePointer {
        // An empty password is the same as none: OpenSSL cannot decrypt with a zero-length one.
        let password = password?.isEmpty == true ? nil : password
        OpenSSLError.clearQueue()
        let decoded = MemoryBIO.withBIO(over: bytes) { bio -> OpaquePointer? in
            // The callback never prompts: without a password it refuses, so an encrypted key
            // fails instead of OpenSSL asking on the terminal.
            let callback:
                @convention(c) (
                    UnsafeMutablePointer<CChar>?, Int32, Int32,
                    UnsafeMutableRawPointer?
                ) -> Int32 = { buffer, size, _, user in
                    guard let buffer, let user else { return -1 }
                    let password = user.assumingMemoryBound(to: CChar.self)
                    var length = 0
                    while length < Int(size), password[length] != 0 { length += 1 }
                    buffer.update(from: password, count: length)
                    return Int32(length)
                }
            if let password {
                return password.withCString { pointer in
                    PEM_read_bio_PrivateKey(bio, nil, callback, UnsafeMutableRawPointer(mutating: pointer))
                }
            }
            return PEM_read_bio_PrivateKey(bio, nil, callback, nil)
        }
        if let key = decoded ?? nil {
            OpenSSLError.clearQueue()
            return key
        }
        let detail = OpenSSLError.drainQueue()
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") {
            if password == nil { throw .passwordRequired(path: path) }
            throw .wrongPassword(path: path)
        }
        if !text.contains("-----BEGIN") {
            if let key = decodeDER(bytes) { return key }
            throw .wrongFormat(path: path, detail: "not a \(expected) (no \"-----BEGIN PRIVATE KEY-----\" line)")
        }
        if !text.contains("PRIVATE KEY-----") {
            throw .missingPrivateKey(path: path)
        }
        throw .wrongFormat(path: path, detail: "the \(expected) is damaged or truncated (\(detail))")
    }

    /// A DER private key (PKCS#8 or traditional), or nil.
    private static func decodeDER(_ bytes: [UInt8]) -> OpaquePointer? {
        let key = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        OpenSSLError.clearQueue()
        return key
    }
}

import COpenSSL
import Foundation

extension TLSClientIdentity {
    /// Loads a `.p12` (PKCS#12) file holding a client certificate and its private key, as
    /// exported from macOS Keychain (including the legacy RC2/3DES encryption Keychain uses).
    ///
    /// - Parameters:
    ///   - password: the export password; nil or "" for a file exported without one.
    ///   - now: the time the certificate must be valid at.
    /// - Throws: `.fileNotFound`, `.unreadable`, `.wrongFormat`, `.passwordRequired`,
    ///   `.wrongPassword`, `.unsupportedEncryption`, `.missingCertificate`, `.missingPrivateKey`,
    ///   `.keyDoesNotMatchCertificate`, `.expiredCertificate`, `.certificateNotYetValid`.
    public static func p12(
        path: String, password: String?,
        now: Date = Date()
    ) throws(CredentialError) -> TLSClientIdentity {
        try p12(bytes: try CredentialFileReader.read(path), password: password, source: path, now: now)
    }

    /// Loads PKCS#12 data (e.g. from a secret store); `source` names it in error messages.
    public static func p12(
        bytes: [UInt8], password: String?, source: String,
        now: Date = Date()
    ) throws(CredentialError) -> TLSClientIdentity {
        OpenSSLLibrary.initialize()
        OpenSSLError.clearQueue()
        let decoded = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PKCS12(nil, &cursor, buffer.count)
        }
        guard let pkcs12 = decoded else {
            OpenSSLError.clearQueue()
            let looksPEM = String(decoding: bytes.prefix(4096), as: UTF8.self).contains("-----BEGIN")
            throw .wrongFormat(
                path: source,
                detail: looksPEM
                    ? "not a PKCS#12 (.p12) file but PEM text; load it as PEM certificate and key instead"
                    : "not a PKCS#12 (.p12) file")
        }
        defer { PKCS12_free(pkcs12) }

        let password = try macVerifiedPassword(pkcs12, password: password, source: source)
        let parsed: (key: OpaquePointer?, certificate: OpaquePointer?, others: [OpaquePointer])
        if let first = parse(pkcs12, password: password) {
            parsed = first
        } else {
            let detail = OpenSSLError.drainQueue()
            // RC2 (Keychain's certificate encryption) lives in OpenSSL 3's "legacy" provider,
            // which is loaded on first need.
            if let failure = OpenSSLLegacyProvider.loadFailure {
                if detail.contains("unsupported") {
                    throw .unsupportedEncryption(path: source, detail: "\(detail); \(failure)")
                }
                throw damaged(source, detail: detail)
            }
            guard let second = parse(pkcs12, password: password) else {
                throw damaged(source, detail: OpenSSLError.drainQueue())
            }
            parsed = second
        }
        let (key, certificate, others) = parsed
        OpenSSLError.clearQueue()

        guard let certificate else {
            // PKCS12_parse files certificates that do not match the key under "others".
            let hadCertificates = !others.isEmpty
            others.forEach { X509_free($0) }
            if let key { EVP_PKEY_free(key) }
            if !hadCertificates { throw .missingCertificate(path: source) }
            if key == nil { throw .missingPrivateKey(path: source) }
            throw .keyDoesNotMatchCertificate(certificatePath: source, keyPath: source)
        }
        guard let key else {
            X509_free(certificate)
            others.forEach { X509_free($0) }
            throw .missingPrivateKey(path: source)
        }
        return try TLSClientIdentity(
            certificate: certificate, privateKey: key, chain: others,
            certificatePath: source, keyPath: source, now: now)
    }

    /// The password (nil = none) that the file's integrity MAC verifies with. A wrong password
    /// is detected here, before decryption, so it is reported as such and not as a damaged file.
    private static func macVerifiedPassword(
        _ pkcs12: OpaquePointer, password: String?,
        source: String
    ) throws(CredentialError) -> String? {
        let given = password?.isEmpty == false ? password : nil
        guard PKCS12_mac_present(pkcs12) == 1 else { return given }
        if let given {
            if PKCS12_verify_mac(pkcs12, given, -1) == 1 { return given }
            OpenSSLError.clearQueue()
            throw .wrongPassword(path: source)
        }
        // "No password" is written either as an absent or as an empty password.
        if PKCS12_verify_mac(pkcs12, nil, 0) == 1 { return nil }
        if PKCS12_verify_mac(pkcs12, "", 0) == 1 { return "" }
        OpenSSLError.clearQueue()
        throw .passwordRequired(path: source)
    }

    /// PKCS12_parse; nil on failure with the reason left in the error queue.
    private static func parse(_ pkcs12: OpaquePointer, password: String?)
        -> (key: OpaquePointer?, certificate: OpaquePointer?, others: [OpaquePointer])?
    {
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var stack: OpaquePointer?
        guard PKCS12_parse(pkcs12, password, &key, &certificate, &stack) == 1 else { return nil }
        var others: [OpaquePointer] = []
        if let stack {
            // Shift (not pop) to keep file order; the X509 references move to `others`.
            while OPENSSL_sk_num(stack) > 0, let certificate = OPENSSL_sk_shift(stack) {
                others.append(OpaquePointer(certificate))
            }
            OPENSSL_sk_free(stack)
        }
        return (key, certificate, others)
    }

    private static func damaged(_ source: String, detail: String) -> CredentialError {
        .wrongFormat(path: source, detail: "the .p12 contents cannot be decrypted or are damaged (\(detail))")
    }
}

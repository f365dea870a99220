import COpenSSL
import Foundation

extension TLSClientIdentity {
    /// Loads a client certificate and its private key from PEM files (e.g. converted from a
    /// `.p12` with `openssl pkcs12 -nodes`).
    ///
    /// - Parameters:
    ///   - certificatePath: the leaf certificate, optionally followed by chain certificates
    ///     (PEM; a single DER certificate is accepted too).
    ///   - keyPath: the private key: PKCS#8 or traditional ("RSA PRIVATE KEY"), PEM or DER,
    ///     encrypted PEM if `keyPassword` is given. May be the same file as the certificate.
    ///   - now: the time the certificate must be valid at.
    public static func pem(
        certificatePath: String, keyPath: String, keyPassword: String? = nil,
        now: Date = Date()
    ) throws(CredentialError) -> TLSClientIdentity {
        OpenSSLLibrary.initialize()
        let certificates = try readCertificates(try CredentialFileReader.read(certificatePath), path: certificatePath)
        let key: OpaquePointer
        do throws(CredentialError) {
            key = try PrivateKeyReader.read(
                try CredentialFileReader.read(keyPath), password: keyPassword,
                path: keyPath, expected: "PEM private key")
        } catch {
            certificates.forEach { X509_free($0) }
            throw error
        }
        return try TLSClientIdentity(
            certificate: certificates[0], privateKey: key,
            chain: Array(certificates.dropFirst()),
            certificatePath: certificatePath, keyPath: keyPath, now: now)
    }

    /// All certificates in the file, in order (at least one); the caller owns them.
    private static func readCertificates(
        _ bytes: [UInt8],
        path: String
    ) throws(CredentialError) -> [OpaquePointer] {
        OpenSSLError.clearQueue()
        var damage: String?
        let certificates =
            MemoryBIO.withBIO(over: bytes) { bio -> [OpaquePointer] in
                var found: [OpaquePointer] = []
                // PEM_read_bio_X509 skips blocks of other types (e.g. a key in the same file) and
                // fails with "no start line" once no certificate is left.
                while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                    found.append(certificate)
                }
                let error = ERR_peek_last_error()
                if error != 0, ERR_GET_REASON(error) != PEM_R_NO_START_LINE {
                    damage = OpenSSLError.drainQueue()
                }
                OpenSSLError.clearQueue()
                return found
            } ?? []
        if let damage {
            certificates.forEach { X509_free($0) }
            throw .wrongFormat(path: path, detail: "a PEM certificate in it is damaged or truncated (\(damage))")
        }
        if !certificates.isEmpty { return certificates }

        let isPEM = String(decoding: bytes, as: UTF8.self).contains("-----BEGIN")
        if isPEM { throw .missingCertificate(path: path) }
        let der = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        OpenSSLError.clearQueue()
        guard let der else {
            throw .wrongFormat(path: path, detail: "not a PEM certificate (no \"-----BEGIN CERTIFICATE-----\" line)")
        }
        return [der]
    }
}

import COpenSSL
import Foundation

/// A client certificate with its private key, ready to be presented during the TLS handshake
/// (APNs certificate-based authentication).
///
/// Load it with `p12(path:password:now:)` (what Keychain exports) or
/// `pem(certificatePath:keyPath:keyPassword:now:)`. Loading checks that the key belongs to the
/// certificate and that the certificate is valid at `now`.
///
/// `@unchecked Sendable` is safe: the `X509`/`EVP_PKEY` objects are never modified after init
/// (OpenSSL 3 allows concurrent read-only use, and `install(into:)` only takes references via
/// OpenSSL's atomic reference counts); this object owns one reference to each, released in
/// `deinit`.
public final class TLSClientIdentity: @unchecked Sendable, CustomStringConvertible {
    /// The file(s) the identity came from, for messages.
    public let source: String
    /// End of validity of the certificate.
    public let notAfter: Date
    /// Start of validity of the certificate.
    public let notBefore: Date
    /// The certificate subject on one line, e.g. `CN=Apple Push Services: com.example.app, O=…`.
    public let subject: String
    /// The subject's attributes in certificate order, short names as keys ("CN", "O", "UID", ...).
    package let subjectEntries: [(name: String, value: String)]

    /// `X509*`, the leaf certificate.
    let certificate: OpaquePointer
    /// `EVP_PKEY*`, its private key.
    let privateKey: OpaquePointer
    /// `X509*` intermediates sent after the leaf, in file order.
    let chain: [OpaquePointer]

    /// Takes ownership of one reference to each object (freed in deinit, also when this throws),
    /// checks the key matches and the validity period.
    init(
        certificate: OpaquePointer, privateKey: OpaquePointer, chain: [OpaquePointer],
        certificatePath: String, keyPath: String, now: Date
    ) throws(CredentialError) {
        self.certificate = certificate
        self.privateKey = privateKey
        self.chain = chain
        self.source = certificatePath == keyPath ? certificatePath : "\(certificatePath) + \(keyPath)"
        self.notAfter = X509Info.notAfter(certificate)
        self.notBefore = X509Info.notBefore(certificate)
        self.subject = X509Info.subject(certificate)
        self.subjectEntries = X509Info.subjectEntries(certificate)

        OpenSSLError.clearQueue()
        guard X509_check_private_key(certificate, privateKey) == 1 else {
            OpenSSLError.clearQueue()
            throw .keyDoesNotMatchCertificate(certificatePath: certificatePath, keyPath: keyPath)
        }
        if now > notAfter { throw .expiredCertificate(path: certificatePath, notAfter: notAfter) }
        if now < notBefore { throw .certificateNotYetValid(path: certificatePath, notBefore: notBefore) }
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(privateKey)
        for certificate in chain { X509_free(certificate) }
    }

    /// Number of chain certificates sent after the leaf.
    public var chainLength: Int { chain.count }

    public var description: String {
        "TLSClientIdentity(\(subject), valid until \(notAfter.formatted(.iso8601)), from \(source))"
    }

    /// Makes `ctx` (an `SSL_CTX*`) present this identity as its client certificate: the leaf,
    /// its key and the chain certificates. Call once per `SSL_CTX` (each call appends the chain
    /// again).
    package func install(into ctx: OpaquePointer) throws(CredentialError) {
        OpenSSLError.clearQueue()
        guard SSL_CTX_use_certificate(ctx, certificate) == 1 else {
            throw installFailure("SSL_CTX_use_certificate")
        }
        guard SSL_CTX_use_PrivateKey(ctx, privateKey) == 1 else {
            throw installFailure("SSL_CTX_use_PrivateKey")
        }
        for certificate in chain {
            // The context takes ownership of what it is given, so give it its own reference.
            X509_up_ref(certificate)
            guard pr_SSL_CTX_add_extra_chain_cert(ctx, certificate) == 1 else {
                X509_free(certificate)
                throw installFailure("SSL_CTX_add_extra_chain_cert")
            }
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw installFailure("SSL_CTX_check_private_key")
        }
    }

    private func installFailure(_ operation: String) -> CredentialError {
        .installFailed(source: source, reason: OpenSSLError.capture(operation).description)
    }
}

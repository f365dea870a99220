import NIOSSL

/// The TLS every mock presents: its PEM certificate chain and key, TLS 1.2 or later, the ALPN
/// protocols it offers. Failures name the file at fault.
package enum MockTLS {
    /// A file (or the context built from it) that TLS could not use.
    package struct MaterialError: Error {
        package let path: String
        /// The underlying error, as text.
        package let detail: String

        package init(path: String, detail: String) {
            self.path = path
            self.detail = detail
        }
    }

    /// Loads the chain and key, applies `customize` (a mock's own settings, such as client
    /// certificates), and builds the context.
    package static func serverContext(
        certificatePath: String, keyPath: String, applicationProtocols: [String],
        customize: (inout TLSConfiguration) throws(MaterialError) -> Void = { _ in }
    ) throws(MaterialError) -> NIOSSLContext {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw MaterialError(path: certificatePath, detail: "\(error)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw MaterialError(path: keyPath, detail: "\(error)")
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        // Closing waits this long for the peer's close_notify; a client under test that never
        // sends one must not stall closes or shutdown.
        tls.shutdownTimeout = .seconds(1)
        tls.applicationProtocols = applicationProtocols
        try customize(&tls)
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw MaterialError(path: certificatePath, detail: "\(error)")
        }
    }
}

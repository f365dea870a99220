import Foundation
import NIOCore
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
        tls.keyLogCallback = keyLog(ProcessInfo.processInfo.environment["SSLKEYLOGFILE"])
        try customize(&tls)
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw MaterialError(path: certificatePath, detail: "\(error)")
        }
    }

    /// With `SSLKEYLOGFILE` set (as curl and browsers honour it), each TLS session's secrets are
    /// appended there in the NSS key log format, so Wireshark or tshark can decode what a client
    /// and the mock said to each other. Off unless asked for: a mock is a test tool.
    private static func keyLog(_ path: String?) -> NIOSSLKeyLogCallback? {
        guard let path, !path.isEmpty else { return nil }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        return { line in
            // One write(2) per line with O_APPEND: lines from several threads never interleave.
            let bytes = Array(line.readableBytesView) + [0x0A]
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}

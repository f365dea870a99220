import NIOSSL

extension TLSConfiguration {
    /// A client configuration trusting only the CA in `caFile` (a mock, a self-hosted service),
    /// or the system's roots when it is nil.
    public static func pooledClient(trustingOnly caFile: String?) throws(TrustRootsError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw TrustRootsError(description: "cannot read ca_file \(caFile): \(error)")
            }
        }
        return tls
    }
}

/// A `ca_file` that holds no certificate.
public struct TrustRootsError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

import NIOSSL
import MockSupport

/// What `start()` loads from disk and every connection uses: the TLS context, the provider-token
/// verifier and the record file.
struct ServingResources: Sendable {
    let sslContext: NIOSSLContext
    let verifier: ProviderTokenVerifier
    let recordFile: JSONLinesFile?

    init(configuration: APNsMockConfiguration) throws {
        do {
            self.sslContext = try MockTLS.serverContext(
                certificatePath: configuration.tlsCertificatePath, keyPath: configuration.tlsKeyPath,
                applicationProtocols: ["h2"]
            ) { (tls: inout TLSConfiguration) throws(MockTLS.MaterialError) in
                guard let caPath = configuration.clientCAPath else { return }
                do {
                    tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
                } catch {
                    throw MockTLS.MaterialError(path: caPath, detail: "\(error)")
                }
                tls.certificateVerification =
                    configuration.requireClientCertificate ? .noHostnameVerification : .optionalVerification
                tls.sendCANameList = true
            }
        } catch {
            throw APNsMockError.invalidTLSMaterial(path: error.path, detail: error.detail)
        }
        self.verifier = try ProviderTokenVerifier(
            keyFiles: configuration.jwtKeys,
            keyPEMs: configuration.jwtPublicKeysPEM,
            teamID: configuration.teamID
        )
        self.recordFile = try configuration.recordFile.map { try JSONLinesFile(path: $0) }
    }
}

import NIOSSL
import MockSupport

/// What `start()` loads from disk and every connection uses: the TLS context, the provider-token
/// verifier and the record file.
struct ServingResources: Sendable {
    let sslContext: NIOSSLContext
    let verifier: ProviderTokenVerifier
    let recordFile: JSONLinesFile?

    init(configuration: APNsMockConfiguration) throws {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(configuration.tlsCertificatePath)
        } catch {
            throw APNsMockError.invalidTLSMaterial(path: configuration.tlsCertificatePath, detail: "\(error)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: configuration.tlsKeyPath, format: .pem)
        } catch {
            throw APNsMockError.invalidTLSMaterial(path: configuration.tlsKeyPath, detail: "\(error)")
        }
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
        tls.minimumTLSVersion = .tlsv12
        // Closing waits this long for the peer's close_notify; a client under test that never
        // sends one must not stall GOAWAY closes or shutdown.
        tls.shutdownTimeout = .seconds(1)
        tls.applicationProtocols = ["h2"]
        if let caPath = configuration.clientCAPath {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
            } catch {
                throw APNsMockError.invalidTLSMaterial(path: caPath, detail: "\(error)")
            }
            tls.certificateVerification =
                configuration.requireClientCertificate ? .noHostnameVerification : .optionalVerification
            tls.sendCANameList = true
        }
        do {
            self.sslContext = try NIOSSLContext(configuration: tls)
        } catch {
            throw APNsMockError.invalidTLSMaterial(path: configuration.tlsCertificatePath, detail: "\(error)")
        }
        self.verifier = try ProviderTokenVerifier(
            keyFiles: configuration.jwtKeys,
            keyPEMs: configuration.jwtPublicKeysPEM,
            teamID: configuration.teamID
        )
        self.recordFile = try configuration.recordFile.map { try JSONLinesFile(path: $0) }
    }
}

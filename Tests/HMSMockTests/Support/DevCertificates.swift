import TestSupport

/// Paths of the development TLS material in `certs/dev/`, found by `Repository`.
enum DevCertificates {
    static var caPEM: String { Repository.devCert("ca.pem") }
    static var serverPEM: String { Repository.devCert("server.pem") }
    static var serverKey: String { Repository.devCert("server.key") }
}

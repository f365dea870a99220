import Foundation
import TestSupport

/// Paths of the development TLS material and keys in `certs/dev/`, found by `Repository`.
enum DevCertificates {
    static func path(_ name: String) -> String {
        Repository.devCert(name)
    }

    static var caPEM: String { path("ca.pem") }
    static var serverPEM: String { path("server.pem") }
    static var serverKey: String { path("server.key") }
    static var clientPEM: String { path("client.pem") }
    static var clientKey: String { path("client.key") }
    static var authKeyP8: String { path("AuthKey_DEVKEY1234.p8") }
    static var authKeyPublicPEM: String { path("AuthKey_DEVKEY1234.pub.pem") }
    static let keyID = "DEVKEY1234"
    static let teamID = "TEAM123456"
}

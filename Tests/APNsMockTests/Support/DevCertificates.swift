import Foundation

/// Paths of the development TLS material and keys in `certs/dev/`, found from this file's path.
enum DevCertificates {
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/APNsMockTests/Support/DevCertificates.swift → repository root
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url
    }()

    static func path(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("certs/dev/\(name)").path
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

import MockSupport
import NIOSSL
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(5))) struct MockTLSTests {
    private static let certificate = Repository.devCert("server.pem")
    private static let key = Repository.devCert("server.key")

    @Test func theDevMaterialMakesAContextAndCustomizationRuns() throws {
        var customized = false
        _ = try MockTLS.serverContext(certificatePath: Self.certificate, keyPath: Self.key, applicationProtocols: ["h2"]) { tls in
            #expect(tls.applicationProtocols == ["h2"])
            #expect(tls.minimumTLSVersion == .tlsv12)
            customized = true
        }
        #expect(customized)
    }

    /// Each failure names the file at fault, so a mock can say which one is unusable.
    @Test func aFailureNamesTheFileAtFault() {
        let missing = Repository.devCert("no-such-file.pem")
        #expect(throws: MockTLS.MaterialError.self) {
            try MockTLS.serverContext(certificatePath: missing, keyPath: Self.key, applicationProtocols: [])
        }
        #expect(Self.failingPath(certificate: missing, key: Self.key) == missing)
        #expect(Self.failingPath(certificate: Self.certificate, key: missing) == missing)
        // A certificate where the key should be: the key file is at fault.
        #expect(Self.failingPath(certificate: Self.certificate, key: Self.certificate) == Self.certificate)
        let fromCustomization = MockTLS.MaterialError(path: "ca.pem", detail: "unreadable")
        do {
            _ = try MockTLS.serverContext(certificatePath: Self.certificate, keyPath: Self.key, applicationProtocols: []) {
                (_: inout TLSConfiguration) throws(MockTLS.MaterialError) in
                throw fromCustomization
            }
            Issue.record("the customization's failure was not thrown")
        } catch {
            #expect(error.path == "ca.pem" && error.detail == "unreadable")
        }
    }

    private static func failingPath(certificate: String, key: String) -> String? {
        do {
            _ = try MockTLS.serverContext(certificatePath: certificate, keyPath: key, applicationProtocols: [])
            return nil
        } catch {
            #expect(!error.detail.isEmpty)
            return error.path
        }
    }
}

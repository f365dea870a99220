import APNsMock
import Foundation
import Testing

@testable import HTTP2Transport

/// The server certificate must name the endpoint: a name by its DNS names (whole-label
/// wildcards only), an IP literal by its IP addresses. Each case runs the real client against
/// the mock presenting a certificate made for it, signed by the CA the client trusts, so only
/// the name can be what refuses it.
@Suite("HTTP/2 client checks the server's name", .timeLimit(.minutes(5)))
struct ServerIdentityTests {
    /// Sends one request to a mock presenting a certificate with `subjectAltNames`, addressed as
    /// `host` (connected to 127.0.0.1 whatever the name).
    private func send(host: String, subjectAltNames: [String]) async throws -> Result<Int, any Error> {
        let certificate = try TestServerCertificate(subjectAltNames: subjectAltNames)
        defer { certificate.remove() }
        var mockConfiguration = TransportFixtures.mockConfiguration()
        mockConfiguration.tlsCertificatePath = certificate.certificatePath
        mockConfiguration.tlsKeyPath = certificate.keyPath
        return try await withMock(mockConfiguration) { mock in
            var config = try TransportFixtures.configuration(port: mock.port)
            config.endpoint = TransportEndpoint(host: host, port: mock.port)
            config.testHooks = TransportTestHooks(connectAddress: "127.0.0.1")
            let client = try HTTP2Client(configuration: config)
            let outcome: Result<Int, any Error>
            do { outcome = .success(try await client.send()) } catch { outcome = .failure(error) }
            await client.shutdown()
            if case .failure = outcome { #expect(mock.notifications.isEmpty) }
            return outcome
        }
    }

    /// Asserts `outcome` is a refused handshake whose message contains `detail`.
    private func expectRefused(
        _ outcome: Result<Int, any Error>, _ detail: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(HTTP2TransportError.connectFailed(let message)) = outcome else {
            Issue.record("expected a refused TLS handshake, got \(outcome)", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains("not trusted") && message.contains(detail), "\(message)", sourceLocation: sourceLocation)
    }

    @Test func certificateForAnotherNameIsRefused() async throws {
        let outcome = try await send(host: "push.example.com", subjectAltNames: ["DNS:other.example.com", "IP:127.0.0.1"])
        expectRefused(outcome, "hostname mismatch")
    }

    @Test func partialWildcardIsRefused() async throws {
        let sans = ["DNS:p*.example.com"]
        // Control: OpenSSL's default check would accept this certificate for the name.
        let certificate = try TestServerCertificate(subjectAltNames: sans)
        #expect(try certificate.matchesWithDefaultHostCheck("push.example.com"))
        certificate.remove()
        let outcome = try await send(host: "push.example.com", subjectAltNames: sans)
        expectRefused(outcome, "hostname mismatch")
    }

    /// Control for the two above: the same route with a matching (whole-label wildcard) name works.
    @Test func wholeLabelWildcardIsAccepted() async throws {
        let outcome = try await send(host: "push.example.com", subjectAltNames: ["DNS:*.example.com"])
        #expect(try outcome.get() == 200)
    }

    @Test func ipLiteralMustBeACertificateIPAddressNotADNSName() async throws {
        let outcome = try await send(host: "127.0.0.1", subjectAltNames: ["DNS:127.0.0.1", "DNS:localhost"])
        expectRefused(outcome, "IP address mismatch")
    }

    @Test func ipLiteralMatchingACertificateIPAddressIsAccepted() async throws {
        let outcome = try await send(host: "127.0.0.1", subjectAltNames: ["IP:127.0.0.1"])
        #expect(try outcome.get() == 200)
    }

    @Test func ipLiteralsAreRecognised() {
        #expect(ServerIdentityCheck.isIPAddress("127.0.0.1"))
        #expect(ServerIdentityCheck.isIPAddress("::1"))
        #expect(ServerIdentityCheck.isIPAddress("2001:db8::17"))
        #expect(!ServerIdentityCheck.isIPAddress("api.push.apple.com"))
        #expect(!ServerIdentityCheck.isIPAddress("127.0.0.1.example.com"))
        #expect(!ServerIdentityCheck.isIPAddress("[::1]"))
    }
}

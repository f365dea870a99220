import APNs
import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A request waiting for a connection that never comes up (a server that accepts TCP and then
/// says nothing) fails at its own deadline, not after the much longer connect timeout.
@Suite("APNs client deadlines while connecting", .timeLimit(.minutes(5)))
struct ConnectDeadlineTests {
    @Test func requestQueuedOnASilentServerFailsAtItsDeadline() async throws {
        let server = try SilentTCPServer()
        defer { server.close() }
        var config = Fixtures.clientConfiguration(
            port: server.port, authentication: .token(try Fixtures.tokenCache()),
            requestTimeout: .seconds(1))
        config.connectTimeout = .seconds(600)
        let client = try APNsClient(configuration: config)
        let start = ContinuousClock.now
        let outcome = await sendBounded(client, request())
        let waited = ContinuousClock.now - start
        guard case .failure(let error) = outcome else {
            Issue.record("a silent server answered: \(outcome)")
            return
        }
        #expect(error as? APNsError == .transport(.timedOut), "\(error)")
        // The deadline is 1 s, the connect timeout 600 s: a bound between leaves room for a slow machine.
        #expect(waited >= .seconds(1) && waited < .seconds(120), "took \(waited)")
        // The connection thread is still in the handshake; shutdown must end it promptly too.
        await client.shutdown()
    }
}

/// A listening socket that never accepts: the kernel completes TCP handshakes into its backlog,
/// so a client connects and then waits for a TLS answer that never comes.
private struct SilentTCPServer {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            Glibc.close(fd)
            throw POSIXError(code)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(fd) }
}

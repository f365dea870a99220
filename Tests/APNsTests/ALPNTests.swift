import APNs
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct ALPNTests {
    /// `openssl s_server` speaks TLS but offers no ALPN: the client must refuse it clearly
    /// instead of sending HTTP/2 into the void.
    @Test func serverWithoutH2IsRefused() async throws {
        // Below Linux's ephemeral range (32768–60999), where the suites' servers on port 0 land:
        // one there answered this test's connection once, as if openssl had.
        let port = Int.random(in: 10000...32000)
        let server = try ChildProcess(
            "/usr/bin/openssl",
            [
                "s_server", "-accept", "127.0.0.1:\(port)", "-cert", Fixtures.cert("server.pem"),
                "-key", Fixtures.cert("server.key"), "-quiet", "-naccept", "5",
            ])
        defer { server.signal(SIGTERM) }
        try await waitUntilListening(port: port)
        let client = try APNsClient(
            configuration: Fixtures.clientConfiguration(
                port: port, authentication: .token(try Fixtures.tokenCache()), requestTimeout: .seconds(5)))
        await #expect(throws: APNsError.transport(.alpnNotNegotiated(nil))) { try await client.send(request()) }
        await client.shutdown()
    }
}

/// Waits (bounded) until something accepts TCP connections on the port.
func waitUntilListening(port: Int, timeout: Duration = .seconds(60)) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(fd)
        if rc == 0 { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw CancellationError()
}

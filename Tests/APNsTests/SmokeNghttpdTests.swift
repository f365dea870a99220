import Foundation
import Testing
@testable import APNs

@Test func smokeAgainstNghttpd() async throws {
    let token = String(repeating: "ab", count: 32)
    let config = APNsClientConfiguration(
        endpoint: APNsEndpoint(host: "127.0.0.1", port: 8443),
        authentication: .certificate(APNsClientIdentity()),
        extraCAFile: "/work/main/certs/dev/ca.pem", connections: 1)
    let client = try APNsClient(configuration: config)
    let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
    let r = try await client.send(APNsRequest(deviceToken: token, topic: "com.example", payload: payload))
    #expect(r.status == 200)
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Int.self) { g in
        for _ in 0..<2000 {
            g.addTask { try await client.send(APNsRequest(deviceToken: token, topic: "com.example", payload: payload)).status }
        }
        for try await s in g { #expect(s == 200) }
    }
    print("2000 in", ContinuousClock.now - start, client.statistics)
    await client.shutdown()
}

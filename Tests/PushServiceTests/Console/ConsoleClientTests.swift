import HTTPTypes
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConsoleClientTests {
    @Test func onlyATrustedProxyIsBelievedAboutHTTPSAndTheClientsAddress() {
        let headers: HTTPFields = [.forwardedProto: "https", .forwardedFor: "203.0.113.9, 198.51.100.7"]
        let viaProxy = ConsoleClient(peer: "127.0.0.1", headers: headers, trustedProxies: ["127.0.0.1"])
        #expect(viaProxy == ConsoleClient(address: "198.51.100.7", isHTTPS: true))
        let direct = ConsoleClient(peer: "192.0.2.4", headers: headers, trustedProxies: ["127.0.0.1"])
        #expect(direct == ConsoleClient(address: "192.0.2.4", isHTTPS: false), "anyone can send the headers")
        let plain = ConsoleClient(peer: "127.0.0.1", headers: [:], trustedProxies: ["127.0.0.1"])
        #expect(plain == ConsoleClient(address: "127.0.0.1", isHTTPS: false))
    }
}

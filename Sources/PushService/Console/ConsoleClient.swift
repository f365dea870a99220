import Foundation
import HTTPTypes

/// Where a console request comes from, as far as the relay can tell: the peer's address, or —
/// when the peer is one of `console.trusted_proxies` — the address the proxy says it forwarded
/// for, and whether the browser's connection was HTTPS (`X-Forwarded-Proto`). The relay serves
/// plain HTTP itself, so only a trusted proxy can make a request count as HTTPS.
struct ConsoleClient: Sendable, Equatable {
    /// What sign-in attempts are counted by.
    let address: String
    /// Whether the browser reached the relay over HTTPS: the session cookie is then `Secure`.
    let isHTTPS: Bool

    init(address: String, isHTTPS: Bool) {
        self.address = address
        self.isHTTPS = isHTTPS
    }

    init(peer: String?, headers: HTTPFields, trustedProxies: Set<String>) {
        let peer = peer ?? "unknown"
        guard trustedProxies.contains(peer) else {
            address = peer
            isHTTPS = false
            return
        }
        // The proxy appends the address it saw: the last entry is the one it vouches for.
        let forwarded = headers[values: .forwardedFor].flatMap { $0.split(separator: ",") }.last
        let trimmed = forwarded.map { String($0.trimmingCharacters(in: .whitespaces).prefix(64)) }
        address = trimmed.flatMap { $0.isEmpty ? nil : $0 } ?? peer
        isHTTPS = headers[values: .forwardedProto].last?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }
}

extension HTTPField.Name {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}

import Foundation
import ProviderDriver

/// The push services a subscription's endpoint may name (the SSRF guard of OWASP ASVS 1.3.6 and
/// Sygnal's `allowed_endpoints`): the relay posts only to these origins, so a registration cannot
/// point it at an internal address. Entries are `https://host[:port]`, a host's subdomains as
/// `https://*.host`.
public struct EndpointAllowlist: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var host: String
        var subdomains: Bool
        var port: Int
    }

    var entries: [Entry]

    /// Google's (Chrome, Edge on Android), Mozilla's (Firefox), Apple's (Safari, installed web
    /// apps on iOS) and Microsoft's (Edge on Windows) push services.
    public static let publicServices: [String] = [
        "https://fcm.googleapis.com", "https://android.googleapis.com", "https://updates.push.services.mozilla.com",
        "https://web.push.apple.com", "https://*.notify.windows.com",
    ]

    public static let `default` = try! EndpointAllowlist(publicServices)

    /// Parses `https://host[:port]` entries; throws with the first that is not one.
    public init(_ origins: [String]) throws(TokenFormatProblem) {
        entries = try origins.map { origin throws(TokenFormatProblem) in try Self.entry(origin) }
    }

    private static func entry(_ origin: String) throws(TokenFormatProblem) -> Entry {
        let wildcard = origin.hasPrefix("https://*.")
        let text = wildcard ? "https://" + origin.dropFirst("https://*.".count) : origin
        guard let url = URL(string: text), url.scheme == "https", let host = url.host?.lowercased(), !host.isEmpty,
            url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
        else {
            throw TokenFormatProblem("\"\(origin)\" is not https://HOST[:PORT] or https://*.DOMAIN")
        }
        return Entry(host: host, subdomains: wildcard, port: url.port ?? 443)
    }

    public func admits(_ endpoint: URL) -> Bool {
        guard endpoint.scheme == "https", let host = endpoint.host?.lowercased() else { return false }
        let port = endpoint.port ?? 443
        return entries.contains { entry in
            entry.port == port && (entry.subdomains ? host.hasSuffix("." + entry.host) : host == entry.host)
        }
    }

    /// Why registration refuses the subscription `token` carries; nil when it is admitted (or
    /// not a subscription, which the token format reports).
    public func refusal(of token: String) -> TokenFormatProblem? {
        guard let subscription = try? WebPushSubscription(token: token), !admits(subscription.endpoint) else { return nil }
        return TokenFormatProblem(
            "has an endpoint (\(subscription.origin)) that is not a known push service; the app's webpush.allowed_endpoints can add it")
    }

    /// The entries as configured, for messages.
    public var origins: [String] {
        entries.map { "https://\($0.subdomains ? "*." : "")\($0.host)\($0.port == 443 ? "" : ":\($0.port)")" }
    }

    /// Adds `other`'s entries.
    public func adding(_ other: EndpointAllowlist) -> EndpointAllowlist {
        var joined = self
        joined.entries += other.entries.filter { !entries.contains($0) }
        return joined
    }
}

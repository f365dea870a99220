import Crypto
import Foundation
import ProviderDriver
import PushCore

/// A browser's push subscription (`PushSubscription.toJSON()`): where to post (RFC 8030) and the
/// keys to encrypt for (RFC 8291).
///
/// The relay keeps the whole subscription in its device token, so the store, the planner and the
/// dispatcher handle it like any other token: `<endpoint>.<p256dh>.<auth>[.<expiration ms>]`,
/// each part unpadded base64url (the endpoint's UTF-8) and the expiration in decimal. The form is
/// canonical: one subscription, one token, compared by its bytes.
public struct WebPushSubscription: Sendable, Hashable {
    public var endpoint: URL
    /// The browser's P-256 public key, uncompressed (65 bytes).
    public var p256dh: [UInt8]
    /// The authentication secret (16 bytes).
    public var auth: [UInt8]
    /// Unix ms after which the push service drops it (`expirationTime`); nil when it does not say.
    public var expiresAtMs: Int64?

    /// The longest endpoint taken, in UTF-8 bytes (push services' are 150 to 400).
    public static let maximumEndpointBytes = 768
    /// The longest token: the endpoint's base64url, the keys and an expiration.
    public static let maximumTokenBytes = (maximumEndpointBytes + 2) / 3 * 4 + 87 + 22 + 20 + 3

    public init(endpoint: URL, p256dh: [UInt8], auth: [UInt8], expiresAtMs: Int64? = nil) throws(TokenFormatProblem) {
        guard endpoint.scheme == "https", let host = endpoint.host, !host.isEmpty else {
            throw TokenFormatProblem("has an endpoint that is not an https URL")
        }
        guard endpoint.absoluteString.utf8.count <= Self.maximumEndpointBytes else {
            throw TokenFormatProblem("has an endpoint longer than \(Self.maximumEndpointBytes) bytes")
        }
        guard endpoint.user == nil, endpoint.password == nil, endpoint.fragment == nil else {
            throw TokenFormatProblem("has an endpoint with user info or a fragment")
        }
        guard p256dh.count == 65, (try? P256.KeyAgreement.PublicKey(x963Representation: p256dh)) != nil else {
            throw TokenFormatProblem("has a keys.p256dh that is not an uncompressed P-256 public key (65 bytes, base64url)")
        }
        guard auth.count == 16 else {
            throw TokenFormatProblem("has a keys.auth that is not a 16-byte secret (base64url; got \(auth.count) bytes)")
        }
        if let expiresAtMs, expiresAtMs < 0 { throw TokenFormatProblem("has a negative expirationTime") }
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.expiresAtMs = expiresAtMs
    }

    /// The device token that carries it.
    public var token: String {
        var parts = [Base64URL.encode(endpoint.absoluteString.utf8), Base64URL.encode(p256dh), Base64URL.encode(auth)]
        if let expiresAtMs { parts.append(String(expiresAtMs)) }
        return parts.joined(separator: ".")
    }

    /// The subscription a token carries; throws unless `token` is exactly its canonical form.
    public init(token: String) throws(TokenFormatProblem) {
        guard token.utf8.count <= Self.maximumTokenBytes else {
            throw TokenFormatProblem("must be at most \(Self.maximumTokenBytes) characters (got \(token.utf8.count))")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 || parts.count == 4,
            let endpointBytes = Base64URL.decode(parts[0]), let text = String(validating: endpointBytes, as: UTF8.self),
            let endpoint = URL(string: text), let p256dh = Base64URL.decode(parts[1]), let auth = Base64URL.decode(parts[2])
        else {
            throw TokenFormatProblem("must be a Web Push subscription token as registration answered it")
        }
        var expires: Int64?
        if parts.count == 4 {
            guard let value = Int64(parts[3]) else { throw TokenFormatProblem("has an expiration that is not a number") }
            expires = value
        }
        try self.init(endpoint: endpoint, p256dh: p256dh, auth: auth, expiresAtMs: expires)
        guard self.token == token else {
            throw TokenFormatProblem("must be a Web Push subscription token as registration answered it (not canonical)")
        }
    }

    /// From `{"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}`, as a browser's
    /// `PushSubscription.toJSON()` gives it.
    public init(json: JSONValue) throws(TokenFormatProblem) {
        guard case .object(let fields) = json else {
            throw TokenFormatProblem("must be an object: the browser's PushSubscription.toJSON()")
        }
        guard case .string(let text)? = fields["endpoint"], let endpoint = URL(string: text) else {
            throw TokenFormatProblem("must have an endpoint (an https URL)")
        }
        guard case .object(let keys)? = fields["keys"], case .string(let p256dh)? = keys["p256dh"], case .string(let auth)? = keys["auth"]
        else {
            throw TokenFormatProblem("must have keys.p256dh and keys.auth (base64url strings)")
        }
        guard let key = Base64URL.decode(p256dh) else { throw TokenFormatProblem("has a keys.p256dh that is not base64url") }
        guard let secret = Base64URL.decode(auth) else { throw TokenFormatProblem("has a keys.auth that is not base64url") }
        var expires: Int64?
        switch fields["expirationTime"] {
        case nil, .null?: expires = nil
        case .int(let value)?: expires = value
        case .double(let value)? where value.isFinite && value >= 0 && value < 1e15: expires = Int64(value)
        default: throw TokenFormatProblem("has an expirationTime that is neither null nor a time in ms")
        }
        try self.init(endpoint: endpoint, p256dh: key, auth: secret, expiresAtMs: expires)
    }

    /// The endpoint's origin (`https://host[:port]`): VAPID's audience and the allowlist's unit.
    public var origin: String {
        let port = endpoint.port.map { ":\($0)" } ?? ""
        return "https://\(endpoint.host?.lowercased() ?? "")\(port)"
    }
}

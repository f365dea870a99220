import Foundation

/// One push the mock accepted (201), as `GET /messages` and the record file give it: the
/// subscription, the RFC 8030 headers, the body as sent (base64) for an independent decryption,
/// the plaintext the mock decrypted, and the VAPID identity that signed it.
public struct RecordedPush: Sendable, Codable, Hashable {
    public var subscription: String
    public var ttl: Int?
    public var urgency: String?
    public var topic: String?
    public var contentEncoding: String?
    public var authorization: String
    /// `k`: the application server's public key (base64url).
    public var vapidKey: String
    public var vapidSubject: String
    public var body: String
    public var plaintext: String
    public var httpVersion: String
    public var receivedAtMs: Int64

    enum CodingKeys: String, CodingKey {
        case subscription, ttl, urgency, topic
        case contentEncoding = "content_encoding"
        case authorization
        case vapidKey = "vapid_key"
        case vapidSubject = "vapid_subject"
        case body, plaintext
        case httpVersion = "http_version"
        case receivedAtMs = "received_at_ms"
    }
}

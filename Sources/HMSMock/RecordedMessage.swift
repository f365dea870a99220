import MockSupport

/// One message hms-mock accepted for one device token, as recorded (JSON lines, the admin API). A
/// request to several tokens is recorded once per token that took it, under one `requestId`.
///
/// `{"token":"…","data":{"message":"hi","sendbird":{…}},"android":{"urgency":"HIGH","ttl":"86400s"},
/// "headers":{"content-type":"application/json"},"httpVersion":"h2","requestId":"…","receivedAtMs":1700000000000,
/// "connectionID":1}`
public struct RecordedMessage: Sendable, Codable, Hashable {
    public var token: String
    /// The object `message.data` held (a JSON string on the wire).
    public var data: JSONValue
    public var android: Android?
    /// The request's `content-type` and `user-agent`, when sent.
    public var headers: [String: String]
    /// `h2` or `http/1.1`: what the request came on.
    public var httpVersion: String
    public var requestId: String
    public var receivedAtMs: Int64
    public var connectionID: Int

    public struct Android: Sendable, Codable, Hashable {
        public var urgency: String?
        public var ttl: String?
        public var category: String?

        public init(urgency: String? = nil, ttl: String? = nil, category: String? = nil) {
            self.urgency = urgency
            self.ttl = ttl
            self.category = category
        }
    }
}

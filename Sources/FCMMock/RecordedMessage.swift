/// One message fcm-mock accepted for delivery, as recorded (JSON lines, the admin API).
///
/// `{"token":"…","data":{"message":"…","sendbird":"{…}"},"android":{"priority":"high","ttl":"86400s"},
/// "name":"projects/p/messages/0:…","receivedAtMs":1700000000000,"connectionID":1}`
public struct RecordedMessage: Sendable, Codable, Hashable {
    public var token: String
    public var data: [String: String]
    public var android: Android?
    /// The name FCM answered with.
    public var name: String
    public var receivedAtMs: Int64
    public var connectionID: Int

    public struct Android: Sendable, Codable, Hashable {
        public var priority: String?
        public var ttl: String?

        public init(priority: String? = nil, ttl: String? = nil) {
            self.priority = priority
            self.ttl = ttl
        }
    }
}

import MockSupport

/// What webpush-mock's connections share under its lock: what every mock keeps, the
/// subscriptions it made (their private keys), the ones marked gone, and its faults.
struct WebPushMockState: MockState {
    typealias Failure = WebPushMockError

    struct Keys: Sendable {
        /// The P-256 private key's raw 32 bytes, and the auth secret.
        var privateKey: [UInt8]
        var auth: [UInt8]
    }

    var stats = WebPushMockStats()
    var connections = OpenConnections()
    var records = Recordings<RecordedPush>()
    var accessTokens = AccessTokenLedger()
    var faults = WebPushFaultBook()
    var subscriptions: [String: Keys] = [:]
    /// Subscription id → the status it is answered with (404 or 410) from now on.
    var marked: [String: Int] = [:]
    var nextSubscription = 0

    mutating func forgetFaultsAndMarks() {
        faults = WebPushFaultBook()
        marked.removeAll()
    }
}

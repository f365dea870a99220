/// An APNs device token registered for a user.
public struct DeviceToken: Sendable, Hashable {
    /// Lowercase hex.
    public var token: String
    /// When it was (last) registered, Unix milliseconds. A 410 from APNs removes the token only
    /// if it was registered before the 410's timestamp (the app may have re-registered since).
    public var registeredAtMs: Int64

    public init(token: String, registeredAtMs: Int64) {
        self.token = token
        self.registeredAtMs = registeredAtMs
    }
}

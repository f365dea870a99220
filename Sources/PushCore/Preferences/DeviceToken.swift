/// A device token registered for a user.
public struct DeviceToken: Sendable, Hashable {
    /// APNs: lowercase hex; FCM: the registration token as given.
    public var token: String
    /// When it was (last) registered, Unix milliseconds. A 410 from APNs removes the token only
    /// if it was registered before the 410's timestamp (the app may have re-registered since).
    public var registeredAtMs: Int64
    public var provider: PushProvider
    /// The app's provider configuration it is registered to (one of its named APNs
    /// configurations); nil: the app's default.
    public var configuration: String?

    public init(token: String, registeredAtMs: Int64, provider: PushProvider, configuration: String? = nil) {
        self.token = token
        self.registeredAtMs = registeredAtMs
        self.provider = provider
        self.configuration = configuration
    }
}

/// A broadcast channel of an app (iOS 18 broadcast push): created through the provider's channel
/// management API and kept in the store, so every relay of a fleet knows it.
public struct LiveActivityChannel: Sendable, Hashable {
    public var appID: String
    /// The provider's id (APNs: base64), which the app's devices subscribe with.
    public var channelID: String
    /// The app server's name for it (a match, an event), if it gave one.
    public var name: String?
    /// 0: no message kept for an offline device; 1: the latest one is.
    public var storagePolicy: Int
    public var createdAtMs: Int64

    public init(appID: String, channelID: String, name: String?, storagePolicy: Int, createdAtMs: Int64) {
        self.appID = appID
        self.channelID = channelID
        self.name = name
        self.storagePolicy = storagePolicy
        self.createdAtMs = createdAtMs
    }
}

/// How badge pushes are made: the app's settings, whichever store keeps the pushes.
public struct BadgePushSettings: Sendable, Hashable {
    /// At most one badge push per user per this many ms.
    public var intervalMs: Int64
    /// How long the provider keeps trying (the app's time to live).
    public var timeToLiveMs: Int64
    /// Whose devices get badge pushes: the provider the app sends the notification payload
    /// through (`BadgePayload` is one); nil when the app has none (counts are kept, nothing is queued).
    public var provider: PushProvider?

    public init(intervalMs: Int64, timeToLiveMs: Int64, provider: PushProvider?) {
        self.intervalMs = intervalMs
        self.timeToLiveMs = timeToLiveMs
        self.provider = provider
    }
}

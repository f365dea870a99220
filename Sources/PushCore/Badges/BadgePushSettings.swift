/// How badge pushes are made: the app's settings, whichever store keeps the pushes.
public struct BadgePushSettings: Sendable, Hashable {
    /// At most one badge push per user per this many ms.
    public var intervalMs: Int64
    /// How long APNs keeps trying (the app's time to live).
    public var timeToLiveMs: Int64

    public init(intervalMs: Int64, timeToLiveMs: Int64) {
        self.intervalMs = intervalMs
        self.timeToLiveMs = timeToLiveMs
    }
}

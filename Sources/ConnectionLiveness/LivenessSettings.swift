/// How quickly a provider connection that stops answering is found out (`ConnectionLiveness`).
/// The defaults replace a silent connection with requests waiting within about 15 s: quick for a
/// user waiting on a push, and slow enough that a provider (or a relay) pausing for a loaded
/// moment is not taken for dead.
public struct LivenessSettings: Sendable, Hashable {
    /// An idle connection PINGs after this long without a byte from the server.
    public var idlePingInterval: Duration
    /// A connection with requests waiting PINGs after this long without a byte from the server.
    public var stallPingInterval: Duration
    /// A PING unanswered this long means the connection is dead.
    public var pingTimeout: Duration
    /// This many requests in a row ending unanswered close the connection.
    public var maximumUnansweredInARow: Int

    public static let defaultIdlePingInterval: Duration = .seconds(60)
    public static let defaultStallPingInterval: Duration = .seconds(5)
    public static let defaultPingTimeout: Duration = .seconds(10)
    public static let defaultMaximumUnansweredInARow = 8

    public init(
        idlePingInterval: Duration = LivenessSettings.defaultIdlePingInterval,
        stallPingInterval: Duration = LivenessSettings.defaultStallPingInterval,
        pingTimeout: Duration = LivenessSettings.defaultPingTimeout,
        maximumUnansweredInARow: Int = LivenessSettings.defaultMaximumUnansweredInARow
    ) {
        self.idlePingInterval = idlePingInterval
        self.stallPingInterval = stallPingInterval
        self.pingTimeout = pingTimeout
        self.maximumUnansweredInARow = max(1, maximumUnansweredInARow)
    }
}

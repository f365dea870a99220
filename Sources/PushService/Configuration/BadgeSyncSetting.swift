import ConfigSupport

/// `apps[].badge_sync`: on `group_channel:message_read`, a background push sets each reader's
/// badge to their new total unread (off by default).
///
/// ```yaml
/// badge_sync: true              # at most one badge push per user per 5 s
/// badge_sync: {interval: 10s}
/// ```
public struct BadgeSyncSetting: Sendable, Hashable {
    /// At most one badge push per user per interval; reads within it fold into the waiting one.
    public var interval: Duration

    public static let defaultInterval: Duration = .seconds(5)
    public static let allowedInterval: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)

    public init(interval: Duration = BadgeSyncSetting.defaultInterval) {
        self.interval = interval
    }
}

extension ConfigMapping {
    /// `badge_sync` at `key`: a boolean, or `{interval: …}` (on).
    func badgeSync(_ key: String) throws(ConfigurationError) -> BadgeSyncSetting? {
        guard let node = mapping[key] else { return nil }
        if case .scalar = node { return try bool(key) == true ? BadgeSyncSetting() : nil }
        let map = try ConfigMapping(node, path: name(key))
        try map.allowOnly(["interval"])
        var setting = BadgeSyncSetting()
        if let interval = try map.duration("interval") {
            guard BadgeSyncSetting.allowedInterval.contains(interval) else {
                throw .invalidValue(key: map.name("interval"), reason: "must be 1s...1h")
            }
            setting.interval = interval
        }
        return setting
    }
}

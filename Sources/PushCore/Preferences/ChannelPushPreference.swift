/// A user's push preference for one group channel
/// (Sendbird `/v3/users/{user_id}/push_preference/{channel_url}`).
public struct ChannelPushPreference: Sendable, Hashable {
    public var triggerOption: ChannelPushTriggerOption
    /// Overrides the user's sound for this channel when set.
    public var pushSound: String?

    public init(triggerOption: ChannelPushTriggerOption = .default, pushSound: String? = nil) {
        self.triggerOption = triggerOption
        self.pushSound = pushSound
    }

    public static let defaults = ChannelPushPreference()

    /// Sendbird's deprecated `enable` flag: false exactly when the channel is off.
    public var enable: Bool { triggerOption != .off }
}

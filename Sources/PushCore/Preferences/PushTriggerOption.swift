/// A user's app-wide push trigger option (Sendbird `push_trigger_option` on the user level).
public enum PushTriggerOption: String, Sendable, Hashable, CaseIterable, Codable {
    /// Every new message, mentions included (the default).
    case all
    /// Only messages that mention the user.
    case mentionOnly = "mention_only"
    /// No pushes.
    case off
}

/// A user's push trigger option for one channel. `default` defers to the user-level option.
public enum ChannelPushTriggerOption: String, Sendable, Hashable, CaseIterable, Codable {
    case `default`
    case all
    case mentionOnly = "mention_only"
    case off
}

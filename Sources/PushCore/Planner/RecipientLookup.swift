/// What the store knows about the members of one event, keyed by user id, loaded in bulk before
/// planning. Missing entries mean the defaults: Sendbird's default preferences, channel option
/// `default`, no tokens, template `default`.
public struct RecipientLookup: Sendable, Hashable {
    public var userPreferences: [String: UserPushPreferences]
    /// Each member's preference for the event's channel.
    public var channelPreferences: [String: ChannelPushPreference]
    public var deviceTokens: [String: [DeviceToken]]
    public var templateChoices: [String: PushTemplateName]

    public init(
        userPreferences: [String: UserPushPreferences] = [:],
        channelPreferences: [String: ChannelPushPreference] = [:],
        deviceTokens: [String: [DeviceToken]] = [:],
        templateChoices: [String: PushTemplateName] = [:]
    ) {
        self.userPreferences = userPreferences
        self.channelPreferences = channelPreferences
        self.deviceTokens = deviceTokens
        self.templateChoices = templateChoices
    }
}

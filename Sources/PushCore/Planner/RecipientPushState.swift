/// Everything the recipient policy needs to know about one user for one channel, read in one
/// snapshot.
public struct RecipientPushState: Sendable, Hashable {
    public var userID: String
    /// Oldest registration first.
    public var tokens: [DeviceToken]
    public var preferences: UserPushPreferences
    public var channelPreference: ChannelPushPreference
    public var templateName: PushTemplateName
    /// Which translation of a message the user's pushes show.
    public var languages: PreferredLanguages

    public init(
        userID: String,
        tokens: [DeviceToken],
        preferences: UserPushPreferences,
        channelPreference: ChannelPushPreference,
        templateName: PushTemplateName,
        languages: PreferredLanguages = .none
    ) {
        self.userID = userID
        self.tokens = tokens
        self.preferences = preferences
        self.channelPreference = channelPreference
        self.templateName = templateName
        self.languages = languages
    }
}

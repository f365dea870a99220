/// What the store knows about the members of one event, keyed by user id, loaded in bulk before
/// planning. A missing member means the defaults: Sendbird's default preferences, channel option
/// `default`, no tokens, template `default`.
///
/// One entry per member, so planning finds everything about a member with one hash of its id
/// (it was four dictionaries, built and probed once each per member).
public struct RecipientLookup: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var preferences: UserPushPreferences
        /// The member's preference for the event's channel.
        public var channelPreference: ChannelPushPreference
        public var tokens: [DeviceToken]
        public var templateChoice: PushTemplateName

        public init(
            preferences: UserPushPreferences = .defaults, channelPreference: ChannelPushPreference = .defaults,
            tokens: [DeviceToken] = [], templateChoice: PushTemplateName = .default
        ) {
            self.preferences = preferences
            self.channelPreference = channelPreference
            self.tokens = tokens
            self.templateChoice = templateChoice
        }

        public static let defaults = Entry()
    }

    public var entries: [String: Entry]

    public init(entries: [String: Entry]) {
        self.entries = entries
    }

    /// From separate maps (tests); a user in any of them gets an entry.
    public init(
        userPreferences: [String: UserPushPreferences] = [:],
        channelPreferences: [String: ChannelPushPreference] = [:],
        deviceTokens: [String: [DeviceToken]] = [:],
        templateChoices: [String: PushTemplateName] = [:]
    ) {
        var entries: [String: Entry] = [:]
        for (user, value) in userPreferences { entries[user, default: .defaults].preferences = value }
        for (user, value) in channelPreferences { entries[user, default: .defaults].channelPreference = value }
        for (user, value) in deviceTokens { entries[user, default: .defaults].tokens = value }
        for (user, value) in templateChoices { entries[user, default: .defaults].templateChoice = value }
        self.entries = entries
    }

    /// What is known about `user`, or the defaults.
    public subscript(user: String) -> Entry { entries[user] ?? .defaults }
}

/// What the store knows about the members of one event, keyed by user id, loaded in bulk before
/// planning: the states the store read (`RecipientDirectory`), as they are. A missing member means
/// the defaults: Sendbird's default preferences, channel option `default`, no tokens, template
/// `default`. Planning finds everything about a member with one hash of its id — of its bytes
/// (`ExactID`): two spellings of one name are two users, as in the store.
public struct RecipientLookup: Sendable, Hashable {
    public var states: [ExactID: RecipientPushState]

    public init(_ states: [ExactID: RecipientPushState]) {
        self.states = states
    }

    /// From separate maps (tests); a user in any of them gets a state.
    public init(
        userPreferences: [ExactID: UserPushPreferences] = [:],
        channelPreferences: [ExactID: ChannelPushPreference] = [:],
        deviceTokens: [ExactID: [DeviceToken]] = [:],
        templateChoices: [ExactID: PushTemplateName] = [:]
    ) {
        var states: [ExactID: RecipientPushState] = [:]
        func edit(_ user: ExactID, _ change: (inout RecipientPushState) -> Void) {
            change(&states[user, default: .defaults(for: user.text)])
        }
        for (user, value) in userPreferences { edit(user) { $0.preferences = value } }
        for (user, value) in channelPreferences { edit(user) { $0.channelPreference = value } }
        for (user, value) in deviceTokens { edit(user) { $0.tokens = value } }
        for (user, value) in templateChoices { edit(user) { $0.templateName = value } }
        self.states = states
    }

    /// What is known about `user`, or the defaults.
    public subscript(user: String) -> RecipientPushState { states[ExactID(user)] ?? .defaults(for: user) }
}

extension RecipientPushState {
    /// A user the store knows nothing about.
    public static func defaults(for user: String) -> RecipientPushState {
        RecipientPushState(userID: user, tokens: [], preferences: .defaults, channelPreference: .defaults, templateName: .default)
    }
}

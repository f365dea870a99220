/// Per-app bounds on what one tenant's requests may make the relay do or store
/// (`apps[].limits`), so that one app cannot starve or exhaust the others. Refusals are
/// Sendbird errors (400110) naming the limit.
public struct AppLimits: Sendable, Hashable {
    /// Most members a webhook event may list. Each member costs a policy decision and up to one
    /// payload per token (≤ 4 KB each) while the event is planned: 2,000 members bound one
    /// event's planning memory to about 8 MB per token.
    public var maxMembersPerEvent: Int
    /// Most channel push preferences one user may hold; a new one beyond it is refused.
    public var maxChannelPreferencesPerUser: Int

    public static let defaultMaxMembersPerEvent = 2_000
    public static let defaultMaxChannelPreferencesPerUser = 10_000
    public static let allowed = 1...1_000_000

    public init(
        maxMembersPerEvent: Int = AppLimits.defaultMaxMembersPerEvent,
        maxChannelPreferencesPerUser: Int = AppLimits.defaultMaxChannelPreferencesPerUser
    ) {
        self.maxMembersPerEvent = maxMembersPerEvent
        self.maxChannelPreferencesPerUser = maxChannelPreferencesPerUser
    }
}

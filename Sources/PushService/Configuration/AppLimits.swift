/// Per-app bounds on what one tenant's requests may make the relay do or store
/// (`apps[].limits`), so that one app cannot starve or exhaust the others. Refusals are
/// Sendbird errors (400110) naming the limit, or 429 for the request rates.
public struct AppLimits: Sendable, Hashable {
    /// Most members a webhook event may list. Each member costs a policy decision and up to one
    /// payload per token (≤ 4 KB each) while the event is planned: 2,000 members bound one
    /// event's planning memory to about 8 MB per token.
    public var maxMembersPerEvent: Int
    /// Most channel push preferences one user may hold; a new one beyond it is refused.
    public var maxChannelPreferencesPerUser: Int
    /// REST requests per second one API token (master or secondary) may make, sustained; twice
    /// as many may come in a burst. Beyond: 429 with Retry-After. 0 turns the limit off.
    public var apiTokenRequestsPerSecond: Int
    /// The same for one session token (a device: a handful of calls per sign-in).
    public var sessionTokenRequestsPerSecond: Int
    /// The longest a session token lives: an `expires_at` beyond it is capped, and sessions
    /// issued before the bound existed die this long after their creation.
    public var maxSessionLifetime: Duration
    /// Test pushes (`POST /v3/push/test`) the app may send a minute, whatever the credential:
    /// as many at once, then one every `60 / n` seconds. Beyond: 429 with Retry-After. Each is a
    /// real push with the app's credentials, so the bound keeps a leaked API token from turning
    /// the endpoint into a spam cannon. 0 turns the limit off.
    public var testPushesPerMinute: Int

    public static let defaultMaxMembersPerEvent = 2_000
    public static let defaultMaxChannelPreferencesPerUser = 10_000
    public static let allowed = 1...1_000_000
    /// Generous: a backend registering users in bulk through one token stays well below it.
    public static let defaultAPITokenRequestsPerSecond = 1_000
    public static let defaultSessionTokenRequestsPerSecond = 20
    public static let allowedRequestsPerSecond = 0...1_000_000
    /// Sendbird's session tokens default to a week, too.
    public static let defaultMaxSessionLifetime: Duration = .seconds(7 * 86_400)
    public static let allowedSessionLifetime: ClosedRange<Duration> = .seconds(60) ... .seconds(365 * 86_400)
    /// Enough for an operator chasing one user's missing pushes.
    public static let defaultTestPushesPerMinute = 10
    public static let allowedTestPushesPerMinute = 0...10_000

    public init(
        maxMembersPerEvent: Int = AppLimits.defaultMaxMembersPerEvent,
        maxChannelPreferencesPerUser: Int = AppLimits.defaultMaxChannelPreferencesPerUser,
        apiTokenRequestsPerSecond: Int = AppLimits.defaultAPITokenRequestsPerSecond,
        sessionTokenRequestsPerSecond: Int = AppLimits.defaultSessionTokenRequestsPerSecond,
        maxSessionLifetime: Duration = AppLimits.defaultMaxSessionLifetime,
        testPushesPerMinute: Int = AppLimits.defaultTestPushesPerMinute
    ) {
        self.maxMembersPerEvent = maxMembersPerEvent
        self.maxChannelPreferencesPerUser = maxChannelPreferencesPerUser
        self.apiTokenRequestsPerSecond = apiTokenRequestsPerSecond
        self.sessionTokenRequestsPerSecond = sessionTokenRequestsPerSecond
        self.maxSessionLifetime = maxSessionLifetime
        self.testPushesPerMinute = testPushesPerMinute
    }
}

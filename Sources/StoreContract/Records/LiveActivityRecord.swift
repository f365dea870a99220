/// One Live Activity the relay knows (ActivityKit's, on a user's device), by the id the app's
/// server gives it: its update token once the device registered one, and where it stands.
public struct LiveActivityRecord: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Known, not yet updated: started by push-to-start, or its token registered by the device.
        case started
        /// Updated at least once.
        case active
        /// Ended: removed, with its token, at `removeAtMs`.
        case ended
    }

    /// Activities a user may hold at once: a device's session creates them by registering
    /// tokens, so their number is bounded; the oldest go first.
    public static let maximumPerUser = 50

    public var appID: String
    public var activityID: String
    public var userID: String
    /// The `ActivityAttributes` type it was started with, when the relay started it.
    public var attributesType: String?
    /// The token its updates go to (`Activity.pushToken`), once the device registered it.
    public var updateToken: String?
    public var state: State
    /// Pushes sent with priority 10, which spend the device's budget (priority 5 does not).
    public var highPriorityPushes: Int
    public var createdAtMs: Int64
    public var updatedAtMs: Int64
    public var endedAtMs: Int64?
    /// When the ended activity and its token are removed: its dismissal date.
    public var removeAtMs: Int64?

    public init(
        appID: String, activityID: String, userID: String, attributesType: String? = nil, updateToken: String? = nil,
        state: State = .started, highPriorityPushes: Int = 0, createdAtMs: Int64, updatedAtMs: Int64, endedAtMs: Int64? = nil,
        removeAtMs: Int64? = nil
    ) {
        self.appID = appID
        self.activityID = activityID
        self.userID = userID
        self.attributesType = attributesType
        self.updateToken = updateToken
        self.state = state
        self.highPriorityPushes = highPriorityPushes
        self.createdAtMs = createdAtMs
        self.updatedAtMs = updatedAtMs
        self.endedAtMs = endedAtMs
        self.removeAtMs = removeAtMs
    }
}

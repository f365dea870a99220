/// A user's app-wide push preferences (Sendbird `/v3/users/{user_id}/push_preference`).
/// Plain values: the wire format lives in the REST layer, the rules in the recipient policy.
public struct UserPushPreferences: Sendable, Hashable {
    public var pushTriggerOption: PushTriggerOption
    /// The legacy daily do-not-disturb window, used when `dndSchedules` is empty.
    public var doNotDisturb: Bool
    public var dndWindow: TimeWindow
    /// IANA time zone name the windows are read in.
    public var timezone: String
    public var snoozeEnabled: Bool
    /// Unix milliseconds.
    public var snoozeStartMs: Int64
    public var snoozeEndMs: Int64
    /// Weekly windows; when non-empty they replace the daily window.
    public var dndSchedules: [DNDSchedule]
    public var pushSound: String
    public var blockPushFromBots: Bool
    /// When non-empty and `blockPushFromBots` is on, only these bots are blocked.
    public var pushBlockedBotIDs: [String]
    public var enablePushForReplies: Bool

    public init(
        pushTriggerOption: PushTriggerOption = .all,
        doNotDisturb: Bool = false,
        dndWindow: TimeWindow = .zero,
        timezone: String = "UTC",
        snoozeEnabled: Bool = false,
        snoozeStartMs: Int64 = 0,
        snoozeEndMs: Int64 = 0,
        dndSchedules: [DNDSchedule] = [],
        pushSound: String = "default",
        blockPushFromBots: Bool = false,
        pushBlockedBotIDs: [String] = [],
        enablePushForReplies: Bool = false
    ) {
        self.pushTriggerOption = pushTriggerOption
        self.doNotDisturb = doNotDisturb
        self.dndWindow = dndWindow
        self.timezone = timezone
        self.snoozeEnabled = snoozeEnabled
        self.snoozeStartMs = snoozeStartMs
        self.snoozeEndMs = snoozeEndMs
        self.dndSchedules = dndSchedules
        self.pushSound = pushSound
        self.blockPushFromBots = blockPushFromBots
        self.pushBlockedBotIDs = pushBlockedBotIDs
        self.enablePushForReplies = enablePushForReplies
    }

    /// What a new user has and what `DELETE …/push_preference` resets to: UTC, sound "default",
    /// everything off.
    public static let defaults = UserPushPreferences()
}

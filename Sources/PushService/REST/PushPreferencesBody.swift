import Hummingbird
import PushCore

/// The wire form of a user's push preferences (GET, PUT and DELETE answers), with every field
/// Sendbird's `ViewPushPreferencesResponse` has.
struct PushPreferencesBody: ResponseEncodable {
    struct Window: Encodable {
        var startHour: Int, startMin: Int, endHour: Int, endMin: Int
        enum CodingKeys: String, CodingKey {
            case startHour = "start_hour", startMin = "start_min", endHour = "end_hour", endMin = "end_min"
        }
        init(_ w: TimeWindow) {
            startHour = w.startHour
            startMin = w.startMin
            endHour = w.endHour
            endMin = w.endMin
        }
    }

    struct Schedule: Encodable {
        var dayOfWeek: String
        var timeWindows: [Window]
        enum CodingKeys: String, CodingKey { case dayOfWeek = "day_of_week", timeWindows = "time_windows" }
    }

    var pushTriggerOption: String
    var doNotDisturb: Bool
    var startHour: Int
    var startMin: Int
    var endHour: Int
    var endMin: Int
    var timezone: String
    var snoozeEnabled: Bool
    var snoozeStartTs: Int64
    var snoozeEndTs: Int64
    var dndSchedules: [Schedule]
    var pushSound: String
    var blockPushFromBots: Bool
    var pushBlockedBotIDs: [String]
    var enablePushForReplies: Bool

    enum CodingKeys: String, CodingKey {
        case pushTriggerOption = "push_trigger_option", doNotDisturb = "do_not_disturb"
        case startHour = "start_hour", startMin = "start_min", endHour = "end_hour", endMin = "end_min"
        case timezone, snoozeEnabled = "snooze_enabled", snoozeStartTs = "snooze_start_ts", snoozeEndTs = "snooze_end_ts"
        case dndSchedules = "dnd_schedules", pushSound = "push_sound", blockPushFromBots = "block_push_from_bots"
        case pushBlockedBotIDs = "push_blocked_bot_ids", enablePushForReplies = "enable_push_for_replies"
    }

    init(_ p: UserPushPreferences) {
        pushTriggerOption = p.pushTriggerOption.rawValue
        doNotDisturb = p.doNotDisturb
        startHour = p.dndWindow.startHour
        startMin = p.dndWindow.startMin
        endHour = p.dndWindow.endHour
        endMin = p.dndWindow.endMin
        timezone = p.timezone
        snoozeEnabled = p.snoozeEnabled
        snoozeStartTs = p.snoozeStartMs
        snoozeEndTs = p.snoozeEndMs
        dndSchedules = p.dndSchedules.map { Schedule(dayOfWeek: $0.dayOfWeek.rawValue, timeWindows: $0.timeWindows.map(Window.init)) }
        pushSound = p.pushSound
        blockPushFromBots = p.blockPushFromBots
        pushBlockedBotIDs = p.pushBlockedBotIDs
        enablePushForReplies = p.enablePushForReplies
    }
}

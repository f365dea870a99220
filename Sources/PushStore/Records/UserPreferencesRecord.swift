import Foundation
import GRDB
import PushCore
import StoreContract

/// A row of `user_push_preferences`. The weekly schedules and bot ids are JSON text with the
/// store's own keys (`StoredDNDSchedule`), so renaming a PushCore property never breaks stored data.
struct UserPreferencesRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "user_push_preferences"

    var appID: String
    var userID: String
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
    var dndSchedules: String
    var pushSound: String
    var blockPushFromBots: Bool
    var pushBlockedBotIds: String
    var enablePushForReplies: Bool

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case userID = "user_id"
        case pushTriggerOption = "push_trigger_option"
        case doNotDisturb = "do_not_disturb"
        case startHour = "start_hour"
        case startMin = "start_min"
        case endHour = "end_hour"
        case endMin = "end_min"
        case timezone
        case snoozeEnabled = "snooze_enabled"
        case snoozeStartTs = "snooze_start_ts"
        case snoozeEndTs = "snooze_end_ts"
        case dndSchedules = "dnd_schedules"
        case pushSound = "push_sound"
        case blockPushFromBots = "block_push_from_bots"
        case pushBlockedBotIds = "push_blocked_bot_ids"
        case enablePushForReplies = "enable_push_for_replies"
    }

    init(app: String, user: String, preferences p: UserPushPreferences) throws {
        appID = app
        userID = user
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
        dndSchedules = try StoredJSON.encode(p.dndSchedules.map(StoredDNDSchedule.init))
        pushSound = p.pushSound
        blockPushFromBots = p.blockPushFromBots
        pushBlockedBotIds = try StoredJSON.encode(p.pushBlockedBotIDs)
        enablePushForReplies = p.enablePushForReplies
    }

    /// The columns `init(raw:)` reads, in order.
    static let rawColumns = """
        app_id, user_id, push_trigger_option, do_not_disturb, start_hour, start_min, end_hour, end_min, timezone,
        snooze_enabled, snooze_start_ts, snooze_end_ts, dnd_schedules, push_sound, block_push_from_bots,
        push_blocked_bot_ids, enable_push_for_replies
        """

    init(raw row: RawStatement.Row) {
        appID = row.string(0)
        userID = row.string(1)
        pushTriggerOption = row.string(2)
        doNotDisturb = row.bool(3)
        startHour = Int(row.int64(4))
        startMin = Int(row.int64(5))
        endHour = Int(row.int64(6))
        endMin = Int(row.int64(7))
        timezone = row.string(8)
        snoozeEnabled = row.bool(9)
        snoozeStartTs = row.int64(10)
        snoozeEndTs = row.int64(11)
        dndSchedules = row.string(12)
        pushSound = row.string(13)
        blockPushFromBots = row.bool(14)
        pushBlockedBotIds = row.string(15)
        enablePushForReplies = row.bool(16)
    }

    /// The row as `users.push_preferences` holds it: a JSON array of the columns after the key,
    /// in table order (`RecipientReadModelSchema`); booleans are SQLite's 0 and 1.
    init(app: String, user: String, readModel text: String) throws {
        let corrupt = PushStoreError.corruptValue(table: "users", column: "push_preferences", value: text)
        guard let fields = (try? JSONValue.parse(Data(text.utf8)))?.arrayValue, fields.count == 15 else { throw corrupt }
        func string(_ index: Int) throws -> String {
            guard case .string(let value) = fields[index] else { throw corrupt }
            return value
        }
        func int(_ index: Int) throws -> Int64 {
            guard case .int(let value) = fields[index] else { throw corrupt }
            return value
        }
        appID = app
        userID = user
        pushTriggerOption = try string(0)
        doNotDisturb = try int(1) != 0
        startHour = Int(try int(2))
        startMin = Int(try int(3))
        endHour = Int(try int(4))
        endMin = Int(try int(5))
        timezone = try string(6)
        snoozeEnabled = try int(7) != 0
        snoozeStartTs = try int(8)
        snoozeEndTs = try int(9)
        dndSchedules = try string(10)
        pushSound = try string(11)
        blockPushFromBots = try int(12) != 0
        pushBlockedBotIds = try string(13)
        enablePushForReplies = try int(14) != 0
    }

    func preferences() throws -> UserPushPreferences {
        guard let trigger = PushTriggerOption(rawValue: pushTriggerOption) else {
            throw PushStoreError.corruptValue(table: Self.databaseTableName, column: "push_trigger_option", value: pushTriggerOption)
        }
        let schedules = try StoredJSON.decode(
            [StoredDNDSchedule].self, from: dndSchedules, table: Self.databaseTableName, column: "dnd_schedules")
        return UserPushPreferences(
            pushTriggerOption: trigger,
            doNotDisturb: doNotDisturb,
            dndWindow: TimeWindow(startHour: startHour, startMin: startMin, endHour: endHour, endMin: endMin),
            timezone: timezone,
            snoozeEnabled: snoozeEnabled,
            snoozeStartMs: snoozeStartTs,
            snoozeEndMs: snoozeEndTs,
            dndSchedules: try schedules.map { try $0.schedule() },
            pushSound: pushSound,
            blockPushFromBots: blockPushFromBots,
            pushBlockedBotIDs: try StoredJSON.decode(
                [String].self, from: pushBlockedBotIds, table: Self.databaseTableName, column: "push_blocked_bot_ids"),
            enablePushForReplies: enablePushForReplies
        )
    }
}

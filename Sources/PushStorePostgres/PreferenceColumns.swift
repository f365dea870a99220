import Foundation
import PostgresNIO
import PushCore
import StoreContract

/// `user_push_preferences` and `channel_push_preferences` rows, read by position. The schedules
/// and bot ids are JSON text in the store's own keys (`StoredDNDSchedule`, `StoredJSON`), exactly
/// as SQLite keeps them, so renaming a PushCore property never breaks stored data.
enum PreferenceColumns {
    static let userTable = "user_push_preferences"
    static let channelTable = "channel_push_preferences"

    /// The columns `userPreferences(_:)` reads, in order (15).
    static let user = """
        push_trigger_option, do_not_disturb, start_hour, start_min, end_hour, end_min, timezone, snooze_enabled, \
        snooze_start_ts, snooze_end_ts, dnd_schedules, push_sound, block_push_from_bots, push_blocked_bot_ids, enable_push_for_replies
        """

    /// The columns `channelPreference(_:)` reads, in order (2).
    static let channel = "push_trigger_option, push_sound"

    /// A row whose first columns are `user`.
    static func userPreferences(_ row: PostgresRow) throws -> UserPushPreferences {
        let (
            trigger, dnd, startHour, startMin, endHour, endMin, timezone, snooze, snoozeStart, snoozeEnd, schedules, sound, blockBots,
            botIDs, replies
        ) =
            try row.decode((String, Bool, Int, Int, Int, Int, String, Bool, Int64, Int64, String, String, Bool, String, Bool).self)
        guard let triggerOption = PushTriggerOption(rawValue: trigger) else {
            throw PushStoreError.corruptValue(table: userTable, column: "push_trigger_option", value: trigger)
        }
        let storedSchedules = try StoredJSON.decode([StoredDNDSchedule].self, from: schedules, table: userTable, column: "dnd_schedules")
        return UserPushPreferences(
            pushTriggerOption: triggerOption,
            doNotDisturb: dnd,
            dndWindow: TimeWindow(startHour: startHour, startMin: startMin, endHour: endHour, endMin: endMin),
            timezone: timezone,
            snoozeEnabled: snooze,
            snoozeStartMs: snoozeStart,
            snoozeEndMs: snoozeEnd,
            dndSchedules: try storedSchedules.map { try $0.schedule() },
            pushSound: sound,
            blockPushFromBots: blockBots,
            pushBlockedBotIDs: try StoredJSON.decode([String].self, from: botIDs, table: userTable, column: "push_blocked_bot_ids"),
            enablePushForReplies: replies
        )
    }

    /// Stores `p` as the user's row, replacing any.
    static func upsertUser(app: String, user: String, _ p: UserPushPreferences) throws -> PostgresQuery {
        let schedules = try StoredJSON.encode(p.dndSchedules.map(StoredDNDSchedule.init))
        let botIDs = try StoredJSON.encode(p.pushBlockedBotIDs)
        let w = p.dndWindow
        return """
            INSERT INTO user_push_preferences (app_id, user_id, \(unescaped: Self.user)) VALUES (
                \(app), \(user), \(p.pushTriggerOption.rawValue), \(p.doNotDisturb), \(w.startHour), \(w.startMin), \(w.endHour),
                \(w.endMin), \(p.timezone), \(p.snoozeEnabled), \(p.snoozeStartMs), \(p.snoozeEndMs), \(schedules), \(p.pushSound),
                \(p.blockPushFromBots), \(botIDs), \(p.enablePushForReplies))
            ON CONFLICT (app_id, user_id) DO UPDATE SET \(unescaped: excluded(Self.user))
            """
    }

    /// A row whose first columns are `channel`.
    static func channelPreference(_ row: PostgresRow) throws -> ChannelPushPreference {
        let (trigger, sound) = try row.decode((String, String?).self)
        guard let triggerOption = ChannelPushTriggerOption(rawValue: trigger) else {
            throw PushStoreError.corruptValue(table: channelTable, column: "push_trigger_option", value: trigger)
        }
        return ChannelPushPreference(triggerOption: triggerOption, pushSound: sound)
    }

    /// `a = EXCLUDED.a, b = EXCLUDED.b, …` for a column list.
    static func excluded(_ columns: String) -> String {
        columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.map { "\($0) = EXCLUDED.\($0)" }
            .joined(separator: ", ")
    }
}

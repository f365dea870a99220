import Foundation
import PostgresNIO
import PushCore
import StoreContract

/// `user_push_preferences` and `channel_push_preferences` rows. User preferences are read and
/// written by column name through `UserPreferenceColumns`; the schedules and bot ids are JSON text
/// in the store's own keys, exactly as SQLite keeps them.
enum PreferenceColumns {
    static let userTable = UserPreferenceColumns.table
    static let channelTable = "channel_push_preferences"

    /// The columns `userPreferences(_:)` reads.
    static let user = UserPreferenceColumns.names()

    /// The columns `channelPreference(_:)` reads, in order (2).
    static let channel = "push_trigger_option, push_sound"

    /// A row holding the `user` columns, by name.
    static func userPreferences(_ row: PostgresRow) throws -> UserPushPreferences {
        try userPreferences(row.makeRandomAccess())
    }

    static func userPreferences(_ columns: PostgresRandomAccessRow) throws -> UserPushPreferences {
        try UserPreferenceColumns.preferences { column in
            guard columns.contains(column.name) else { return nil }
            let cell = columns[column.name]
            switch column.kind {
            case .integer: return try cell.decode(Int64?.self).map(StoredColumnValue.integer)
            case .boolean: return try cell.decode(Bool?.self).map(StoredColumnValue.boolean)
            case .text, .blob: return try cell.decode(String?.self).map(StoredColumnValue.text)
            }
        }
    }

    /// Stores `p` as the user's row, replacing any.
    static func upsertUser(app: String, user: String, _ p: UserPushPreferences) throws -> PostgresQuery {
        var binds = PostgresBindings(capacity: UserPreferenceColumns.all.count + 2)
        binds.append(app)
        binds.append(user)
        for value in try UserPreferenceColumns.values(of: p) {
            switch value {
            case .integer(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .boolean(let flag): binds.append(flag)
            }
        }
        return PostgresQuery(unsafeSQL: upsertUserSQL, binds: binds)
    }

    private static let upsertUserSQL: String = {
        let names = UserPreferenceColumns.all.map(\.name)
        return """
            INSERT INTO user_push_preferences (app_id, user_id, \(names.joined(separator: ", ")))
            VALUES (\((1...names.count + 2).map { "$\($0)" }.joined(separator: ", ")))
            ON CONFLICT (app_id, user_id) DO UPDATE SET \(names.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", "))
            """
    }()

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

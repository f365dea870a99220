import PushCore

/// A stored column's value as both stores bind and read it (PostgreSQL's booleans are SQLite's
/// 0 and 1).
public enum StoredColumnValue: Sendable, Hashable {
    case integer(Int64)
    case text(String)
    case boolean(Bool)
}

/// One column of `user_push_preferences`: its name, its kind and how it maps to
/// `UserPushPreferences`. Stores read and write every column by name through this list, so a new
/// preference is one entry here plus one migration per store.
public struct UserPreferenceColumn: Sendable {
    public let name: String
    public let kind: ColumnKind
    private let get: @Sendable (UserPushPreferences) throws -> StoredColumnValue
    private let set: @Sendable (inout UserPushPreferences, StoredColumnValue) throws(PreferenceColumnError) -> Void

    public func value(of preferences: UserPushPreferences) throws -> StoredColumnValue { try get(preferences) }

    /// Sets the column's value; throws when the value is not of the column's kind or not valid.
    public func apply(_ value: StoredColumnValue, to preferences: inout UserPushPreferences) throws(PreferenceColumnError) {
        try set(&preferences, value)
    }
}

/// A stored value a column cannot hold; the store reports it as `PushStoreError.corruptValue`.
public struct PreferenceColumnError: Error, Sendable {
    public let column: String
    public let value: String
}

extension UserPreferenceColumn {
    static func text(_ name: String, _ path: WritableKeyPath<UserPushPreferences, String> & Sendable) -> Self {
        Self(name: name, kind: .text, get: { .text($0[keyPath: path]) }) { p, value throws(PreferenceColumnError) in
            guard case .text(let text) = value else { throw PreferenceColumnError(column: name, value: "\(value)") }
            p[keyPath: path] = text
        }
    }

    static func boolean(_ name: String, _ path: WritableKeyPath<UserPushPreferences, Bool> & Sendable) -> Self {
        Self(name: name, kind: .boolean, get: { .boolean($0[keyPath: path]) }) { p, value throws(PreferenceColumnError) in
            switch value {
            case .boolean(let flag): p[keyPath: path] = flag
            case .integer(let number) where number == 0 || number == 1: p[keyPath: path] = number == 1
            default: throw PreferenceColumnError(column: name, value: "\(value)")
            }
        }
    }

    static func integer(_ name: String, _ path: WritableKeyPath<UserPushPreferences, Int64> & Sendable) -> Self {
        Self(name: name, kind: .integer, get: { .integer($0[keyPath: path]) }) { p, value throws(PreferenceColumnError) in
            guard case .integer(let number) = value else { throw PreferenceColumnError(column: name, value: "\(value)") }
            p[keyPath: path] = number
        }
    }

    static func integer(_ name: String, _ path: WritableKeyPath<UserPushPreferences, Int> & Sendable) -> Self {
        Self(name: name, kind: .integer, get: { .integer(Int64($0[keyPath: path])) }) { p, value throws(PreferenceColumnError) in
            guard case .integer(let number) = value, let small = Int(exactly: number) else {
                throw PreferenceColumnError(column: name, value: "\(value)")
            }
            p[keyPath: path] = small
        }
    }

    /// A `String`-backed enumeration, stored as its raw value.
    static func raw<Value: RawRepresentable<String> & Sendable>(
        _ name: String, _ path: WritableKeyPath<UserPushPreferences, Value> & Sendable
    )
        -> Self
    {
        Self(name: name, kind: .text, get: { .text($0[keyPath: path].rawValue) }) { p, value throws(PreferenceColumnError) in
            guard case .text(let text) = value, let parsed = Value(rawValue: text) else {
                throw PreferenceColumnError(column: name, value: "\(value)")
            }
            p[keyPath: path] = parsed
        }
    }

    /// JSON text in the store's own keys (`Stored` is the stored shape), so renaming a PushCore
    /// property never breaks stored data.
    static func json<Stored: Codable & Sendable>(
        _ name: String, _ type: Stored.Type, get: @escaping @Sendable (UserPushPreferences) -> Stored,
        set: @escaping @Sendable (inout UserPushPreferences, Stored) throws -> Void
    ) -> Self {
        Self(name: name, kind: .text, get: { .text(try StoredJSON.encode(get($0))) }) { p, value throws(PreferenceColumnError) in
            let corrupt = PreferenceColumnError(column: name, value: "\(value)")
            guard case .text(let text) = value else { throw corrupt }
            do {
                try set(&p, try StoredJSON.decode(Stored.self, from: text, table: UserPreferenceColumns.table, column: name))
            } catch {
                throw corrupt
            }
        }
    }
}

/// `user_push_preferences` after its key (`app_id`, `user_id`), in table order.
public enum UserPreferenceColumns {
    public static let table = "user_push_preferences"

    public static let all: [UserPreferenceColumn] = [
        .raw("push_trigger_option", \.pushTriggerOption),
        .boolean("do_not_disturb", \.doNotDisturb),
        .integer("start_hour", \.dndWindow.startHour),
        .integer("start_min", \.dndWindow.startMin),
        .integer("end_hour", \.dndWindow.endHour),
        .integer("end_min", \.dndWindow.endMin),
        .text("timezone", \.timezone),
        .boolean("snooze_enabled", \.snoozeEnabled),
        .integer("snooze_start_ts", \.snoozeStartMs),
        .integer("snooze_end_ts", \.snoozeEndMs),
        .json(
            "dnd_schedules", [StoredDNDSchedule].self, get: { $0.dndSchedules.map(StoredDNDSchedule.init) },
            set: { p, stored in p.dndSchedules = try stored.map { try $0.schedule() } }),
        .text("push_sound", \.pushSound),
        .boolean("block_push_from_bots", \.blockPushFromBots),
        .json("push_blocked_bot_ids", [String].self, get: \.pushBlockedBotIDs, set: { p, ids in p.pushBlockedBotIDs = ids }),
        .boolean("enable_push_for_replies", \.enablePushForReplies),
    ]

    /// The column names, comma-separated, optionally each prefixed by a table alias.
    public static func names(alias: String? = nil) -> String {
        all.map { column in alias.map { "\($0).\(column.name)" } ?? column.name }.joined(separator: ", ")
    }

    /// Every column's value for `preferences`, in table order.
    public static func values(of preferences: UserPushPreferences) throws -> [StoredColumnValue] {
        try all.map { try $0.value(of: preferences) }
    }

    /// Preferences read column by column by name; a column `value` has no value for (NULL or
    /// absent) keeps its default.
    public static func preferences(value: (UserPreferenceColumn) throws -> StoredColumnValue?) throws -> UserPushPreferences {
        var preferences = UserPushPreferences.defaults
        for column in all {
            guard let stored = try value(column) else { continue }
            do {
                try column.apply(stored, to: &preferences)
            } catch {
                throw PushStoreError.corruptValue(table: table, column: error.column, value: error.value)
            }
        }
        return preferences
    }
}

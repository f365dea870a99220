import Foundation
import GRDB
import PushCore
import StoreContract

/// `user_push_preferences`, written and read by column name through `UserPreferenceColumns`.
enum UserPreferencesRow {
    static func fetch(_ db: Database, app: String, user: String) throws -> UserPushPreferences? {
        let statement = try db.cachedStatement(sql: "SELECT * FROM user_push_preferences WHERE app_id = ? AND user_id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [app, user]) else { return nil }
        return try UserPreferenceColumns.preferences { column in
            guard row.hasColumn(column.name) else { return nil }
            return try stored(row[column.name] as DatabaseValue, column: column.name)
        }
    }

    /// Inserts or updates the user's row (an upsert, so the read model's triggers fire).
    static func save(_ db: Database, app: String, user: String, _ preferences: UserPushPreferences) throws {
        let values = try UserPreferenceColumns.values(of: preferences).map(\.databaseValue)
        try db.cachedStatement(sql: upsert).execute(arguments: StatementArguments([app, user] + values))
    }

    private static let upsert: String = {
        let names = UserPreferenceColumns.all.map(\.name)
        return """
            INSERT INTO user_push_preferences (app_id, user_id, \(names.joined(separator: ", ")))
            VALUES (?, ?, \(names.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT (app_id, user_id) DO UPDATE SET \(names.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            """
    }()

    static func delete(_ db: Database, app: String, user: String) throws {
        try db.execute(sql: "DELETE FROM user_push_preferences WHERE app_id = ? AND user_id = ?", arguments: [app, user])
    }

    /// The row as `users.push_preferences` holds it: a JSON object keyed by column name
    /// (`PreferencesByNameSchema`); booleans are SQLite's 0 and 1.
    static func readModel(_ text: String) throws -> UserPushPreferences {
        guard case .object(let fields)? = try? JSONValue.parse(Data(text.utf8)) else {
            throw PushStoreError.corruptValue(table: "users", column: "push_preferences", value: text)
        }
        return try UserPreferenceColumns.preferences { column in
            switch fields[column.name] {
            case nil, .null?: return nil
            case .int(let number)?: return .integer(number)
            case .string(let text)?: return .text(text)
            case .bool(let flag)?: return .boolean(flag)
            case let other?: throw PushStoreError.corruptValue(table: "users", column: "push_preferences.\(column.name)", value: "\(other)")
            }
        }
    }

    private static func stored(_ value: DatabaseValue, column: String) throws -> StoredColumnValue? {
        switch value.storage {
        case .null: nil
        case .int64(let number): .integer(number)
        case .string(let text): .text(text)
        case .double, .blob:
            throw PushStoreError.corruptValue(table: UserPreferenceColumns.table, column: column, value: value.description)
        }
    }
}

extension StoredColumnValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .integer(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .boolean(let flag): flag.databaseValue
        }
    }
}

import Foundation
import PushCore

/// The stored JSON form of one weekly do-not-disturb day. Its keys are the store's, fixed here.
package struct StoredDNDSchedule: Codable {
    struct Window: Codable {
        var startHour: Int
        var startMin: Int
        var endHour: Int
        var endMin: Int

        enum CodingKeys: String, CodingKey {
            case startHour = "start_hour", startMin = "start_min", endHour = "end_hour", endMin = "end_min"
        }
    }

    var dayOfWeek: String
    var timeWindows: [Window]

    enum CodingKeys: String, CodingKey {
        case dayOfWeek = "day_of_week", timeWindows = "time_windows"
    }

    package init(_ schedule: DNDSchedule) {
        dayOfWeek = schedule.dayOfWeek.rawValue
        timeWindows = schedule.timeWindows.map {
            Window(startHour: $0.startHour, startMin: $0.startMin, endHour: $0.endHour, endMin: $0.endMin)
        }
    }

    package func schedule() throws -> DNDSchedule {
        guard let day = Weekday(rawValue: dayOfWeek) else {
            throw PushStoreError.corruptValue(table: "user_push_preferences", column: "dnd_schedules", value: dayOfWeek)
        }
        return DNDSchedule(
            dayOfWeek: day,
            timeWindows: timeWindows.map {
                TimeWindow(startHour: $0.startHour, startMin: $0.startMin, endHour: $0.endHour, endMin: $0.endMin)
            }
        )
    }
}

/// JSON text columns.
package enum StoredJSON {
    package static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from text: String, table: String, column: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw PushStoreError.corruptValue(table: table, column: column, value: text)
        }
    }
}

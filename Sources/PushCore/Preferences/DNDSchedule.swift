/// One day of a weekly do-not-disturb schedule (Sendbird `dnd_schedules[]`).
public struct DNDSchedule: Sendable, Hashable, Codable {
    public var dayOfWeek: Weekday
    public var timeWindows: [TimeWindow]

    public init(dayOfWeek: Weekday, timeWindows: [TimeWindow]) {
        self.dayOfWeek = dayOfWeek
        self.timeWindows = timeWindows
    }
}

/// A day of the week as Sendbird's weekly do-not-disturb schedule names it (lowercase English).
public enum Weekday: String, Sendable, Hashable, CaseIterable, Codable {
    case sunday, monday, tuesday, wednesday, thursday, friday, saturday

    /// Gregorian weekday number as `Calendar` reports it: 1 = Sunday … 7 = Saturday.
    public init?(calendarWeekday: Int) {
        guard (1...7).contains(calendarWeekday) else { return nil }
        self = Weekday.allCases[calendarWeekday - 1]
    }

    public var calendarWeekday: Int { Weekday.allCases.firstIndex(of: self)! + 1 }
}

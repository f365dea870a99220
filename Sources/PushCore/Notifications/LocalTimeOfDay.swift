import Foundation

/// A time of day on each user's own clock ("09:00 wherever they are"): when it next comes for a
/// user, in their time zone (`UserPushPreferences.timezone`; UTC for an unknown name).
public struct LocalTimeOfDay: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after local midnight, 0..<1440.
    public let minuteOfDay: Int

    public init?(minuteOfDay: Int) {
        guard (0..<1440).contains(minuteOfDay) else { return nil }
        self.minuteOfDay = minuteOfDay
    }

    /// From `HH:MM` (24-hour clock).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        self.init(minuteOfDay: hour * 60 + minute)
    }

    public var description: String {
        let (hour, minute) = minuteOfDay.quotientAndRemainder(dividingBy: 60)
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The first instant at or after `start` when the clock in `timezone` shows this time. On a
    /// day that skips it (a daylight-saving gap), the first instant after the gap.
    public func next(onOrAfter start: Date, timezone: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DoNotDisturb.timeZone(named: timezone)
        let (hour, minute) = minuteOfDay.quotientAndRemainder(dividingBy: 60)
        let wanted = DateComponents(hour: hour, minute: minute, second: 0)
        return calendar.nextDate(after: start.addingTimeInterval(-0.001), matching: wanted, matchingPolicy: .nextTime)
            ?? start
    }
}

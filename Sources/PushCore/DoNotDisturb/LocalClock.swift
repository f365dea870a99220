import Foundation

/// The local weekday and minute of day of an instant in a time zone.
struct LocalClock {
    let weekday: Weekday
    let minuteOfDay: Int

    init(_ now: Date, timezone: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DoNotDisturb.timeZone(named: timezone)
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: now)
        weekday = Weekday(calendarWeekday: parts.weekday ?? 1) ?? .sunday
        minuteOfDay = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }
}

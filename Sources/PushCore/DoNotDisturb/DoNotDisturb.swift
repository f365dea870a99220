import Foundation

/// Do-not-disturb windows: the weekly `dnd_schedules` when non-empty, else the legacy daily
/// window when `do_not_disturb` is on. (Snooze is separate: see `Snooze`.)
///
/// Semantics, decided here because Sendbird does not spell them out:
/// - **Minute granularity, inclusive end minute.** A window 22:00–23:59 covers 22:00:00 up to
///   but excluding 24:00:00, i.e. `start ≤ t < end + 1 min`. Sendbird's own defaults
///   (0:00–23:59 = all day) and its split of cross-midnight windows into …–23:59 plus 00:00–…
///   only make sense that way. A window with `start == end` covers that one minute.
/// - **Crossing midnight.** `end < start` (22:00–06:00) covers the tail of the start day and
///   the head of the next day. In a weekly schedule the head belongs to the start day's entry:
///   Monday 22:00–06:00 is active on Tuesday 03:00 even if Tuesday has no entry, and Saturday's
///   window wraps into Sunday.
/// - **Wall clock.** `now` is converted to the user's local date and time in their IANA zone,
///   and windows are compared with that clock. On a DST change day a window simply follows the
///   local clock: on a spring-forward day a window inside the skipped hour never matches, and on
///   a fall-back day the repeated hour matches twice.
/// - **Unknown time zone** falls back to UTC rather than disabling do-not-disturb: the REST layer
///   rejects unknown names (`validate(timezone:)`), so this only covers stored legacy values, and
///   quiet at a shifted time is closer to the user's wish than no quiet at all.
public enum DoNotDisturb {
    /// Whether the user's do-not-disturb setting holds pushes back at `now`.
    public static func isActive(_ preferences: UserPushPreferences, at now: Date) -> Bool {
        // Nothing configured (most users): no time-zone conversion, which is the costly part.
        guard !preferences.dndSchedules.isEmpty || preferences.doNotDisturb else { return false }
        let clock = LocalClock(now, timezone: preferences.timezone)
        if !preferences.dndSchedules.isEmpty {
            return isActive(schedules: preferences.dndSchedules, at: clock)
        }
        return covers(preferences.dndWindow, minute: clock.minuteOfDay, sameDay: true)
            || covers(preferences.dndWindow, minute: clock.minuteOfDay, sameDay: false)
    }

    /// The zone a user's windows are read in: their IANA zone, or UTC if the name is unknown.
    public static func timeZone(named name: String) -> TimeZone {
        TimeZone(identifier: name) ?? TimeZone(identifier: "UTC")!
    }

    static func isActive(schedules: [DNDSchedule], at clock: LocalClock) -> Bool {
        let today = clock.weekday
        let yesterday = Weekday(calendarWeekday: (today.calendarWeekday + 5) % 7 + 1)!
        for schedule in schedules {
            if schedule.dayOfWeek == today,
                schedule.timeWindows.contains(where: { covers($0, minute: clock.minuteOfDay, sameDay: true) })
            {
                return true
            }
            if schedule.dayOfWeek == yesterday,
                schedule.timeWindows.contains(where: { covers($0, minute: clock.minuteOfDay, sameDay: false) })
            {
                return true
            }
        }
        return false
    }

    /// Whether `window` covers `minute` of the day it starts on (`sameDay`), or of the day after
    /// (only windows crossing midnight reach into it).
    static func covers(_ window: TimeWindow, minute: Int, sameDay: Bool) -> Bool {
        let start = window.startHour * 60 + window.startMin
        let end = window.endHour * 60 + window.endMin
        if end >= start {
            return sameDay && start <= minute && minute <= end
        }
        return sameDay ? minute >= start : minute <= end
    }

    // MARK: validation (used by the REST layer before storing)

    /// Hours 0…23 and minutes 0…59. `field` prefixes the names in the error (e.g. a schedule path).
    public static func validate(_ window: TimeWindow, field prefix: String = "") throws(DNDValidationError) {
        let name = { (key: String) in prefix.isEmpty ? key : "\(prefix).\(key)" }
        for (key, value, range) in [
            ("start_hour", window.startHour, 0...23), ("start_min", window.startMin, 0...59),
            ("end_hour", window.endHour, 0...23), ("end_min", window.endMin, 0...59),
        ] where !range.contains(value) {
            throw .outOfRange(field: name(key), value: value, allowed: range)
        }
    }

    /// A time zone name Foundation knows (`Asia/Seoul`, `UTC`, …).
    public static func validate(timezone: String) throws(DNDValidationError) {
        guard TimeZone(identifier: timezone) != nil else { throw .unknownTimezone(timezone) }
    }

    /// A whole preference set before it is stored: the time zone, the legacy window and every
    /// weekly window.
    public static func validate(_ preferences: UserPushPreferences) throws(DNDValidationError) {
        try validate(timezone: preferences.timezone)
        try validate(preferences.dndWindow)
        try validate(preferences.dndSchedules)
    }

    /// Every window of every day; field names follow the wire format
    /// (`dnd_schedules[0].time_windows[1].end_min`).
    public static func validate(_ schedules: [DNDSchedule]) throws(DNDValidationError) {
        for (dayIndex, schedule) in schedules.enumerated() {
            for (windowIndex, window) in schedule.timeWindows.enumerated() {
                try validate(window, field: "dnd_schedules[\(dayIndex)].time_windows[\(windowIndex)]")
            }
        }
    }
}

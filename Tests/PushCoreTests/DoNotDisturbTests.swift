import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct DoNotDisturbTests {
    func daily(_ sh: Int, _ sm: Int, _ eh: Int, _ em: Int, zone: String) -> UserPushPreferences {
        UserPushPreferences(
            doNotDisturb: true, dndWindow: TimeWindow(startHour: sh, startMin: sm, endHour: eh, endMin: em),
            timezone: zone)
    }

    func weekly(_ schedules: [DNDSchedule], zone: String = "UTC") -> UserPushPreferences {
        UserPushPreferences(timezone: zone, dndSchedules: schedules)
    }

    func active(_ preferences: UserPushPreferences, _ iso: String) -> Bool {
        DoNotDisturb.isActive(preferences, at: instant(iso))
    }

    // MARK: legacy daily window

    @Test func offUnlessEnabled() {
        var preferences = daily(0, 0, 23, 59, zone: "UTC")
        #expect(active(preferences, "2026-01-05T12:00:00Z"))
        preferences.doNotDisturb = false
        #expect(!active(preferences, "2026-01-05T12:00:00Z"))
    }

    @Test func crossMidnightWindowInSeoul() {
        let night = daily(22, 0, 6, 0, zone: "Asia/Seoul")  // UTC+9
        #expect(!active(night, "2026-01-05T12:59:00Z"))  // 21:59
        #expect(active(night, "2026-01-05T13:00:00Z"))  // 22:00
        #expect(active(night, "2026-01-05T14:59:59Z"))  // 23:59:59
        #expect(active(night, "2026-01-05T15:00:00Z"))  // 00:00 next day
        #expect(active(night, "2026-01-05T21:00:59Z"))  // 06:00:59, the end minute is included
        #expect(!active(night, "2026-01-05T21:01:00Z"))  // 06:01
        #expect(!active(night, "2026-01-05T03:00:00Z"))  // 12:00
    }

    @Test func sameWindowIsReadInEachUsersZone() {
        let instantUTC = "2026-01-15T22:30:00Z"
        #expect(active(daily(22, 0, 23, 0, zone: "UTC"), instantUTC))
        #expect(!active(daily(22, 0, 23, 0, zone: "Asia/Seoul"), instantUTC))  // 07:30
        #expect(active(daily(7, 0, 8, 0, zone: "Asia/Seoul"), instantUTC))
        #expect(active(daily(17, 0, 17, 45, zone: "America/New_York"), instantUTC))  // 17:30 EST
    }

    @Test func endEqualToStartIsOneMinute() {
        let minute = daily(9, 15, 9, 15, zone: "UTC")
        #expect(!active(minute, "2026-01-05T09:14:59Z"))
        #expect(active(minute, "2026-01-05T09:15:00Z"))
        #expect(active(minute, "2026-01-05T09:15:59Z"))
        #expect(!active(minute, "2026-01-05T09:16:00Z"))
    }

    @Test func unknownTimezoneFallsBackToUTC() {
        let window = daily(10, 0, 11, 0, zone: "Mars/Olympus_Mons")
        #expect(active(window, "2026-01-05T10:30:00Z"))
        #expect(!active(window, "2026-01-05T11:30:00Z"))
        #expect(DoNotDisturb.timeZone(named: "Mars/Olympus_Mons").secondsFromGMT(for: instant("2026-07-01T00:00:00Z")) == 0)
    }

    // MARK: daylight saving time

    @Test func newYorkSpringForward() {
        // 2026-03-08 02:00 EST jumps to 03:00 EDT.
        let early = daily(1, 0, 3, 30, zone: "America/New_York")
        #expect(active(early, "2026-03-08T06:59:00Z"))  // 01:59 EST
        #expect(active(early, "2026-03-08T07:00:00Z"))  // 03:00 EDT
        #expect(active(early, "2026-03-08T07:30:00Z"))  // 03:30 EDT
        #expect(!active(early, "2026-03-08T07:31:00Z"))  // 03:31 EDT

        // A window inside the skipped hour never matches that day, but does the next.
        let skipped = daily(2, 0, 2, 30, zone: "America/New_York")
        #expect(!active(skipped, "2026-03-08T06:59:00Z"))
        #expect(!active(skipped, "2026-03-08T07:00:00Z"))
        #expect(active(skipped, "2026-03-09T06:15:00Z"))  // 02:15 EDT
    }

    @Test func windowsFollowTheWallClockAcrossTheChange() {
        let morning = daily(8, 0, 9, 0, zone: "America/New_York")
        #expect(active(morning, "2026-03-07T13:30:00Z"))  // 08:30 EST
        #expect(active(morning, "2026-03-09T12:30:00Z"))  // 08:30 EDT
        #expect(!active(morning, "2026-03-09T13:30:00Z"))  // 09:30 EDT (would be 08:30 at a fixed offset)
    }

    @Test func newYorkFallBackRepeatsTheHour() {
        // 2026-11-01 02:00 EDT falls back to 01:00 EST: 01:30 happens twice.
        let repeated = daily(1, 0, 1, 59, zone: "America/New_York")
        #expect(active(repeated, "2026-11-01T05:30:00Z"))  // 01:30 EDT
        #expect(active(repeated, "2026-11-01T06:30:00Z"))  // 01:30 EST
        #expect(!active(repeated, "2026-11-01T07:00:00Z"))  // 02:00 EST
    }

    @Test func londonSummerAndWinter() {
        let lateEvening = daily(23, 0, 7, 0, zone: "Europe/London")
        #expect(active(lateEvening, "2026-06-15T22:30:00Z"))  // 23:30 BST
        #expect(!active(lateEvening, "2026-01-15T22:30:00Z"))  // 22:30 GMT
        #expect(active(lateEvening, "2026-03-29T01:00:00Z"))  // 02:00 BST, right after the change
    }

    @Test func lordHoweHalfHourShift() {
        // Australia/Lord_Howe is UTC+10:30, and UTC+11 in summer: DST moves the clock 30 minutes.
        let evening = daily(22, 0, 23, 0, zone: "Australia/Lord_Howe")
        #expect(active(evening, "2026-01-15T11:15:00Z"))  // 22:15 (+11)
        #expect(!active(evening, "2026-07-15T11:15:00Z"))  // 21:45 (+10:30)
        #expect(active(evening, "2026-07-15T11:45:00Z"))  // 22:15 (+10:30)

        // 2026-10-04 02:00 jumps to 02:30.
        let nearChange = daily(1, 30, 2, 10, zone: "Australia/Lord_Howe")
        #expect(active(nearChange, "2026-10-03T15:29:00Z"))  // 01:59
        #expect(!active(nearChange, "2026-10-03T15:30:00Z"))  // 02:30
        // 2026-04-05 02:00 falls back to 01:30: 01:30-01:59 happens twice.
        let repeated = daily(1, 30, 1, 59, zone: "Australia/Lord_Howe")
        #expect(active(repeated, "2026-04-04T14:30:00Z"))  // 01:30 (+11)
        #expect(active(repeated, "2026-04-04T15:00:00Z"))  // 01:30 (+10:30)
        #expect(!active(repeated, "2026-04-04T15:30:00Z"))  // 02:00
    }

    // MARK: weekly schedules

    @Test func weeklyWindowsApplyOnTheirDayOnly() {
        let mondayMorning = weekly([
            DNDSchedule(
                dayOfWeek: .monday,
                timeWindows: [
                    TimeWindow(startHour: 9, startMin: 0, endHour: 10, endMin: 0),
                    TimeWindow(startHour: 14, startMin: 0, endHour: 15, endMin: 0),
                ])
        ])
        #expect(active(mondayMorning, "2026-01-05T09:30:00Z"))  // Monday
        #expect(active(mondayMorning, "2026-01-05T14:30:00Z"))  // Monday, second window
        #expect(!active(mondayMorning, "2026-01-05T12:00:00Z"))  // Monday, between windows
        #expect(!active(mondayMorning, "2026-01-06T09:30:00Z"))  // Tuesday
    }

    @Test func weeklyCrossMidnightReachesIntoTheNextDay() {
        let mondayNight = weekly([
            DNDSchedule(
                dayOfWeek: .monday,
                timeWindows: [
                    TimeWindow(startHour: 22, startMin: 0, endHour: 6, endMin: 0)
                ])
        ])
        #expect(active(mondayNight, "2026-01-05T23:00:00Z"))  // Monday 23:00
        #expect(active(mondayNight, "2026-01-06T03:00:00Z"))  // Tuesday 03:00, no Tuesday entry needed
        #expect(active(mondayNight, "2026-01-06T06:00:30Z"))  // Tuesday 06:00
        #expect(!active(mondayNight, "2026-01-06T06:01:00Z"))  // Tuesday 06:01
        #expect(!active(mondayNight, "2026-01-05T03:00:00Z"))  // Monday 03:00: Sunday has no window
        #expect(!active(mondayNight, "2026-01-06T23:00:00Z"))  // Tuesday 23:00
    }

    @Test func saturdayWrapsIntoSunday() {
        let saturdayNight = weekly([
            DNDSchedule(
                dayOfWeek: .saturday,
                timeWindows: [
                    TimeWindow(startHour: 23, startMin: 0, endHour: 1, endMin: 0)
                ])
        ])
        #expect(active(saturdayNight, "2026-01-10T23:30:00Z"))  // Saturday
        #expect(active(saturdayNight, "2026-01-11T00:30:00Z"))  // Sunday
        #expect(!active(saturdayNight, "2026-01-11T01:01:00Z"))  // Sunday 01:01
        #expect(!active(saturdayNight, "2026-01-12T00:30:00Z"))  // Monday 00:30
    }

    @Test func weekdayIsTakenInTheUsersZone() {
        let mondayMorning = [
            DNDSchedule(
                dayOfWeek: .monday,
                timeWindows: [
                    TimeWindow(startHour: 7, startMin: 0, endHour: 9, endMin: 0)
                ])
        ]
        // Sunday 23:00 UTC is Monday 08:00 in Seoul.
        #expect(active(weekly(mondayMorning, zone: "Asia/Seoul"), "2026-01-04T23:00:00Z"))
        #expect(!active(weekly(mondayMorning, zone: "UTC"), "2026-01-04T23:00:00Z"))
    }

    @Test func schedulesReplaceTheLegacyWindow() {
        var preferences = daily(0, 0, 23, 59, zone: "UTC")
        preferences.dndSchedules = [
            DNDSchedule(
                dayOfWeek: .friday,
                timeWindows: [
                    TimeWindow(startHour: 20, startMin: 0, endHour: 21, endMin: 0)
                ])
        ]
        #expect(!active(preferences, "2026-01-05T12:00:00Z"), "Monday noon: only the Friday schedule counts")
        #expect(active(preferences, "2026-01-09T20:30:00Z"))
    }

    // MARK: validation

    @Test func validatesWindowsAndZones() throws {
        try DoNotDisturb.validate(TimeWindow(startHour: 0, startMin: 0, endHour: 23, endMin: 59))
        #expect(throws: DNDValidationError.outOfRange(field: "start_hour", value: 24, allowed: 0...23)) {
            try DoNotDisturb.validate(TimeWindow(startHour: 24, startMin: 0, endHour: 1, endMin: 0))
        }
        #expect(throws: DNDValidationError.outOfRange(field: "end_min", value: 60, allowed: 0...59)) {
            try DoNotDisturb.validate(TimeWindow(startHour: 1, startMin: 0, endHour: 1, endMin: 60))
        }
        #expect(throws: DNDValidationError.outOfRange(field: "start_min", value: -1, allowed: 0...59)) {
            try DoNotDisturb.validate(TimeWindow(startHour: 1, startMin: -1, endHour: 1, endMin: 0))
        }
        let schedules = [
            DNDSchedule(dayOfWeek: .monday, timeWindows: [.zero]),
            DNDSchedule(dayOfWeek: .tuesday, timeWindows: [.zero, TimeWindow(startHour: 1, startMin: 0, endHour: 25, endMin: 0)]),
        ]
        #expect(
            throws: DNDValidationError.outOfRange(
                field: "dnd_schedules[1].time_windows[1].end_hour", value: 25,
                allowed: 0...23)
        ) {
            try DoNotDisturb.validate(schedules)
        }
        for zone in ["UTC", "Asia/Seoul", "America/New_York", "Europe/London", "Australia/Lord_Howe"] {
            try DoNotDisturb.validate(timezone: zone)
        }
        #expect(throws: DNDValidationError.unknownTimezone("Mars/Olympus_Mons")) {
            try DoNotDisturb.validate(timezone: "Mars/Olympus_Mons")
        }
        try DoNotDisturb.validate(UserPushPreferences.defaults)
        #expect(throws: DNDValidationError.unknownTimezone("Asia/Atlantis")) {
            try DoNotDisturb.validate(UserPushPreferences(timezone: "Asia/Atlantis"))
        }
        #expect(throws: DNDValidationError.outOfRange(field: "end_hour", value: 30, allowed: 0...23)) {
            try DoNotDisturb.validate(UserPushPreferences(dndWindow: TimeWindow(startHour: 0, startMin: 0, endHour: 30, endMin: 0)))
        }
        #expect(DNDValidationError.unknownTimezone("X").description.contains("\"X\""))
        #expect(
            DNDValidationError.outOfRange(field: "end_min", value: 60, allowed: 0...59).description
                == "\"end_min\" is 60; it must be between 0 and 59")
    }
}

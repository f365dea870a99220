import PushCore

/// A parsed `PUT /v3/users/{user_id}/push_preference` body: only the fields the client sent.
/// Parsing checks each field's type and range; `apply(to:)` checks the rules that involve the
/// stored state as well (snooze order, daily window versus weekly schedules).
struct PushPreferencesUpdate: Sendable {
    var pushTriggerOption: PushTriggerOption?
    var doNotDisturb: Bool?
    var startHour: Int?
    var startMin: Int?
    var endHour: Int?
    var endMin: Int?
    var timezone: String?
    var snoozeEnabled: Bool?
    var snoozeStartMs: Int64?
    var snoozeEndMs: Int64?
    var dndSchedules: [DNDSchedule]?
    var pushSound: String?
    var blockPushFromBots: Bool?
    var pushBlockedBotIDs: [String]?
    var enablePushForReplies: Bool?

    static let maximumSoundBytes = 255
    static let maximumWindowsPerDay = 24
    static let maximumBlockedBots = 1000

    init(_ body: JSONObject) throws(APIError) {
        pushTriggerOption = try body.choice(
            "push_trigger_option", { PushTriggerOption(rawValue: $0) }, allowed: PushTriggerOption.allCases.map(\.rawValue))
        doNotDisturb = try body.bool("do_not_disturb")
        startHour = try body.integer("start_hour", in: 0...23)
        startMin = try body.integer("start_min", in: 0...59)
        endHour = try body.integer("end_hour", in: 0...23)
        endMin = try body.integer("end_min", in: 0...59)
        if let zone = try body.string("timezone") {
            guard TimeZoneNames.isValid(zone) else {
                throw .invalidValue("timezone", "must be an IANA time zone name such as \"Asia/Seoul\" (got \"\(zone)\")")
            }
            timezone = zone
        }
        snoozeEnabled = try body.bool("snooze_enabled")
        snoozeStartMs = try Self.timestamp(body, "snooze_start_ts")
        snoozeEndMs = try Self.timestamp(body, "snooze_end_ts")
        dndSchedules = try Self.schedules(body)
        if let sound = try body.string("push_sound") {
            guard sound.utf8.count <= Self.maximumSoundBytes else { throw .tooLong("push_sound", maximumBytes: Self.maximumSoundBytes) }
            pushSound = sound
        }
        blockPushFromBots = try body.bool("block_push_from_bots")
        pushBlockedBotIDs = try Self.botIDs(body)
        enablePushForReplies = try body.bool("enable_push_for_replies")

        if let schedules = dndSchedules, !schedules.isEmpty, doNotDisturb == true {
            throw .invalidValue(
                "do_not_disturb", "cannot be true together with non-empty \"dnd_schedules\": weekly schedules replace the daily window")
        }
    }

    /// Applies the given fields. Setting non-empty `dnd_schedules` turns the daily window off
    /// (Sendbird: "setting dnd_schedules automatically disables legacy DND"); turning the daily
    /// window on clears the weekly schedules, so the two never silently disagree.
    func apply(to preferences: inout UserPushPreferences) throws(APIError) {
        if let pushTriggerOption { preferences.pushTriggerOption = pushTriggerOption }
        if let startHour { preferences.dndWindow.startHour = startHour }
        if let startMin { preferences.dndWindow.startMin = startMin }
        if let endHour { preferences.dndWindow.endHour = endHour }
        if let endMin { preferences.dndWindow.endMin = endMin }
        if let timezone { preferences.timezone = timezone }
        if let doNotDisturb {
            preferences.doNotDisturb = doNotDisturb
            if doNotDisturb, dndSchedules == nil { preferences.dndSchedules = [] }
        }
        if let dndSchedules {
            preferences.dndSchedules = dndSchedules
            if !dndSchedules.isEmpty { preferences.doNotDisturb = false }
        }
        if let snoozeEnabled { preferences.snoozeEnabled = snoozeEnabled }
        if let snoozeStartMs { preferences.snoozeStartMs = snoozeStartMs }
        if let snoozeEndMs { preferences.snoozeEndMs = snoozeEndMs }
        if preferences.snoozeEnabled, preferences.snoozeEndMs < preferences.snoozeStartMs {
            throw .invalidValue("snooze_end_ts", "must not be before \"snooze_start_ts\" while snooze is enabled")
        }
        if let pushSound { preferences.pushSound = pushSound }
        if let blockPushFromBots { preferences.blockPushFromBots = blockPushFromBots }
        if let pushBlockedBotIDs { preferences.pushBlockedBotIDs = pushBlockedBotIDs }
        if let enablePushForReplies { preferences.enablePushForReplies = enablePushForReplies }
    }

    /// Unix milliseconds, not negative. Some Sendbird SDK models send these as strings.
    private static func timestamp(_ body: JSONObject, _ key: String) throws(APIError) -> Int64? {
        guard let value = try body.integer(key, allowNumericString: true) else { return nil }
        guard value >= 0 else { throw .negative(key) }
        return value
    }

    /// Bot ids are strings; one older Sendbird model sends numbers, which are taken as their
    /// decimal text.
    private static func botIDs(_ body: JSONObject) throws(APIError) -> [String]? {
        guard let items = try body.array("push_blocked_bot_ids") else { return nil }
        guard items.count <= maximumBlockedBots else {
            throw APIError(
                code: .invalidLength, message: "Invalid value: \"push_blocked_bot_ids\" may list at most \(maximumBlockedBots) bots.")
        }
        var ids: [String] = []
        for (index, item) in items.enumerated() {
            switch item {
            case .string(let id) where !id.isEmpty && id.utf8.count <= RequestParameter.maximumBytes: ids.append(id)
            case .string: throw .tooLong("push_blocked_bot_ids[\(index)]", maximumBytes: RequestParameter.maximumBytes)
            default:
                guard let number = item.exactInteger else { throw .wrongType("push_blocked_bot_ids[\(index)]", expected: .string) }
                ids.append(String(number))
            }
        }
        return ids
    }

    /// Weekly windows. A window whose end is before its start crosses midnight and is stored as
    /// given (Sendbird splits it into two days in its responses; the relay keeps the client's
    /// form and the recipient policy evaluates it across midnight).
    private static func schedules(_ body: JSONObject) throws(APIError) -> [DNDSchedule]? {
        guard let days = try body.objects("dnd_schedules") else { return nil }
        var schedules: [DNDSchedule] = []
        for day in days {
            guard let name = try day.string("day_of_week") else { throw .missing(day.name("day_of_week")) }
            guard let weekday = Weekday(rawValue: name.lowercased()) else {
                throw .invalidValue(day.name("day_of_week"), "must be a lowercase English day name such as \"monday\" (got \"\(name)\")")
            }
            if schedules.contains(where: { $0.dayOfWeek == weekday }) {
                throw .invalidValue(day.name("day_of_week"), "lists \"\(weekday.rawValue)\" a second time")
            }
            guard let windowObjects = try day.objects("time_windows") else { throw .missing(day.name("time_windows")) }
            guard windowObjects.count <= maximumWindowsPerDay else {
                throw APIError(
                    code: .invalidLength,
                    message: "Invalid value: \"\(day.name("time_windows"))\" may list at most \(maximumWindowsPerDay) windows.")
            }
            var windows: [TimeWindow] = []
            for window in windowObjects {
                func required(_ key: String, _ range: ClosedRange<Int64>) throws(APIError) -> Int {
                    guard let value = try window.integer(key, in: range) else { throw .missing(window.name(key)) }
                    return value
                }
                windows.append(
                    TimeWindow(
                        startHour: try required("start_hour", 0...23), startMin: try required("start_min", 0...59),
                        endHour: try required("end_hour", 0...23), endMin: try required("end_min", 0...59)))
            }
            schedules.append(DNDSchedule(dayOfWeek: weekday, timeWindows: windows))
        }
        return schedules
    }
}

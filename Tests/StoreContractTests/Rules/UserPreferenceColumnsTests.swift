import PushCore
import StoreContract
import Testing

@Suite(.timeLimit(.minutes(1))) struct UserPreferenceColumnsTests {
    static let full = UserPushPreferences(
        pushTriggerOption: .mentionOnly, doNotDisturb: true,
        dndWindow: TimeWindow(startHour: 22, startMin: 30, endHour: 6, endMin: 15), timezone: "Asia/Seoul",
        snoozeEnabled: true, snoozeStartMs: 1_700_000_000_000, snoozeEndMs: 1_700_000_360_000,
        dndSchedules: [DNDSchedule(dayOfWeek: .monday, timeWindows: [TimeWindow(startHour: 22, startMin: 0, endHour: 6, endMin: 0)])],
        pushSound: "chime.caf", blockPushFromBots: true, pushBlockedBotIDs: ["bot-1", "bot-2"], enablePushForReplies: true)

    /// Every field survives a store's write and read by name, whatever order the store hands the
    /// columns back in.
    @Test func everyFieldRoundTripsByName() throws {
        let values = try UserPreferenceColumns.values(of: Self.full)
        let byName = Dictionary(uniqueKeysWithValues: zip(UserPreferenceColumns.all.map(\.name), values))
        #expect(byName.count == UserPreferenceColumns.all.count, "column names are unique")
        #expect(try UserPreferenceColumns.preferences { byName[$0.name] } == Self.full)
    }

    /// A column a store does not have (NULL, or a read model written before the column existed)
    /// keeps its default; SQLite's 0 and 1 read as booleans.
    @Test func aMissingColumnKeepsItsDefaultAndIntegersReadAsBooleans() throws {
        let read = try UserPreferenceColumns.preferences { column in
            column.name == "do_not_disturb" ? .integer(1) : nil
        }
        var expected = UserPushPreferences.defaults
        expected.doNotDisturb = true
        #expect(read == expected)
    }

    /// A value of the wrong kind, an unknown option or JSON that does not parse is a corrupt
    /// value naming the column.
    @Test(arguments: [
        ("push_trigger_option", StoredColumnValue.text("sometimes")), ("do_not_disturb", .integer(2)), ("start_hour", .text("9")),
        ("dnd_schedules", .text("{")), ("push_blocked_bot_ids", .integer(3)),
    ])
    func aValueTheColumnCannotHoldIsCorrupt(name: String, value: StoredColumnValue) {
        let error = #expect(throws: PushStoreError.self) {
            try UserPreferenceColumns.preferences { $0.name == name ? value : nil }
        }
        #expect(error?.description.contains(name) == true)
    }

    /// The copy to PostgreSQL carries exactly the columns both stores read.
    @Test func theStoreCopyCarriesEveryColumn() throws {
        let table = try #require(CopiedTable.all.first { $0.name == UserPreferenceColumns.table })
        #expect(table.columns.map(\.name) == ["app_id", "user_id"] + UserPreferenceColumns.all.map(\.name))
    }
}

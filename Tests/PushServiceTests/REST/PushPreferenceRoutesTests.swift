import PushCore
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct PushPreferenceRoutesTests {
    static let defaults = #"""
        {"push_trigger_option": "all", "do_not_disturb": false, "start_hour": 0, "start_min": 0, "end_hour": 0,
         "end_min": 0, "timezone": "UTC", "snooze_enabled": false, "snooze_start_ts": 0, "snooze_end_ts": 0,
         "dnd_schedules": [], "push_sound": "default", "block_push_from_bots": false, "push_blocked_bot_ids": [],
         "enable_push_for_replies": false}
        """#

    @Test func unknownUsersAreNotFoundUntilTheFirstWrite() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference").code == 400201)
            #expect(try await relay.request(.delete, "/v3/users/alice/push_preference").code == 400201)
            let put = try await relay.request(.put, "/v3/users/alice/push_preference", body: "{}")
            #expect(put.status == .ok)
            #expect(put.body == json(Self.defaults))
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference").body == json(Self.defaults))
        }
    }

    @Test func everyFieldIsSetAndReturned() async throws {
        try await LiveRelay.run { relay async throws in
            let body = #"""
                {"push_trigger_option": "mention_only", "do_not_disturb": true, "start_hour": 22, "start_min": 30,
                 "end_hour": 7, "end_min": 15, "timezone": "Asia/Seoul", "snooze_enabled": true,
                 "snooze_start_ts": 1700000000000, "snooze_end_ts": 1700003600000, "push_sound": "chime.caf",
                 "block_push_from_bots": true, "push_blocked_bot_ids": ["bot1", "bot2"], "enable_push_for_replies": true}
                """#
            let put = try await relay.request(.put, "/v3/users/alice/push_preference", body: body)
            #expect(put.status == .ok)
            var expected = json(body)
            if case .object(var fields) = expected {
                fields["dnd_schedules"] = .array([])
                expected = .object(fields)
            }
            #expect(put.body == expected)
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference").body == expected)
            let stored = try await relay.store.preferences(app: TestApps.a.appID, user: "alice")
            #expect(stored?.dndWindow == TimeWindow(startHour: 22, startMin: 30, endHour: 7, endMin: 15))
            #expect(stored?.pushTriggerOption == .mentionOnly)
        }
    }

    @Test func putChangesOnlyTheGivenFields() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"push_sound": "a.caf", "timezone": "Europe/London"}"#)
            let second = try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"push_trigger_option": "off"}"#)
            #expect(second.body["push_sound"] == .string("a.caf"))
            #expect(second.body["timezone"] == .string("Europe/London"))
            #expect(second.body["push_trigger_option"] == .string("off"))
        }
    }

    @Test func weeklySchedulesTurnTheDailyWindowOffAndBack() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"do_not_disturb": true, "start_hour": 23}"#)
            let schedules =
                #"[{"day_of_week": "monday", "time_windows": [{"start_hour": 22, "start_min": 0, "end_hour": 6, "end_min": 0}]}, {"day_of_week": "friday", "time_windows": []}]"#
            let weekly = try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"dnd_schedules": \#(schedules)}"#)
            #expect(weekly.body["do_not_disturb"] == .bool(false))
            // The cross-midnight window is kept as given.
            #expect(weekly.body["dnd_schedules"] == json(schedules))
            #expect(weekly.body["start_hour"] == .int(23))

            let daily = try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"do_not_disturb": true}"#)
            #expect(daily.body["do_not_disturb"] == .bool(true))
            #expect(daily.body["dnd_schedules"] == json("[]"))

            let both = try await relay.request(
                .put, "/v3/users/alice/push_preference", body: #"{"do_not_disturb": true, "dnd_schedules": \#(schedules)}"#)
            #expect(both.code == 400111)
        }
    }

    @Test func resetReturnsTheDefaults() async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(
                .put, "/v3/users/alice/push_preference",
                body: #"{"do_not_disturb": true, "snooze_enabled": true, "snooze_end_ts": 5, "timezone": "Asia/Seoul", "push_sound": "x"}"#)
            let reset = try await relay.request(.delete, "/v3/users/alice/push_preference")
            #expect(reset.status == .ok)
            #expect(reset.body == json(Self.defaults))
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference").body == json(Self.defaults))
        }
    }

    @Test func timestampsMayArriveAsDecimalStrings() async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(
                .put, "/v3/users/alice/push_preference", body: #"{"snooze_start_ts": "1000", "snooze_end_ts": 2000}"#)
            #expect(r.body["snooze_start_ts"] == .int(1000))
            #expect(r.body["snooze_end_ts"] == .int(2000))
        }
    }

    @Test(arguments: [
        (#"{"push_trigger_option": "default"}"#, 400111),
        (#"{"push_trigger_option": "sometimes"}"#, 400111),
        (#"{"push_trigger_option": 1}"#, 400100),
        (#"{"do_not_disturb": "true"}"#, 400104),
        (#"{"start_hour": 24}"#, 400111),
        (#"{"start_hour": -1}"#, 400111),
        (#"{"end_min": 60}"#, 400111),
        (#"{"end_min": 1.5}"#, 400101),
        (#"{"start_min": "5"}"#, 400101),
        (#"{"timezone": "Mars/Olympus"}"#, 400111),
        (#"{"timezone": "EST"}"#, 400111),
        (#"{"timezone": 9}"#, 400100),
        (#"{"snooze_start_ts": -1}"#, 400106),
        (#"{"snooze_start_ts": "soon"}"#, 400101),
        (#"{"snooze_enabled": true, "snooze_start_ts": 10, "snooze_end_ts": 5}"#, 400111),
        (#"{"dnd_schedules": {}}"#, 400102),
        (#"{"dnd_schedules": ["monday"]}"#, 400103),
        (#"{"dnd_schedules": [{"time_windows": []}]}"#, 400105),
        (#"{"dnd_schedules": [{"day_of_week": "someday", "time_windows": []}]}"#, 400111),
        (#"{"dnd_schedules": [{"day_of_week": "monday"}]}"#, 400105),
        (#"{"dnd_schedules": [{"day_of_week": "monday", "time_windows": [{"start_hour": 1}]}]}"#, 400105),
        (
            #"{"dnd_schedules": [{"day_of_week": "monday", "time_windows": [{"start_hour": 1, "start_min": 0, "end_hour": 25, "end_min": 0}]}]}"#,
            400111
        ),
        (#"{"dnd_schedules": [{"day_of_week": "monday", "time_windows": []}, {"day_of_week": "monday", "time_windows": []}]}"#, 400111),
        (#"{"push_sound": true}"#, 400100),
        (#"{"push_sound": "\#(String(repeating: "s", count: 256))"}"#, 400110),
        (#"{"block_push_from_bots": 0}"#, 400104),
        (#"{"push_blocked_bot_ids": "bot1"}"#, 400102),
        (#"{"push_blocked_bot_ids": [true]}"#, 400100),
        (#"{"enable_push_for_replies": null, "push_sound": ["x"]}"#, 400100),
        ("not json", 400403),
        (#""a string""#, 400403),
    ])
    func badUpdatesAreRejectedAndChangeNothing(body: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"push_sound": "kept.caf", "snooze_end_ts": 1}"#)
            let r = try await relay.request(.put, "/v3/users/alice/push_preference", body: body)
            #expect(r.status == .badRequest)
            #expect(r.code == code, "\(r.text)")
            #expect(r.body["message"].map { if case .string(let m) = $0 { !m.isEmpty } else { false } } == true)
            let after = try await relay.store.preferences(app: TestApps.a.appID, user: "alice")
            #expect(after?.pushSound == "kept.caf")
            #expect(after?.snoozeEndMs == 1)
        }
    }

    @Test func numericBotIDsAreTakenAsText() async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.put, "/v3/users/alice/push_preference", body: #"{"push_blocked_bot_ids": [12, "b"]}"#)
            #expect(r.body["push_blocked_bot_ids"] == json(#"["12", "b"]"#))
        }
    }
}

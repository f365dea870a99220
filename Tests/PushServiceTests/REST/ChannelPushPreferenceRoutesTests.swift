import PushCore
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ChannelPushPreferenceRoutesTests {
    @Test func setAndReadAChannelPreference() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference/c1").code == 400201)
            let put = try await relay.request(
                .put, "/v3/users/alice/push_preference/c1", body: #"{"push_trigger_option": "mention_only", "push_sound": "c.caf"}"#)
            #expect(put.status == .ok)
            #expect(put.body == json(#"{"push_trigger_option": "mention_only", "push_sound": "c.caf", "enable": true}"#))
            #expect(try await relay.request(.get, "/v3/users/alice/push_preference/c1").body == put.body)
            // Another channel of the now-known user has the defaults.
            #expect(
                try await relay.request(.get, "/v3/users/alice/push_preference/c2").body
                    == json(#"{"push_trigger_option": "default", "push_sound": "", "enable": true}"#))
        }
    }

    @Test func percentEncodedChannelURLsAreDecoded() async throws {
        try await LiveRelay.run { relay async throws in
            let encoded = "sendbird_group_channel%2Fteam%20a%3Fx%3D1"
            try await relay.request(.put, "/v3/users/alice/push_preference/\(encoded)", body: #"{"push_trigger_option": "off"}"#)
            let stored = try await relay.store.channelPreference(
                app: TestApps.a.appID, user: "alice", channel: "sendbird_group_channel/team a?x=1")
            #expect(stored?.triggerOption == .off)
            #expect(
                try await relay.request(.get, "/v3/users/alice/push_preference/\(encoded)").body["push_trigger_option"] == .string("off"))
        }
    }

    @Test func falseAndTheDeprecatedEnableMeanOff() async throws {
        try await LiveRelay.run { relay async throws in
            let f = try await relay.request(.put, "/v3/users/alice/push_preference/c1", body: #"{"push_trigger_option": "false"}"#)
            #expect(f.body == json(#"{"push_trigger_option": "off", "push_sound": "", "enable": false}"#))
            let on = try await relay.request(.put, "/v3/users/alice/push_preference/c1", body: #"{"enable": true}"#)
            #expect(on.body["push_trigger_option"] == .string("default"))
            let off = try await relay.request(
                .put, "/v3/users/alice/push_preference/c1", body: #"{"push_trigger_option": "all", "enable": false}"#)
            #expect(off.body["push_trigger_option"] == .string("off"))
            try await relay.request(.put, "/v3/users/alice/push_preference/c1", body: #"{"push_trigger_option": "all", "push_sound": "s"}"#)
            let keep = try await relay.request(.put, "/v3/users/alice/push_preference/c1", body: #"{"enable": true, "push_sound": ""}"#)
            #expect(keep.body == json(#"{"push_trigger_option": "all", "push_sound": "", "enable": true}"#))
        }
    }

    @Test(arguments: [
        (#"{}"#, 400105),
        (#"{"push_sound": "x"}"#, 400105),
        (#"{"push_trigger_option": "sometimes"}"#, 400111),
        (#"{"push_trigger_option": false}"#, 400100),
        (#"{"push_trigger_option": "all", "enable": "no"}"#, 400104),
        (#"{"push_trigger_option": "all", "push_sound": 3}"#, 400100),
        ("{", 400403),
    ])
    func badUpdatesAreRejected(body: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.put, "/v3/users/alice/push_preference/c1", body: body)
            #expect(r.status == .badRequest)
            #expect(r.code == code, "\(r.text)")
            #expect(try await relay.store.userExists(app: TestApps.a.appID, user: "alice") == false)
        }
    }
}

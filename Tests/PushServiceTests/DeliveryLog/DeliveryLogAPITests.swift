import Foundation
import PushStore
import StoreContract
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct DeliveryLogAPITests {
    @Test func theLogIsPerAppAuthenticatedAndValidated() async throws {
        try await LiveRelay.run { relay async throws in
            // Accepted now, so the relay's own pruner (7 days, running meanwhile) keeps it.
            let now = WallClock.milliseconds()
            let event = AcceptedEvent(
                appID: TestApps.a.appID, messageID: 5, channelURL: "c1", acceptedAtMs: now,
                decisions: [RecipientDecisionRecord(userID: "bob", decision: .skip(.doNotDisturb))], deliveries: [])
            #expect(try await relay.store.acceptEvent(event))

            let mine = try await relay.request(.get, "/v3/push/deliveries?message_id=5&user_id=bob")
            #expect(mine.status == .ok)
            #expect(
                mine.body
                    == json(
                        #"{"message_id": 5, "user_id": "bob", "decision": "do_not_disturb", "accepted_at": \#(now), "deliveries": []}"#
                    ))

            let theirs = try await relay.request(.get, "/v3/push/deliveries?message_id=5&user_id=bob", app: TestApps.b)
            #expect(theirs.body["decision"] == nil || theirs.body["decision"] == .null)

            #expect(try await relay.request(.get, "/v3/push/deliveries?message_id=5&user_id=bob", app: nil).status == .unauthorized)
            #expect(try await relay.request(.get, "/v3/push/deliveries?user_id=bob").code == 400105)
            #expect(try await relay.request(.get, "/v3/push/deliveries?message_id=x&user_id=bob").code == 400101)
            // The query's user id follows the path's rules (PostgreSQL answered a NUL with a 500),
            // and is decoded once: "%2541" is the user "%41", not "A".
            #expect(try await relay.request(.get, "/v3/push/deliveries?message_id=5&user_id=%06b%00").code == 400151)
            #expect(
                try await relay.request(.get, "/v3/push/deliveries?message_id=5&user_id=\(String(repeating: "u", count: 256))").code
                    == 400110)
            #expect(try await relay.request(.get, "/v3/push/deliveries?message_id=5&user_id=b%2541").body["user_id"] == .string("b%41"))
            #expect(try await relay.request(.get, "/v3/users/bob/push/deliveries?limit=0").code == 400111)
            #expect(try await relay.request(.get, "/v3/users/bob/push/deliveries").body == json(#"{"deliveries": []}"#))
            // The user's skipped messages, per app.
            #expect(
                try await relay.request(.get, "/v3/users/bob/push/skips").body
                    == json(#"{"skips": [{"message_id": 5, "decision": "do_not_disturb", "accepted_at": \#(now)}]}"#))
            #expect(try await relay.request(.get, "/v3/users/bob/push/skips", app: TestApps.b).body == json(#"{"skips": []}"#))
            #expect(try await relay.request(.get, "/v3/users/bob/push/skips", app: nil).status == .unauthorized)
            #expect(try await relay.request(.get, "/v3/users/bob/push/skips?limit=201").code == 400111)
            // A server's view: a session token, even bob's own, is refused.
            let bob = try await relay.issueSessionToken(for: "bob")
            #expect(try await relay.request(.get, "/v3/users/bob/push/skips", sessionToken: bob).status == .forbidden)
        }
    }

    @Test func thePrunerDeletesEntriesOlderThanItsAge() async throws {
        try await LiveRelay.run { relay async throws in
            // Accepted now: the relay's own pruner (7 days, on the system clock) runs meanwhile and
            // must not be the one that deletes it.
            let now = WallClock.milliseconds()
            let old = AcceptedEvent(
                appID: TestApps.a.appID, messageID: 1, channelURL: "c1", acceptedAtMs: now,
                decisions: [RecipientDecisionRecord(userID: "bob", decision: .skip(.online))], deliveries: [])
            #expect(try await relay.store.acceptEvent(old))
            let pruner = DeliveryLogPruner(store: relay.store, maximumAge: .seconds(60), clock: { now + 59_000 })
            try await pruner.pruneOnce()
            #expect(try await relay.store.eventExists(app: TestApps.a.appID, messageID: 1))
            let later = DeliveryLogPruner(store: relay.store, maximumAge: .seconds(60), clock: { now + 61_000 })
            try await later.pruneOnce()
            #expect(try await relay.store.eventExists(app: TestApps.a.appID, messageID: 1) == false)
        }
    }
}

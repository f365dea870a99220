import APNsMock
import Foundation
import PushCore
import PushStore
import StoreContract
import Testing
@testable import PushService

/// `badge_sync`: the real relay, a real SQLite file and the mock APNs over HTTP/2 + TLS.
@Suite(.timeLimit(.minutes(5))) struct BadgeSyncTests {
    static func readEvent(_ user: String, unread: Int, readAt: Int64, app: String = TestApps.a.appID) -> String {
        #"""
        {"category": "group_channel:message_read", "app_id": "\#(app)", "channel": {"channel_url": "c1"},
         "read_updates": [{"user_id": "\#(user)", "read_ts": \#(readAt), "channel_unread_message_count": 0,
                           "total_unread_message_count": \#(unread)}]}
        """#
    }

    @Test func aReadSetsTheReadersBadgeWithABackgroundPushAtMostOncePerInterval() async throws {
        var configured = TestApps.a
        // Long enough that the reads below all arrive within it on a slow, loaded machine (under
        // the whole suite 5 s was not).
        configured.badgeSync = BadgeSyncSetting(interval: .seconds(20))
        let app = configured
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, apps: [app, TestApps.b]) { relay in
                try await relay.register("bob", token: apnsToken(1))
                let firstPosted = ContinuousClock.now
                let first = try await relay.postWebhook(Self.readEvent("bob", unread: 2, readAt: 1_000))
                #expect(first.body == json(#"{"result": "accepted", "deliveries": 1}"#), "\(first.text)")
                let received = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                #expect(received[0].headers["apns-push-type"] == "background")
                #expect(received[0].headers["apns-priority"] == "5")
                #expect(received[0].payload == BadgePayload.data(badge: 2))

                // Two reads within the interval: one push, the latest count; a retried read: nothing.
                #expect(try await relay.postWebhook(Self.readEvent("bob", unread: 1, readAt: 2_000)).body["deliveries"] == .int(1))
                #expect(try await relay.postWebhook(Self.readEvent("bob", unread: 0, readAt: 3_000)).body["deliveries"] == .int(0))
                #expect(try await relay.postWebhook(Self.readEvent("bob", unread: 0, readAt: 3_000)).body["deliveries"] == .int(0))
                let both = try await mock.waitForNotifications(count: 2, timeout: .seconds(120))
                #expect(ContinuousClock.now - firstPosted >= .milliseconds(19_950), "waited out the interval since the first")
                #expect(both[1].payload == BadgePayload.data(badge: 0))
                let list = try await relay.request(.get, "/v3/users/bob/push/deliveries?limit=5")
                guard case .array(let items)? = list.body["deliveries"] else {
                    Issue.record(Comment(rawValue: list.text))
                    return
                }
                #expect(items.count == 2)
                #expect(items.allSatisfy { $0["push_type"] == .string("background") })
            }
        }
    }

    /// A badge push is a push: counted in its app's backlog while it waits out its interval (and
    /// taken out when it is sent), but not in the oldest unsent push's age, since it waits on purpose.
    @Test func aWaitingBadgePushIsCountedInTheBacklogButNotItsAge() async throws {
        var configured = TestApps.a
        configured.badgeSync = BadgeSyncSetting(interval: .seconds(3600))
        let app = configured
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, apps: [app, TestApps.b]) { relay in
                try await relay.register("bob", token: apnsToken(1))
                try await relay.postWebhook(Self.readEvent("bob", unread: 2, readAt: 1_000))
                _ = try await mock.waitForNotifications(count: 1, timeout: .seconds(60))
                try await relay.eventually("the first badge push leaves the backlog") {
                    relay.dispatcher.backlog.unsent(app: app.appID) == 0
                }
                #expect(try await relay.postWebhook(Self.readEvent("bob", unread: 1, readAt: 2_000)).body["deliveries"] == .int(1))
                #expect(relay.dispatcher.backlog.unsent(app: app.appID) == 1, "waiting out the interval: unsent")
                #expect(relay.dispatcher.backlog.oldestUnsentAgeMs(nowMs: WallClock.milliseconds() + 60_000) == 0)
            }
        }
    }

    @Test func anAppWithoutBadgeSyncIgnoresReads() async throws {
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory) { relay in
                try await relay.register("bob", token: apnsToken(1))
                #expect(
                    try await relay.postWebhook(Self.readEvent("bob", unread: 2, readAt: 1)).body
                        == json(#"{"result": "ignored", "deliveries": 0}"#))
            }
        }
    }

    @Test func aMalformedReadEventIsRefused() async throws {
        var configured = TestApps.a
        configured.badgeSync = BadgeSyncSetting()
        let app = configured
        try await PipelineRelay.withMockAndDirectory { mock, directory in
            try await PipelineRelay.run(mock: mock, directory: directory, apps: [app, TestApps.b]) { relay async throws in
                let missing = #"{"category": "group_channel:message_read", "app_id": "\#(app.appID)", "channel": {"channel_url": "c1"}}"#
                #expect(try await relay.postWebhook(missing).code == 400105)
                let badUser = #"""
                    {"category": "group_channel:message_read", "app_id": "\#(app.appID)", "channel": {"channel_url": "c1"},
                     "read_updates": [{"user_id": "", "total_unread_message_count": 1}]}
                    """#
                #expect(try await relay.postWebhook(badUser).status == .badRequest)
            }
        }
    }
}

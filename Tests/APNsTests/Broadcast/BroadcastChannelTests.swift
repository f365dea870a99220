import APNsMock
import Foundation
import HTTP2Transport
import Logging
import PushCore
import PushSending
import Testing

@testable import APNs

/// iOS 18 broadcast push against apns-mock: channels created, read, listed and deleted through
/// the channel management API on its own port, a broadcast sent to one through the sender
/// (`POST /4/broadcasts/apps/{bundle}` with `apns-channel-id`), and a deleted channel's broadcast
/// answered `ChannelNotRegistered`, which is a dead token's outcome.
@Suite(.timeLimit(.minutes(5))) struct BroadcastChannelTests {
    @Test func aChannelIsCreatedBroadcastToAndDeleted() async throws {
        var configuration = Fixtures.mockConfiguration()
        configuration.managementPort = 0
        try await withMock(configuration) { mock in
            let tokens = try Fixtures.tokenCache()
            let manager = try APNsChannelManager(
                endpoint: TransportEndpoint(host: "127.0.0.1", port: try #require(mock.managementPort)), bundleID: Fixtures.topic,
                tokens: tokens, caFile: Fixtures.cert("ca.pem"), logger: Logger(label: "test"))
            let client = try APNsClient(configuration: Fixtures.clientConfiguration(port: mock.port, authentication: .token(tokens)))
            let sender = APNsSender(client: client, topic: Fixtures.topic)
            do {
                let channel = try await manager.create(storagePolicy: 1)
                #expect(!channel.isEmpty)
                #expect(try await manager.storagePolicy(of: channel) == 1)
                #expect(try await manager.channels() == [channel])

                let update = try LiveActivityContent(event: .update, timestamp: 1, contentState: .object(["score": .string("2-1")]))
                    .payload()
                let sent = await send(sender, channel: channel, payload: update)
                #expect(sent.status == 200, "\(sent)")
                let recorded = try #require(mock.notifications.last)
                #expect(recorded.deviceToken == channel && recorded.headers["apns-channel-id"] == channel)
                #expect(recorded.headers["apns-push-type"] == "liveactivity" && recorded.headers["apns-topic"] == nil)

                #expect(try await manager.deleteChannel(channel))
                #expect(try await manager.channels().isEmpty)
                #expect(try await manager.deleteChannel(channel) == false, "APNs no longer knows it")
                let gone = await send(sender, channel: channel, payload: update)
                #expect(gone.reason == "ChannelNotRegistered" && gone.outcome == .tokenDead(.always))
                await expectRefusal(.answered(status: 400, reason: .badMessageStoragePolicy)) {
                    _ = try await manager.create(storagePolicy: 7)
                }
            } catch {
                await manager.shutdown()
                await client.shutdown()
                throw error
            }
            await manager.shutdown()
            await client.shutdown()
        }
    }

    /// A request without a valid provider token is refused, as pushes are.
    @Test func theManagementAPINeedsTheProviderToken() async throws {
        var configuration = Fixtures.mockConfiguration()
        configuration.managementPort = 0
        configuration.teamID = "OTHERTEAM1"
        try await withMock(configuration) { mock in
            let manager = try APNsChannelManager(
                endpoint: TransportEndpoint(host: "127.0.0.1", port: try #require(mock.managementPort)), bundleID: Fixtures.topic,
                tokens: try Fixtures.tokenCache(), caFile: Fixtures.cert("ca.pem"), logger: Logger(label: "test"))
            await expectRefusal(.answered(status: 403, reason: .invalidProviderToken)) { _ = try await manager.channels() }
            await manager.shutdown()
        }
    }

    private func expectRefusal(_ expected: APNsChannelError, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(expected)")
        } catch let error as APNsChannelError {
            #expect(error == expected)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    private func send(_ sender: APNsSender, channel: String, payload: [UInt8]) async -> PushSendResult {
        await withCheckedContinuation { continuation in
            sender.submit(
                OutgoingPush(
                    pushID: UUID(), deviceToken: channel, payload: payload, pushType: APNsSender.broadcastPushType, priority: 5,
                    expiresAtMs: Int64(Date().timeIntervalSince1970 * 1000) + 60_000),
                timeout: .seconds(30)
            ) { continuation.resume(returning: $0) }
        }
    }
}

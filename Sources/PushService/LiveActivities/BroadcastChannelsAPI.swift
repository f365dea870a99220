import Foundation
import Hummingbird
import PushCore
import StoreContract

/// `/v3/live_activity_channels…` (a PushRelay extension): an app's broadcast channels for iOS 18
/// Live Activities, created and deleted through APNs' channel management API and kept in the
/// store (a fleet shares them), and broadcasts to them. The app's server only.
struct BroadcastChannelsAPI: Sendable {
    let activities: LiveActivities
    let bodyLimit: Int

    /// Channels an app may hold: each costs APNs a channel and the store a row, and an API token
    /// must not be able to grow either without bound.
    static let maximumPerApp = 1_000

    func register(on v3: RouterGroup<RelayRequestContext>) {
        let store = activities.store
        v3.post("live_activity_channels") { request, context in
            let app = try context.requireApp()
            let body = try await request.jsonObject(limit: bodyLimit)
            let policy = try body.integer("message_storage_policy", in: 0...1) ?? 1
            let name = try body.string("name").map { name throws(APIError) in try RequestParameter.checked("name", name) }
            guard try await store.channels(app: app.appID).count < Self.maximumPerApp else {
                throw APIError(
                    code: .invalidLength,
                    message: "Invalid value: the app already holds \(Self.maximumPerApp) broadcast channels; delete one first.")
            }
            let service = try activities.channelService(app: app.appID)
            let id: String
            do {
                id = try await service.createChannel(storagePolicy: policy)
            } catch {
                throw APIError(status: .badGateway, code: .unexpected, message: "APNs did not create the channel: \(error).")
            }
            let channel = LiveActivityChannel(
                appID: app.appID, channelID: id, name: name, storagePolicy: policy, createdAtMs: activities.clock())
            try await store.saveChannel(channel)
            return ChannelBody(channel)
        }
        v3.get("live_activity_channels") { _, context in
            let app = try context.requireApp()
            return ChannelsBody(channels: try await store.channels(app: app.appID).map(ChannelBody.init))
        }
        v3.get("live_activity_channels/:channel_id") { _, context in
            let app = try context.requireApp()
            let id = try RequestParameter.decoded("channel_id", from: context)
            guard let channel = try await store.channel(app: app.appID, id: id) else { throw APIError.notFound("Channel") }
            return ChannelBody(channel)
        }
        v3.delete("live_activity_channels/:channel_id") { _, context in
            let app = try context.requireApp()
            let id = try RequestParameter.decoded("channel_id", from: context)
            guard try await store.channel(app: app.appID, id: id) != nil else { throw APIError.notFound("Channel") }
            let known: Bool
            do {
                known = try await activities.channelService(app: app.appID).deleteChannel(id)
            } catch let error as APIError {
                throw error
            } catch {
                throw APIError(status: .badGateway, code: .unexpected, message: "APNs did not delete the channel: \(error).")
            }
            try await store.removeChannel(app: app.appID, id: id)
            return DeletedBody(channel_id: id, deleted: true, known_to_apns: known)
        }
        v3.post("live_activity_channels/:channel_id/broadcast") { request, context in
            let app = try context.requireApp()
            let id = try RequestParameter.decoded("channel_id", from: context)
            let body = try await request.jsonObject(limit: bodyLimit)
            let event =
                try body.choice(
                    "event", { $0 == "end" ? LiveActivityPush.Event.end : $0 == "update" ? .update : nil }, allowed: ["update", "end"])
                ?? .update
            let change = try LiveActivityChange(body, event: event, activityID: id, nowMs: activities.clock())
            guard try await activities.broadcast(change, app: app.appID) else { throw APIError.notFound("Channel") }
            return QueuedBroadcastBody(channel_id: id, queued: 1)
        }
    }
}

private struct ChannelBody: ResponseEncodable {
    var channel_id: String
    var name: String?
    var message_storage_policy: Int
    var created_at: Int64

    init(_ channel: LiveActivityChannel) {
        channel_id = channel.channelID
        name = channel.name
        message_storage_policy = channel.storagePolicy
        created_at = channel.createdAtMs
    }
}

private struct ChannelsBody: ResponseEncodable {
    var channels: [ChannelBody]
}

private struct DeletedBody: ResponseEncodable {
    var channel_id: String
    var deleted: Bool
    /// false: APNs had no such channel any more (the relay's record is gone too).
    var known_to_apns: Bool
}

private struct QueuedBroadcastBody: ResponseEncodable {
    var channel_id: String
    var queued: Int
}

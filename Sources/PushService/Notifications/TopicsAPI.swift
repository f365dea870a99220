import Hummingbird
import PushCore
import StoreContract

/// Topics (a PushRelay extension): a user subscribes and unsubscribes (their device with a session
/// token, or the app's server), the app's server subscribes many at once and reads a topic's size.
/// A notification to a topic reaches whoever is subscribed when it is sent.
struct TopicsAPI: Sendable {
    let store: any RelayStore
    let clock: @Sendable () -> Int64
    let bodyLimit: Int

    /// Topics one user may follow.
    static let maximumTopicsPerUser = 100

    func register(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("users/:user_id/topics") { _, context in
            let (app, user) = try context.requireUser()
            return TopicListBody(user_id: user, topics: try await store.topics(app: app.appID, user: user))
        }
        v3.put("users/:user_id/topics/:topic") { _, context in
            let (app, user) = try context.requireUser()
            let topic = try TopicName.checked(try RequestParameter.decoded("topic", from: context))
            let topics = try await store.topics(app: app.appID, user: user)
            if !topics.contains(where: { $0.utf8.elementsEqual(topic.utf8) }), topics.count >= Self.maximumTopicsPerUser {
                throw APIError.invalidValue("topic", "is one too many: a user follows at most \(Self.maximumTopicsPerUser) topics")
            }
            _ = try await store.subscribe(app: app.appID, topic: topic, users: [user], nowMs: clock())
            return SubscriptionBody(user_id: user, topic: topic, subscribed: true)
        }
        v3.delete("users/:user_id/topics/:topic") { _, context in
            let (app, user) = try context.requireUser()
            let topic = try TopicName.checked(try RequestParameter.decoded("topic", from: context))
            _ = try await store.unsubscribe(app: app.appID, topic: topic, users: [user])
            return SubscriptionBody(user_id: user, topic: topic, subscribed: false)
        }
        v3.post("topics/:topic/subscribers") { request, context in
            let app = try context.requireApp()
            let topic = try TopicName.checked(try RequestParameter.decoded("topic", from: context))
            let body = try await request.jsonObject(limit: max(bodyLimit, NotificationRequest.maximumBodyBytes))
            guard case .users(let users) = try Self.users(body) else { throw APIError.missing("user_ids") }
            let added = try await store.subscribe(app: app.appID, topic: topic, users: users, nowMs: clock())
            return SubscribersAddedBody(topic: topic, added: added)
        }
        v3.get("topics/:topic") { _, context in
            let app = try context.requireApp()
            let topic = try TopicName.checked(try RequestParameter.decoded("topic", from: context))
            return TopicBody(topic: topic, subscriber_count: try await store.subscriberCount(app: app.appID, topic: topic))
        }
    }

    /// `user_ids`: 1 to 10,000 ids.
    private static func users(_ body: JSONObject) throws(APIError) -> NotificationAudience {
        guard let items = try body.array("user_ids") else { throw .missing("user_ids") }
        guard (1...NotificationRequest.maximumUsers).contains(items.count) else {
            throw .invalidValue("user_ids", "must list 1 to \(NotificationRequest.maximumUsers) user ids")
        }
        var ids: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let id) = item else { throw .wrongType("user_ids[\(index)]", expected: .string) }
            ids.append(try RequestParameter.checked("user_ids[\(index)]", id))
        }
        return .listing(ids)
    }
}

private struct TopicListBody: ResponseEncodable {
    var user_id: String
    var topics: [String]
}

private struct SubscriptionBody: ResponseEncodable {
    var user_id: String
    var topic: String
    var subscribed: Bool
}

private struct SubscribersAddedBody: ResponseEncodable {
    var topic: String
    var added: Int
}

private struct TopicBody: ResponseEncodable {
    var topic: String
    var subscriber_count: Int
}

import Hummingbird
import ProviderDriver
import PushCore
import PushStore
import StoreContract

/// The Live Activities API (a PushRelay extension, not a Sendbird call): a user's push-to-start
/// tokens and their activities' update tokens (the user's device or the app's server), and
/// starting, updating and ending an activity by the app's id (the app's server).
struct LiveActivitiesAPI: Sendable {
    let activities: LiveActivities
    let bodyLimit: Int

    func register(on v3: RouterGroup<RelayRequestContext>) {
        registerTokenRoutes(on: v3)
        registerActivityRoutes(on: v3)
    }

    /// `…/users/{user_id}/live_activity_start_tokens` and `…/live_activities/{activity_id}/token`.
    private func registerTokenRoutes(on v3: RouterGroup<RelayRequestContext>) {
        let store = activities.store
        v3.post("users/:user_id/live_activity_start_tokens") { request, context in
            let (app, user) = try context.requireUser()
            let body = try await request.jsonObject(limit: bodyLimit)
            guard let type = try body.string("attributes_type") else { throw APIError.missing("attributes_type") }
            let attributesType = try RequestParameter.checked("attributes_type", type)
            let token = try Self.token(try body.string("token"))
            try await store.registerStartToken(
                app: app.appID, user: user, attributesType: attributesType, token: token, nowMs: activities.clock())
            return StartTokenBody(user_id: user, attributes_type: attributesType, token: token)
        }
        v3.get("users/:user_id/live_activity_start_tokens") { _, context in
            let (app, user) = try context.requireUser()
            let tokens = try await store.startTokens(app: app.appID, user: user)
            return StartTokensBody(
                start_tokens: tokens.map { StartTokenBody(user_id: user, attributes_type: $0.attributesType, token: $0.token) })
        }
        v3.delete("users/:user_id/live_activity_start_tokens/:token") { _, context in
            let (app, user) = try context.requireUser()
            let token = try Self.token(try RequestParameter.decoded("token", from: context))
            let removed = try await store.removeStartToken(app: app.appID, user: user, token: token)
            return RemovedBody(token: token, removed: removed)
        }
        v3.put("users/:user_id/live_activities/:activity_id/token") { request, context in
            let (app, user) = try context.requireUser()
            let id = try RequestParameter.decoded("activity_id", from: context)
            let body = try await request.jsonObject(limit: bodyLimit)
            let token = try Self.token(try body.string("token"))
            guard
                let record = try await store.registerActivityToken(
                    app: app.appID, user: user, activityID: id, token: token, nowMs: activities.clock())
            else { throw APIError.invalidValue("activity_id", "names another user's activity") }
            return ActivityBody(record)
        }
        v3.get("users/:user_id/live_activities") { _, context in
            let (app, user) = try context.requireUser()
            return ActivitiesBody(live_activities: try await store.activities(app: app.appID, user: user).map(ActivityBody.init))
        }
    }

    /// `/v3/live_activities…`: the app's server starts, updates, ends and reads an activity.
    private func registerActivityRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.post("live_activities") { request, context in
            let app = try context.requireApp()
            let body = try await request.jsonObject(limit: bodyLimit)
            let change = try LiveActivityChange(body, event: .start, activityID: nil, nowMs: activities.clock())
            return QueuedBody(try await activities.send(change, app: app.appID))
        }
        for event in [LiveActivityPush.Event.update, .end] {
            v3.post("live_activities/:activity_id/\(event.rawValue)") { request, context in
                let app = try context.requireApp()
                let id = try RequestParameter.decoded("activity_id", from: context)
                let body = try await request.jsonObject(limit: bodyLimit)
                let change = try LiveActivityChange(body, event: event, activityID: id, nowMs: activities.clock())
                return QueuedBody(try await activities.send(change, app: app.appID))
            }
        }
        v3.get("live_activities/:activity_id") { _, context in
            let app = try context.requireApp()
            let id = try RequestParameter.decoded("activity_id", from: context)
            guard let record = try await activities.store.activity(app: app.appID, id: id) else {
                throw APIError.notFound("Live Activity")
            }
            return ActivityBody(record)
        }
    }

    /// A Live Activity token is an APNs device token's shape (hex), stored lowercase.
    static func token(_ raw: String?) throws(APIError) -> String {
        guard let raw else { throw APIError.missing("token") }
        guard let carrier = ProviderCatalog.installed.descriptions.first(where: { $0.liveActivityPushType != nil }) else {
            throw APIError.invalidValue("token", "cannot be sent: no provider carries Live Activities")
        }
        switch carrier.tokenFormat.normalise(raw) {
        case .success(let token): return token
        case .failure(let problem): throw APIError.invalidValue("token", "\(problem)")
        }
    }
}

private struct StartTokenBody: ResponseEncodable {
    var user_id: String
    var attributes_type: String
    var token: String
}

private struct StartTokensBody: ResponseEncodable {
    var start_tokens: [StartTokenBody]
}

private struct RemovedBody: ResponseEncodable {
    var token: String
    var removed: Bool
}

/// An activity as the API shows it (a field without a value is left out).
struct ActivityBody: ResponseEncodable {
    var activity_id: String
    var user_id: String
    var attributes_type: String?
    var state: String
    var update_token: String?
    var high_priority_pushes: Int
    var created_at: Int64
    var updated_at: Int64
    var ended_at: Int64?
    var remove_at: Int64?

    init(_ record: LiveActivityRecord) {
        activity_id = record.activityID
        user_id = record.userID
        attributes_type = record.attributesType
        state = record.state.rawValue
        update_token = record.updateToken
        high_priority_pushes = record.highPriorityPushes
        created_at = record.createdAtMs
        updated_at = record.updatedAtMs
        ended_at = record.endedAtMs
        remove_at = record.removeAtMs
    }
}

private struct ActivitiesBody: ResponseEncodable {
    var live_activities: [ActivityBody]
}

/// A start, update or end: the activity afterwards (absent once an end removed it) and the pushes queued.
private struct QueuedBody: ResponseEncodable {
    var live_activity: ActivityBody?
    var queued: Int

    init(_ result: (LiveActivityRecord?, pushes: Int)) {
        live_activity = result.0.map(ActivityBody.init)
        queued = result.pushes
    }
}

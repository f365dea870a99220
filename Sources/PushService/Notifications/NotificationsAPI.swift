import HTTPTypes
import Hummingbird
import PushCore
import StoreContract

/// The notifications API (a PushRelay extension, not a Sendbird call): the app's server notifies
/// users, or a topic's subscribers, now, at a time, or at a time of day on each user's clock; reads
/// a notification's state and counts; cancels one until it is done.
struct NotificationsAPI: Sendable {
    let notifications: Notifications
    let settings: ConfiguredNotificationSettings
    let bodyLimit: Int

    /// Largest `limit` of the listing.
    static let maximumLimit = 100
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    func register(on v3: RouterGroup<RelayRequestContext>) {
        let store = notifications.store
        v3.post("notifications") { request, context in
            let app = try context.requireApp()
            let key = try Self.key(request)
            let (body, bytes) = try await request.jsonObjectAndBytes(limit: max(bodyLimit, NotificationRequest.maximumBodyBytes))
            let parsed = try NotificationRequest(body, settings: settings.settings(forApp: app.appID), nowMs: notifications.clock())
            let (record, replayed) = try await notifications.create(parsed, app: app.appID, idempotencyKey: key, body: bytes)
            var headers = HTTPFields()
            if replayed { headers[Self.replayed] = "true" }
            return EditedResponse(headers: headers, response: NotificationBody.created(record))
        }
        v3.get("notifications") { request, context in
            let app = try context.requireApp()
            let limit = try RequestParameter.limit(from: request, default: 20, range: 1...Self.maximumLimit)
            let before = try Self.before(request)
            let open = try Self.openOnly(request)
            let page = try await store.notifications(app: app.appID, beforeID: before, limit: limit, openOnly: open)
            return NotificationListBody(
                notifications: page.map { NotificationBody($0) }, next: page.count == limit ? page.last?.id : nil)
        }
        v3.get("notifications/:notification_id") { _, context in
            let app = try context.requireApp()
            let id = try Self.id(context)
            guard let record = try await store.notification(app: app.appID, id: id) else { throw APIError.notFound("notification") }
            return NotificationBody(record, counts: try await store.notificationCounts(app: app.appID, id: id))
        }
        v3.post("notifications/:notification_id/cancel") { _, context in
            let app = try context.requireApp()
            return NotificationBody(try await notifications.cancel(app: app.appID, id: try Self.id(context)))
        }
    }

    /// The `Idempotency-Key` header: 1 to 255 printable ASCII characters.
    static func key(_ request: Request) throws(APIError) -> String? {
        let values = request.headers[values: idempotencyKey]
        guard let key = values.first else { return nil }
        guard values.count == 1, (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw APIError.invalidValue("Idempotency-Key", "must be one header of 1 to 255 printable ASCII characters")
        }
        return key
    }

    private static func id(_ context: RelayRequestContext) throws(APIError) -> Int64 {
        let raw = try RequestParameter.decoded("notification_id", from: context)
        guard let id = Int64(raw), id > 0 else { throw APIError.notFound("notification") }
        return id
    }

    private static func before(_ request: Request) throws(APIError) -> Int64? {
        guard let raw = request.uri.queryParameters["before"] else { return nil }
        guard let id = Int64(String(raw)), id > 0 else { throw APIError.wrongType("before", expected: .integer) }
        return id
    }

    private static func openOnly(_ request: Request) throws(APIError) -> Bool {
        guard let raw = request.uri.queryParameters["state"] else { return false }
        guard raw == "open" else { throw APIError.invalidValue("state", "must be \"open\" (scheduled or sending) when given") }
        return true
    }
}

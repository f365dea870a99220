import Hummingbird
import PushStore

/// The delivery log, per app (behind `Api-Token`): what happened to message M for user U, and a
/// user's recent deliveries.
struct DeliveryLogAPI: Sendable {
    let store: any RelayStore

    /// Largest `limit` of the listing.
    static let maximumLimit = 200

    func register(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("push/deliveries") { request, context in
            let app = try context.requireApp()
            guard let rawMessage = request.uri.queryParameters["message_id"] else { throw APIError.missing("message_id") }
            guard let messageID = Int64(String(rawMessage)) else { throw APIError.wrongType("message_id", expected: .integer) }
            let user = try PathParameter.query("user_id", from: request)
            let log = try await store.deliveryLog(app: app.appID, messageID: messageID, user: user)
            return DeliveryLogBody(log)
        }

        v3.get("users/:user_id/push/deliveries") { request, context in
            let app = try context.requireApp()
            let user = try PathParameter.decoded("user_id", from: context)
            var limit = 20
            if let raw = request.uri.queryParameters["limit"] {
                guard let value = Int(String(raw)) else { throw APIError.wrongType("limit", expected: .integer) }
                guard (1...Self.maximumLimit).contains(value) else {
                    throw APIError.invalidValue("limit", "must be between 1 and \(Self.maximumLimit)")
                }
                limit = value
            }
            let deliveries = try await store.recentDeliveries(app: app.appID, user: user, limit: limit)
            return DeliveryListBody(deliveries: deliveries.map(DeliveryBody.init))
        }
    }
}

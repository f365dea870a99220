import Hummingbird
import PushCore
import PushStore

/// The delivery log, per app (behind `Api-Token`): what happened to message M for user U, and a
/// user's recent deliveries.
struct DeliveryLogAPI: Sendable {
    let store: any RelayStore
    /// Unix ms: acknowledgement times.
    let clock: @Sendable () -> Int64
    let bodyLimit: Int
    private let metrics = DeliveryMetrics.Handles()

    init(store: any RelayStore, clock: @escaping @Sendable () -> Int64, bodyLimit: Int) {
        self.store = store
        self.clock = clock
        self.bodyLimit = bodyLimit
    }

    /// Largest `limit` of the listing.
    static let maximumLimit = 200

    func register(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("push/deliveries") { request, context in
            let app = try context.requireApp()
            guard let rawMessage = request.uri.queryParameters["message_id"] else { throw APIError.missing("message_id") }
            guard let messageID = Int64(String(rawMessage)) else { throw APIError.wrongType("message_id", expected: .integer) }
            let user = try RequestParameter.query("user_id", from: request)
            let log = try await store.deliveryLog(app: app.appID, messageID: messageID, user: user)
            return DeliveryLogBody(log)
        }

        // A device says it got a push (its notification service extension, FirebaseMessagingService or HmsMessageService,
        // Sendbird's `markPushNotificationAsDelivered`): `{"device_token", "push_tracking_id"}` from the
        // payload. With a session token the push must be its user's; with a server credential,
        // the device token's current owner's.
        v3.post("sdk/push_delivery") { request, context in
            let (app, sessionUser) = try context.requireDevice()
            let body = try await request.jsonObject(limit: bodyLimit)
            guard let rawToken = try body.string("device_token") else { throw APIError.missing("device_token") }
            // An iOS device posts its APNs token (any case), an Android one its FCM or HMS token (as is).
            var candidates: [(provider: PushProvider, token: String)] = []
            if case .success(let token) = APNsTokenFormat.normalise(rawToken) { candidates.append((.apns, token)) }
            if case .success(let token) = OpaqueTokenFormat.fcm.normalise(rawToken) { candidates.append((.fcm, token)) }
            if case .success(let token) = OpaqueTokenFormat.hms.normalise(rawToken) { candidates.append((.hms, token)) }
            guard !candidates.isEmpty else {
                throw APIError.invalidValue("device_token", "is not an APNs, FCM or HMS device token")
            }
            guard let rawID = try body.string("push_tracking_id") else { throw APIError.missing("push_tracking_id") }
            guard let tracking = PushTrackingID(rawID) else {
                throw APIError.invalidValue("push_tracking_id", "is not one this relay wrote")
            }
            var owner = sessionUser
            if owner == nil {
                for candidate in candidates where owner == nil {
                    owner = try await store.owner(app: app.appID, token: candidate.token, provider: candidate.provider)
                }
            }
            guard let user = owner, tracking.names(user) else { throw APIError.notFound("Push") }
            let log = try await store.deliveryLog(app: app.appID, messageID: tracking.messageID, user: user)
            let deliveries = log.deliveries.filter { d in
                candidates.contains { $0.token.sameBytes(as: d.delivery.deviceToken) && $0.provider == d.delivery.provider }
            }
            guard !deliveries.isEmpty else { throw APIError.notFound("Push") }
            let now = clock()
            let acknowledged = Set(try await store.acknowledge(ids: deliveries.map(\.delivery.id), atMs: now))
            for logged in deliveries where acknowledged.contains(logged.delivery.id) {
                metrics.acknowledged(app: app.appID, delayMilliseconds: logged.delivery.sentAtMs.map { now - $0 })
            }
            return EmptyAnswer()
        }

        v3.get("users/:user_id/push/deliveries") { request, context in
            let app = try context.requireApp()
            let user = try RequestParameter.decoded("user_id", from: context)
            let limit = try RequestParameter.limit(from: request, default: 20, range: 1...Self.maximumLimit)
            let deliveries = try await store.recentDeliveries(app: app.appID, user: user, limit: limit)
            return DeliveryListBody(deliveries: deliveries.map(DeliveryBody.init))
        }
    }
}

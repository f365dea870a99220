import Hummingbird
import PushCore
import PushEngine
import PushStore
import StoreContract

/// The delivery log, per app (behind `Api-Token`): what happened to message M for user U, and a
/// user's recent deliveries and skipped messages.
struct DeliveryLogAPI: Sendable {
    let store: any RelayStore
    /// Unix ms: acknowledgement and click times.
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
            let messageID = try Self.messageID(request)
            let user = try RequestParameter.query("user_id", from: request)
            let log = try await store.deliveryLog(app: app.appID, messageID: messageID, user: user)
            return DeliveryLogBody(log)
        }

        // A device reports a push: it got it (its notification service extension, FirebaseMessagingService or
        // HmsMessageService, Sendbird's `markPushNotificationAsDelivered`) or the user opened it (the app's tap
        // handler, `markPushNotificationAsClicked`, which Sendbird's JavaScript SDK posts here with `event_type: CLICKED`).
        v3.post("sdk/push_delivery") { request, context in
            try await record(request, context: context, pathEvent: nil)
        }
        // The same report of a click under a path of its own, for apps that post it themselves.
        v3.post("sdk/push_click") { request, context in
            try await record(request, context: context, pathEvent: .clicked)
        }

        v3.get("users/:user_id/push/deliveries") { request, context in
            let app = try context.requireApp()
            let user = try RequestParameter.decoded("user_id", from: context)
            let limit = try RequestParameter.limit(from: request, default: 20, range: 1...Self.maximumLimit)
            let deliveries = try await store.recentDeliveries(app: app.appID, user: user, limit: limit)
            return DeliveryListBody(deliveries: deliveries.map(DeliveryBody.init))
        }
        v3.get("users/:user_id/push/skips") { request, context in
            let app = try context.requireApp()
            let user = try RequestParameter.decoded("user_id", from: context)
            let limit = try RequestParameter.limit(from: request, default: 20, range: 1...Self.maximumLimit)
            let skips = try await store.recentSkips(app: app.appID, user: user, limit: limit)
            return SkipListBody(skips: skips.map(SkipBody.init))
        }
    }

    /// `message_id`, or `notification_id` (a notification's deliveries carry its id negated:
    /// `NotificationPayload.messageID`); exactly one.
    private static func messageID(_ request: Request) throws(APIError) -> Int64 {
        let query = request.uri.queryParameters
        switch (query["message_id"], query["notification_id"]) {
        case (let raw?, nil):
            guard let id = Int64(String(raw)) else { throw APIError.wrongType("message_id", expected: .integer) }
            return id
        case (nil, let raw?):
            guard let id = Int64(String(raw)), id > 0 else { throw APIError.wrongType("notification_id", expected: .integer) }
            return NotificationPayload.messageID(ofNotification: id)
        case (nil, nil): throw APIError.missing("message_id")
        case (.some, .some): throw APIError.invalidValue("notification_id", "cannot be given with \"message_id\"")
        }
    }

    /// Records a device's report on the deliveries it names. With a session token the push must be
    /// its user's; with a server credential, the device token's current owner's. The caller is
    /// checked before the body is read.
    private func record(_ request: Request, context: RelayRequestContext, pathEvent: PushEventReport.Event?) async throws
        -> EmptyAnswer
    {
        let (app, sessionUser) = try context.requireDevice()
        let report = try PushEventReport(try await request.jsonObject(limit: bodyLimit), pathEvent: pathEvent)
        let deliveries = try await reportedDeliveries(report, app: app.appID, sessionUser: sessionUser)
        let ids = deliveries.map(\.delivery.id)
        let now = clock()
        // A clicked push was delivered: a click on one not acknowledged yet counts as its
        // acknowledgement too (`recordClicks` keeps that so in the store as well).
        let acknowledged = Set(try await store.acknowledge(ids: ids, atMs: now))
        for logged in deliveries where acknowledged.contains(logged.delivery.id) {
            metrics.acknowledged(app: app.appID, delayMilliseconds: logged.delivery.sentAtMs.map { now - $0 })
        }
        if report.event == .clicked {
            metrics.clicked(app: app.appID, count: try await store.recordClicks(ids: ids, atMs: now).count)
        }
        return EmptyAnswer()
    }

    /// The deliveries of the report's push to the reporting device; `400201` when there are none
    /// (unknown, or another user's).
    private func reportedDeliveries(_ report: PushEventReport, app: String, sessionUser: String?) async throws -> [LoggedDelivery] {
        var owner = sessionUser
        for candidate in report.candidates where owner == nil {
            owner = try await store.owner(app: app, token: candidate.token, provider: candidate.provider)
        }
        guard let user = owner, report.tracking.names(user) else { throw APIError.notFound("Push") }
        let log = try await store.deliveryLog(app: app, messageID: report.tracking.messageID, user: user)
        let deliveries = log.deliveries.filter { d in
            report.candidates.contains { $0.token.sameBytes(as: d.delivery.deviceToken) && $0.provider == d.delivery.provider }
        }
        guard !deliveries.isEmpty else { throw APIError.notFound("Push") }
        return deliveries
    }
}

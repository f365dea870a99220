import APNs
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PushCore
import PushStore

/// `POST /webhooks/sendbird`: verifies, plans and durably queues one offline-message event.
///
/// Order: body (size-limited) → envelope (`app_id`, `category`) → app known → signature →
/// category → event (members required) → recipient states in one read → `PushPlanner` →
/// group commit → 200 → wake the dispatcher. Nothing is stored unless the signature is right,
/// and 200 means the event and its deliveries are committed.
public struct WebhookIntake: Sendable {
    let store: PushStore
    let apps: AppRegistry
    let targets: any DeliveryTargetProvider
    let templates: ConfiguredTemplates
    let committer: EventCommitter
    let onCommit: @Sendable () -> Void
    let dispatcher: Dispatcher?
    let bodyLimit: Int
    let clock: @Sendable () -> Int64
    let logger: Logger
    /// One "event not accepted" line per result and second at most.
    let refusalLog = LogThrottle(interval: .seconds(1))

    /// - Parameters:
    ///   - onCommit: called after an event with pending deliveries commits (`dispatcher.wake`).
    ///   - dispatcher: when given, committed deliveries go straight to it (`Dispatcher.reserve`)
    ///     while it has room, instead of being claimed back from SQLite.
    ///   - clock: Unix milliseconds; stamps acceptance and expirations.
    public init(store: PushStore, apps: AppRegistry, targets: any DeliveryTargetProvider,
                templates: ConfiguredTemplates? = nil, committer: EventCommitter? = nil, onCommit: @escaping @Sendable () -> Void = {},
                dispatcher: Dispatcher? = nil,
                bodyLimit: Int = 1024 * 1024,
                clock: @escaping @Sendable () -> Int64 = PushStore.systemClockMilliseconds,
                logger: Logger = Logger(label: "WebhookIntake")) {
        self.store = store
        self.apps = apps
        self.targets = targets
        self.templates = templates ?? ConfiguredTemplates(apps: apps.apps)
        self.committer = committer ?? EventCommitter(store: store)
        self.onCommit = onCommit
        self.dispatcher = dispatcher
        self.bodyLimit = bodyLimit
        self.clock = clock
        self.logger = logger
    }

    /// The route path.
    public static let path = "webhooks/sendbird"

    public func register(on router: Router<RelayRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ in
            try await handle(request)
        }
    }

    func handle(_ request: Request) async throws -> Response {
        let body = try await Self.collect(request, limit: bodyLimit)
        let envelope: WebhookEnvelope
        do {
            envelope = try WebhookEnvelope(json: body)
        } catch {
            refused(category: "unknown", result: "invalid", appID: nil, verified: false)
            throw APIError.invalidJSON(error.description)
        }
        guard let app = apps.app(withID: envelope.appID) else {
            refused(category: envelope.category, result: "unknown_app", appID: envelope.appID, verified: false)
            throw APIError(status: .notFound, code: .notFound, message: "Application \"\(envelope.appID)\" is not configured on this relay.")
        }
        guard WebhookSignature.isValid(request.headers[.sendbirdSignature], body: body, apiToken: app.webhookSecret.value) else {
            refused(category: envelope.category, result: "bad_signature", appID: envelope.appID, verified: false)
            throw APIError(status: .unauthorized, code: .invalidAPIToken,
                           message: "Invalid value: \"x-sendbird-signature\" is missing or does not match the body.")
        }
        guard envelope.isOfflineMessageEvent else {
            DeliveryMetrics.webhookEvent(category: String(envelope.category.prefix(64)), result: "ignored")
            logger.debug("event ignored: not an offline message event", metadata: [
                "app": .string(app.appID), "category": .string(String(envelope.category.prefix(64))),
            ])
            return JSONResponse.make(WebhookAnswer(result: "ignored", deliveries: 0))
        }
        let event: WebhookEvent
        do {
            event = try envelope.offlineMessageEvent()
        } catch {
            refused(category: envelope.category, result: "invalid", appID: envelope.appID, verified: true)
            throw APIError(code: error == .membersMissing ? .requiredFieldMissing : .invalidValue, message: error.description)
        }
        guard let target = targets.target(forApp: app.appID) else {
            refused(category: envelope.category, result: "no_target", appID: envelope.appID, verified: true)
            throw APIError(status: .serviceUnavailable, code: .unexpected,
                           message: "Application \"\(app.appID)\" has no APNs configuration; the event was not accepted.")
        }
        var accepted = try await plan(event, target: target)
        let count = accepted.deliveries.count
        accepted.handedOff = count > 0 && dispatcher?.reserve(count) == true
        let ids: [Int64]?
        do {
            ids = try await committer.commit(accepted)
        } catch {
            if accepted.handedOff { dispatcher?.release(count) }
            throw error
        }
        let isNew = ids != nil
        DeliveryMetrics.webhookEvent(category: envelope.category, result: isNew ? "accepted" : "duplicate")
        logger.info(isNew ? "event accepted" : "duplicate event, not pushed again", metadata: [
            "app": .string(app.appID), "message_id": .stringConvertible(event.message.messageID),
            "channel": .string(event.channel.channelURL), "members": .stringConvertible(accepted.decisions.count),
            "deliveries": .stringConvertible(isNew ? count : 0),
        ])
        if let ids {
            var counts: [String: Int] = [:]
            for decision in accepted.decisions { counts[decision.decision, default: 0] += 1 }
            DeliveryMetrics.decisions(counts)
            if accepted.handedOff {
                if dispatcher?.handOff(accepted.deliveryRecords(ids: ids)) != true {
                    await requeue(ids)
                }
            } else if count > 0 {
                onCommit()
            }
        } else if accepted.handedOff {
            dispatcher?.release(count)
        }
        return JSONResponse.make(WebhookAnswer(result: isNew ? "accepted" : "duplicate", deliveries: isNew ? accepted.deliveries.count : 0))
    }

    /// Counts and logs a webhook call answered without accepting an event. Before the signature
    /// is checked, `category` and `appID` are anyone's: the metric label is then only the offline
    /// message category or `other` (one time series per made-up category would grow without
    /// bound), the log line cuts them to 64 characters, and lines are throttled per result (the
    /// metric counts every one).
    private func refused(category: String, result: String, appID: String?, verified: Bool) {
        let label = verified || category == WebhookEvent.offlineMessageCategory ? String(category.prefix(64)) : "other"
        DeliveryMetrics.webhookEvent(category: label, result: result)
        guard let heldBack = refusalLog.admit(result, nowMs: clock()) else { return }
        var metadata: Logger.Metadata = [
            "category": .string(String(category.prefix(64))), "result": .string(result), "app": .string(String((appID ?? "?").prefix(64))),
        ]
        if heldBack > 0 { metadata["more_not_logged"] = .stringConvertible(heldBack) }
        logger.info("event not accepted", metadata: metadata)
    }

    /// The dispatcher stopped between reservation and commit: make the deliveries claimable
    /// again. Should this fail too, they stay in flight until `resumeInFlight()` at the next start.
    private func requeue(_ ids: [Int64]) async {
        do {
            try await store.requeue(ids: ids)
        } catch {
            logger.error("could not put handed-off deliveries back to pending; the next start will",
                         metadata: ["count": .stringConvertible(ids.count), "error": "\(error)"])
        }
    }

    /// Loads the members' state in one read and turns the plan into rows to store.
    func plan(_ event: WebhookEvent, target: DeliveryTarget) async throws -> AcceptedEvent {
        // Members skipped for reasons in the event alone (sender, online, …) need no lookup.
        let policy = RecipientPolicy(options: target.options)
        let members = event.members.filter { policy.skipBeforePreferences(event: event, member: $0) == nil }.map(\.userID)
        let (states, stored) = try store.recipientStatesAndTemplates(
            app: event.appID, users: members, channel: event.channel.channelURL)
        let lookup = RecipientLookup(states)
        let nowMs = clock()
        let planner = PushPlanner(options: target.options,
                                  templates: templates.templates(forApp: event.appID).replacing(stored))
        let plan = planner.plan(event, lookup: lookup, now: Date(timeIntervalSince1970: Double(nowMs) / 1000))
        let expiresAt = nowMs + target.timeToLive.milliseconds
        return AcceptedEvent(
            appID: event.appID, messageID: event.message.messageID, channelURL: event.channel.channelURL, acceptedAtMs: nowMs,
            decisions: plan.recipients.map {
                RecipientDecisionRecord(userID: $0.userID, decision: $0.decision.skipReason?.rawValue ?? RecipientDecisionRecord.push)
            },
            deliveries: plan.deliveries.map {
                NewDelivery(userID: $0.userID, deviceToken: $0.deviceToken.token, payload: $0.payload, apnsID: APNsID.random(),
                            pushType: target.pushType.rawValue, priority: target.priority.rawValue, expiresAtMs: expiresAt)
            })
    }

    static func collect(_ request: Request, limit: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.bodyTooLarge(limit: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limit: limit)
        }
    }

}

/// The webhook's answer: `accepted`, `duplicate` or `ignored`, and how many pushes were queued.
struct WebhookAnswer: Encodable {
    var result: String
    var deliveries: Int
}

extension HTTPField.Name {
    static let sendbirdSignature = HTTPField.Name("x-sendbird-signature")!
}

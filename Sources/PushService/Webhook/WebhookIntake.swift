import PushEngine
import PushSending
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PushCore
import PushStore
import StoreContract

/// `POST /webhooks/sendbird[/{app_id}]`: verifies, plans and durably queues one offline-message
/// event.
///
/// Order: signature header well-formed → body (size-limited) → signature, under the app the path
/// names or, on the plain path, the app the body's `app_id` names (one HMAC either way) → the
/// backlog promise (503 while not even one more push of the app fits) → only then parse: envelope
/// (`app_id` must be the signing app), category → event (members required) → recipient states in
/// one read → `PushPlanner` → group commit → 200 → wake the dispatcher. An unsigned or forged
/// body costs one scan and at most one HMAC and is never parsed; nothing is stored unless the
/// signature is right, and 200 means the event and its deliveries are committed.
public struct WebhookIntake: Sendable {
    let store: any RelayStore
    let apps: AppRegistry
    let targets: any DeliveryTargetProvider
    let templates: ConfiguredTemplates
    let committer: EventCommitter
    let onCommit: @Sendable () -> Void
    /// The store's writability as `/ready` last saw it, on a store that can be out of reach
    /// (PostgreSQL): while it is down, events are refused at once instead of waiting for a
    /// connection the pool cannot make.
    let storeReadiness: DatabaseReadiness?
    let dispatcher: Dispatcher?
    let bodyLimit: Int
    let clock: @Sendable () -> Int64
    let logger: Logger
    /// One "event not accepted" line per result and second at most.
    let refusalLog = LogThrottle(interval: .seconds(1))
    let metrics = DeliveryMetrics.Handles()

    /// - Parameters:
    ///   - onCommit: called after an event with pending deliveries commits (`dispatcher.wake`).
    ///   - dispatcher: when given, committed deliveries go straight to it (`Dispatcher.reserve`)
    ///     while it has room, instead of being claimed back from SQLite.
    ///   - clock: Unix milliseconds; stamps acceptance and expirations.
    ///   - storeReadiness: when given, events are refused (503) while it reports the store unwritable.
    public init(
        store: any RelayStore, apps: AppRegistry, targets: any DeliveryTargetProvider,
        templates: ConfiguredTemplates? = nil, committer: EventCommitter? = nil, onCommit: @escaping @Sendable () -> Void = {},
        dispatcher: Dispatcher? = nil, storeReadiness: DatabaseReadiness? = nil,
        bodyLimit: Int = 1024 * 1024,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        logger: Logger = Logger(label: "WebhookIntake")
    ) {
        self.store = store
        self.apps = apps
        self.targets = targets
        self.templates = templates ?? ConfiguredTemplates(apps: apps.apps)
        self.committer = committer ?? EventCommitter(store: store)
        self.onCommit = onCommit
        self.dispatcher = dispatcher
        self.storeReadiness = storeReadiness
        self.bodyLimit = bodyLimit
        self.clock = clock
        self.logger = logger
    }

    /// The configured app the body's top-level `app_id` names, found without parsing: 404 for
    /// an app not configured here (as the path's app id gets), 401 when none can be read.
    func namedApp(in body: Data) throws -> Int {
        guard let named = body.withUnsafeBytes({ bytes in WebhookAppPeek.appID(in: bytes) }) else {
            refused(result: "bad_signature", appID: nil)
            throw Self.badSignature
        }
        guard let index = apps.index(ofApp: named) else {
            refused(result: "unknown_app", appID: named)
            throw Self.notConfigured(named)
        }
        return index
    }

    /// The route path; `/{app_id}` after it names the app, which saves reading its `app_id`.
    public static let path = "webhooks/sendbird"

    public func register(on router: Router<RelayRequestContext>) {
        router.post(RouterPath(Self.path)) { request, _ in
            try await timed { try await handle(request, pathAppID: nil) }
        }
        router.post(RouterPath(Self.path + "/:app_id")) { request, context in
            let raw = context.parameters.get("app_id") ?? ""
            return try await timed { try await handle(request, pathAppID: RequestParameter.percentDecoded(raw) ?? raw) }
        }
    }

    /// `answer`, counted in flight while it runs and its time recorded whatever it answers.
    private func timed(_ answer: () async throws -> WebhookAnswer) async throws -> WebhookAnswer {
        let start = ContinuousClock.now
        metrics.webhookStarted()
        defer { metrics.webhookAnswered(after: .now - start) }
        return try await answer()
    }

    func handle(_ request: Request, pathAppID: String?) async throws -> WebhookAnswer {
        let (app, body) = try await verified(request, pathAppID: pathAppID)
        let envelope = try envelope(of: body, signedBy: app)
        if envelope.isReadEvent, let badgeSync = app.badgeSync {
            return try await syncBadges(envelope, app: app, setting: badgeSync)
        }
        guard envelope.isOfflineMessageEvent else {
            metrics.webhookEvent(category: DeliveryMetrics.categoryLabel(envelope.category), result: "ignored")
            logger.debug(
                "event ignored: not an offline message event",
                metadata: [
                    "app": .string(app.appID), "category": .string(LogText.cut(envelope.category)),
                ])
            return WebhookAnswer(result: .ignored, deliveries: 0)
        }
        let event: WebhookEvent
        do {
            event = try envelope.offlineMessageEvent()
        } catch {
            refused(result: "invalid", appID: app.appID, category: envelope.category)
            throw APIError(code: error == .membersMissing ? .requiredFieldMissing : .invalidValue, message: error.description)
        }
        try checkSize(event.members.count, of: "members", app: app, category: envelope.category)
        let target = try target(of: app, category: envelope.category)
        var accepted = try await storeStep(app: app.appID, category: envelope.category) {
            try await IntakePlanner(store: self.store).plan(
                event, target: target, templates: self.templates.templates(forApp: event.appID), badgeSync: app.badgeSync != nil,
                nowMs: self.clock())
        }
        let count = accepted.deliveries.count
        try admit(app: app.appID, count: count, category: envelope.category)
        // Dropped unused (an error thrown, a duplicate event), the reservation gives its room back.
        var reservation = count > 0 ? dispatcher?.reserve(count, app: app.appID) : nil
        accepted.handedOff = reservation != nil
        let committing = accepted
        let commitStart = ContinuousClock.now
        let ids = try await storeStep(app: app.appID, category: envelope.category) { try await self.committer.commit(committing) }
        metrics.eventCommitted(after: .now - commitStart)
        let isNew = ids != nil
        if isNew, count > 0 { dispatcher?.backlog.accepted(app: app.appID, count: count, atMs: accepted.acceptedAtMs) }
        metrics.webhookEvent(category: WebhookEvent.offlineMessageCategory, result: isNew ? "accepted" : "duplicate")
        logger.info(
            isNew ? "event accepted" : "duplicate event, not pushed again",
            metadata: [
                "app": .string(app.appID), "message_id": .stringConvertible(event.message.messageID),
                "channel": .string(event.channel.channelURL), "members": .stringConvertible(accepted.decisions.count),
                "deliveries": .stringConvertible(isNew ? count : 0),
            ])
        if let ids {
            var counts: [PushDecision: Int] = [:]
            for decision in accepted.decisions { counts[decision.decision, default: 0] += 1 }
            metrics.decisions(counts)
            if let dispatcher, let reservation = reservation.take() {
                if !dispatcher.handOff(reservation, accepted.deliveryRecords(ids: ids)) {
                    await requeue(ids)
                }
            } else if count > 0 {
                onCommit()
            }
        } else {
            reservation.take()?.release()
        }
        return WebhookAnswer(result: isNew ? .accepted : .duplicate, deliveries: isNew ? accepted.deliveries.count : 0)
    }

    /// The signing app and the body, checked before anything is parsed: the signature header's
    /// form, the app the path names (and its room), the body (size-limited), one HMAC, the app's
    /// room again and the store's readiness.
    private func verified(_ request: Request, pathAppID: String?) async throws -> (AppConfiguration, Data) {
        // Who may have signed it: the app the path names, else the one the body names (places in
        // `configured`, read in place: see `AppRegistry.index(ofApp:)`).
        let configured = apps.apps
        var pathIndex: Int?
        if let pathAppID {
            guard let index = apps.index(ofApp: pathAppID) else {
                refused(result: "unknown_app", appID: pathAppID)
                throw Self.notConfigured(pathAppID)
            }
            pathIndex = index
        }
        guard let digest = WebhookSignature.digest(fromHeader: request.headers[.sendbirdSignature]) else {
            refused(result: "bad_signature", appID: pathAppID)
            throw Self.badSignature
        }
        // The path names the app and not even one more of its pushes fits: refuse before reading
        // and signing the body. Checking a 100 KB body's HMAC costs about 200 µs, and under a
        // closed-loop overload of 1,000-member events the relay refused thousands a second, so
        // refusing after the check took CPU from sending. This tells a sender without the key
        // only that the app is busy; the write path is not touched either way.
        if let pathIndex { try admit(app: configured[pathIndex].appID, count: 1, category: nil, signed: false) }
        let body = try await request.collectBody(limit: bodyLimit)
        // One key is tried, whatever the body and however many apps are configured: the path's
        // app's, the only app's, or the one whose id the body's top-level `app_id` holds
        // (`WebhookAppPeek`, a scan without parsing). The envelope must name the same app once parsed.
        let signer = try pathIndex ?? (configured.count == 1 ? 0 : namedApp(in: body))
        guard apps.webhookKeys[signer].matches(digest, body: body) else {
            refused(result: "bad_signature", appID: pathAppID)
            throw Self.badSignature
        }
        let app = configured[signer]
        // While not even one more push of the app fits, refuse before parsing: a refusal must cost
        // far less than an acceptance, or under overload the relay spends its CPU refusing (a
        // 1,000-member event's body is 100 KB of JSON). Sendbird retries any event it sends.
        // (Checked above already when the path names the app; this is for the path without one.)
        try admit(app: app.appID, count: 1, category: nil)
        if let storeReadiness, await storeReadiness.current() != nil {
            refused(result: "store_unavailable", appID: app.appID)
            throw Self.storeUnavailable
        }
        return (app, body)
    }

    /// The parsed envelope, which must name the app whose key signed it (the same bytes).
    private func envelope(of body: Data, signedBy app: AppConfiguration) throws -> WebhookEnvelope {
        let envelope: WebhookEnvelope
        do {
            envelope = try WebhookEnvelope(json: body)
        } catch {
            refused(result: "invalid", appID: app.appID)
            throw APIError.invalidJSON(error.description)
        }
        guard envelope.appID.sameBytes(as: app.appID) else {
            // Signed, but by another app's key than the one the body names.
            guard apps.index(ofApp: envelope.appID) != nil else {
                refused(result: "unknown_app", appID: envelope.appID)
                throw Self.notConfigured(envelope.appID)
            }
            refused(result: "bad_signature", appID: envelope.appID)
            throw Self.badSignature
        }
        return envelope
    }

    static func notConfigured(_ appID: String) -> APIError {
        APIError(status: .notFound, code: .notFound, message: "Application \"\(LogText.cut(appID))\" is not configured on this relay.")
    }

    /// A `group_channel:message_read` event of an app with `badge_sync`: each reader's new total
    /// goes to the store, which queues, folds or skips their badge push (`BadgeStore`); 200 once
    /// that is committed.
    private func syncBadges(_ envelope: WebhookEnvelope, app: AppConfiguration, setting: BadgeSyncSetting) async throws
        -> WebhookAnswer
    {
        let read: WebhookReadEvent
        do {
            read = try envelope.readEvent()
        } catch {
            refused(result: "invalid", appID: app.appID, category: envelope.category)
            throw APIError(code: error.field == nil ? .invalidValue : .requiredFieldMissing, message: error.description)
        }
        try checkSize(read.updateCount, of: "read_updates", app: app, category: envelope.category)
        let target = try target(of: app, category: envelope.category)
        let settings = BadgePushSettings(
            intervalMs: setting.interval.milliseconds, timeToLiveMs: target.timeToLive.milliseconds, provider: target.badgeProvider)
        let updates = read.readers.map { BadgeUpdate(userID: $0.userID, badge: $0.totalUnread, readAtMs: $0.readAtMs) }
        let nowMs = clock()
        let result = try await storeStep(app: app.appID, category: envelope.category) {
            try await self.store.syncBadges(app: app.appID, updates: updates, nowMs: nowMs, settings: settings)
        }
        // Badge pushes are pushes: counted in the backlog (their completion is subtracted from
        // it), not in its oldest age (they wait out their interval on purpose). One a later
        // message push supersedes never completes here: the dispatcher's periodic reconcile with
        // the store's count takes it out.
        if result.queued > 0 { dispatcher?.backlog.accepted(app: app.appID, count: result.queued, atMs: nowMs, countsAge: false) }
        metrics.webhookEvent(category: WebhookReadEvent.category, result: "accepted")
        metrics.badgeSync(app: app.appID, result)
        logger.info(
            "read event: badges synced",
            metadata: [
                "app": .string(app.appID), "channel": .string(read.channelURL), "queued": .stringConvertible(result.queued),
                "coalesced": .stringConvertible(result.coalesced), "unchanged": .stringConvertible(result.unchanged),
                "stale": .stringConvertible(result.stale),
            ])
        if result.queued > 0 { onCommit() }
        return WebhookAnswer(result: .accepted, deliveries: result.queued)
    }

    /// An event's list (`members`, `read_updates`) within `apps[].limits.max_members_per_event`.
    private func checkSize(_ count: Int, of field: String, app: AppConfiguration, category: String) throws {
        guard count <= app.limits.maxMembersPerEvent else {
            refused(result: "too_many_members", appID: app.appID, category: category)
            throw APIError(
                code: .invalidLength,
                message: "Invalid value: \"\(field)\" lists \(count) entries; "
                    + "this app accepts at most \(app.limits.maxMembersPerEvent) per event (apps[].limits.max_members_per_event).")
        }
    }

    /// Where the app's pushes go; 503 for an app without any provider's settings.
    private func target(of app: AppConfiguration, category: String) throws -> DeliveryTarget {
        guard let target = targets.target(forApp: app.appID) else {
            refused(result: "no_target", appID: app.appID, category: category)
            throw APIError(
                status: .serviceUnavailable, code: .unexpected,
                message: "Application \"\(app.appID)\" has no push provider configured; the event was not accepted.")
        }
        return target
    }

    /// A read or the commit of the store: when it fails (the database unreachable, a PostgreSQL
    /// failover, a full disk) nothing was accepted, and the answer is 503 with Retry-After, which
    /// Sendbird retries, not a 500.
    private func storeStep<T>(app: String, category: String?, _ step: () async throws -> T) async throws -> T {
        do {
            return try await step()
        } catch let error as APIError {
            throw error
        } catch {
            DatabaseErrors.count(.webhook)
            refused(result: "store_unavailable", appID: app, category: category)
            throw Self.storeUnavailable
        }
    }

    static let storeUnavailable = APIError(
        status: .serviceUnavailable, code: .unexpected,
        message: "The relay's database is unavailable; the event was not accepted. Retry later.", retryAfterSeconds: 1)

    /// Throws the backlog promise's 503 when `count` more pushes of `app` would wait too long.
    /// 503 + Retry-After when `count` more pushes of `app` do not fit in `delivery.max_backlog`.
    /// Before the signature is checked (`signed` false) the answer does not say how many pushes
    /// wait: a sender without the key learns only that the app is busy.
    private func admit(app: String, count: Int, category: String?, signed: Bool = true) throws {
        guard let backlog = dispatcher?.backlog, case .refuse(let retryAfter) = backlog.admit(app: app, count: count, nowMs: clock())
        else { return }
        refused(result: "backlog_full", appID: app, category: category)
        let waiting =
            signed
            ? "The relay has \(backlog.unsent(app: app)) pushes of this app waiting, more than it"
            : "The relay has more pushes of this app waiting than it"
        throw APIError(
            status: .serviceUnavailable, code: .unexpected,
            message: waiting + " can send within delivery.max_backlog; retry after \(retryAfter) s.",
            retryAfterSeconds: retryAfter)
    }

    static let badSignature = APIError(
        status: .unauthorized, code: .invalidAPIToken,
        message: "Invalid value: \"x-sendbird-signature\" is missing or does not match the body.")

    /// Counts and logs a webhook call answered without accepting an event. `category` is known
    /// only once the body is verified and parsed; before that the metric label is `other` (one
    /// time series per made-up category would grow without bound). Lines are throttled per
    /// result (the metric counts every one); the log handler escapes and cuts the values.
    private func refused(result: String, appID: String?, category: String? = nil) {
        metrics.webhookEvent(category: category.map(DeliveryMetrics.categoryLabel) ?? "other", result: result)
        guard let heldBack = refusalLog.admit(result, nowMs: clock()) else { return }
        var metadata: Logger.Metadata = ["result": .string(result), "app": .string(LogText.cut(appID ?? "?"))]
        if let category { metadata["category"] = .string(LogText.cut(category)) }
        if heldBack > 0 { metadata["more_not_logged"] = .stringConvertible(heldBack) }
        logger.info("event not accepted", metadata: metadata)
    }

    /// The dispatcher stopped between reservation and commit: make the deliveries claimable
    /// again. Should this fail too, they stay in flight until `resumeInFlight()` at the next start.
    private func requeue(_ ids: [Int64]) async {
        do {
            try await store.requeue(ids: ids)
        } catch {
            DatabaseErrors.count(.record)
            logger.error(
                "could not put handed-off deliveries back to pending; the next start will",
                metadata: ["count": .stringConvertible(ids.count), "error": "\(store.describe(error))"])
        }
    }
}

extension HTTPField.Name {
    static let sendbirdSignature = HTTPField.Name("x-sendbird-signature")!
}

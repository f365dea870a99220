import Foundation
import LogRedaction
import Logging
import ProviderDriver
import PushCore
import PushEngine
import PushSending
import PushStore
import StoreContract
import UUIDText

/// Sends one test push to a user's devices, or to one device token, through the app's senders
/// (the dispatcher's: `DeliveryTarget.senders`), and reports each provider's answer. Behind both
/// `POST /v3/push/test` and `push-relay test-push`.
///
/// Unlike a message's push it ignores preferences, do-not-disturb and snooze, and skips the
/// queue: each device's push is sent at once and waited for, up to `timeout`, never retried. A
/// dead token is removed as a queued push's would be (same rule), and every push is logged as a
/// delivery marked as a test, under the user (message id 0).
public struct TestPush: Sendable {
    let store: any RelayStore
    let targets: any DeliveryTargetProvider
    /// Each provider's deadline.
    let timeout: Duration
    /// Unix ms: the push's expiry and the log's times.
    let clock: @Sendable () -> Int64
    let logger: Logger
    private let metrics = DeliveryMetrics.Handles()

    /// How long a provider may hold a test push for a device that is offline: the push means "now".
    public static let timeToLive: Duration = .seconds(600)
    /// Each provider's deadline unless given: someone is waiting for the answer, and a provider
    /// silent for 5 s is itself the finding.
    public static let defaultTimeout: Duration = .seconds(5)

    public init(
        store: any RelayStore, targets: any DeliveryTargetProvider, timeout: Duration = TestPush.defaultTimeout,
        clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds, logger: Logger
    ) {
        self.store = store
        self.targets = targets
        self.timeout = timeout
        self.clock = clock
        self.logger = logger
    }

    /// Sends `request` for `app` and reports every device's answer.
    /// - Throws: `APIError` 400201 for an unknown user, one without device tokens, or a device
    ///   token not registered in the app; the store's error when it cannot be read.
    public func send(_ request: TestPushRequest, app: String) async throws -> TestPushReport {
        let (user, devices) = try await recipients(of: request.target, app: app)
        let target = targets.target(forApp: app)
        let results = await withTaskGroup(of: (Int, TestPushResult).self) { group in
            for (index, device) in devices.enumerated() {
                group.addTask {
                    (index, await send(request, to: device, user: user, app: app, sender: target?.senders[device.provider]))
                }
            }
            var results: [TestPushResult?] = Array(repeating: nil, count: devices.count)
            for await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
        return TestPushReport(appID: app, userID: user, results: results)
    }

    /// The user named and their devices, or the device named and its owner.
    private func recipients(of target: TestPushRequest.Target, app: String) async throws -> (user: String?, devices: [DeviceToken]) {
        switch target {
        case .user(let user):
            guard let tokens = try await store.tokens(app: app, user: user) else { throw APIError.notFound("User") }
            guard !tokens.isEmpty else {
                throw APIError(code: .notFound, message: "\"Device token\" not found: the user has no device tokens.")
            }
            return (user, tokens)
        case .device(let provider, let token):
            // Only a token registered in the app: the app's credentials are not a way to reach any
            // device whose token someone holds.
            guard let owner = try await store.owner(app: app, token: token, provider: provider) else {
                throw APIError(code: .notFound, message: "\"Device token\" not found: it is not registered in this app.")
            }
            return (owner, [DeviceToken(token: token, registeredAtMs: 0, provider: provider)])
        }
    }

    /// One device: sent, answered, logged.
    private func send(
        _ request: TestPushRequest, to device: DeviceToken, user: String?, app: String, sender: (any PushSender)?
    ) async -> TestPushResult {
        let startedAtMs = clock()
        let provider = ProviderCatalog.installed.description(of: device.provider)
        let push = OutgoingPush(
            pushID: PushID.random(), deviceToken: device.token,
            payload: TestPushPayload.bytes(
                for: provider?.payloadFormat ?? .notification, message: request.message, title: request.title),
            pushType: provider?.testPushType, priority: 10, expiresAtMs: startedAtMs + Self.timeToLive.milliseconds)
        let result: PushSendResult
        var latency: Duration?
        if let sender {
            let started = ContinuousClock.now
            result = await TestPushWait.send(push, through: sender, deadline: timeout)
            latency = ContinuousClock.now - started
        } else {
            let settings = device.provider.rawValue
            result = PushSendResult(.rejected, error: "the app has no \(settings) settings (apps[].\(settings))")
        }
        let answeredAtMs = clock()
        let outcome = TestPushOutcome(result, answeredAtMs: answeredAtMs)
        metrics.testPush(app: app, provider: device.provider, status: outcome.status.rawValue)
        let removed = await log(
            push, device: device, user: user, app: app, result: result, outcome: outcome, startedAtMs: startedAtMs,
            answeredAtMs: answeredAtMs)
        // APNs names a push by the apns-id it was sent with, in its answers too.
        let sentID = provider?.logFields.pushIDIsProviderID == true && result.answered ? UUIDText.lowercase(push.pushID) : nil
        let report = TestPushResult(
            provider: device.provider, deviceToken: Redaction.redact(device.token), status: outcome.status, httpStatus: result.status,
            reason: result.reason, error: result.error.map(Redaction.scrub), pushID: push.pushID,
            providerMessageID: outcome.providerMessageID ?? sentID, latencyMs: latency?.milliseconds, tokenRemoved: removed)
        logger.info("test push", metadata: metadata(report, app: app, user: user))
        return report
    }

    /// Logs the push as a test delivery (removing a dead token); returns whether a token was
    /// removed. A failure to log is logged: the provider's answer is still reported.
    private func log(
        _ push: OutgoingPush, device: DeviceToken, user: String?, app: String, result: PushSendResult, outcome: TestPushOutcome,
        startedAtMs: Int64, answeredAtMs: Int64
    ) async -> Bool {
        let delivery = NewDelivery(
            userID: user ?? "", deviceToken: device.token, payload: Data(push.payload), pushID: push.pushID,
            provider: device.provider, pushType: push.pushType ?? device.provider.rawValue, priority: push.priority,
            expiresAtMs: push.expiresAtMs)
        let attempt = DeliveryAttempt(
            atMs: answeredAtMs, status: result.status, reason: result.reason, error: result.error, pushID: push.pushID)
        do {
            let recorded = try await store.recordTestDelivery(
                TestDelivery(
                    appID: app, delivery: delivery, createdAtMs: startedAtMs, state: outcome.state, atMs: answeredAtMs, attempt: attempt,
                    providerMessageID: outcome.providerMessageID, tokenRemoval: outcome.tokenRemoval))
            if recorded.tokenRemoved {
                metrics.tokenRemoved(app: app, provider: device.provider, reason: result.label ?? "other")
            }
            return recorded.tokenRemoved
        } catch {
            logger.error(
                "logging a test push failed",
                metadata: ["app": .string(app), "push_id": .string(UUIDText.lowercase(push.pushID)), "error": "\(store.describe(error))"])
            return false
        }
    }

    private func metadata(_ result: TestPushResult, app: String, user: String?) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "app": .string(app), "provider": .string(result.provider.rawValue), "token": .string(result.deviceToken),
            "push_id": .string(UUIDText.lowercase(result.pushID)), "status": .string(result.status.rawValue),
        ]
        if let user { metadata["user"] = .string(user) }
        if let status = result.httpStatus { metadata["http_status"] = .stringConvertible(status) }
        if let reason = result.reason { metadata["reason"] = .string(reason) }
        if result.tokenRemoved { metadata["token_removed"] = "true" }
        return metadata
    }
}

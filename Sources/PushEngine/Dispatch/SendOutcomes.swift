import Foundation
import LogRedaction
import Logging
import PushCore
import PushSending
import StoreContract
import UUIDText

/// What a sender's answer means for the delivery, the same for every provider: the outcome to
/// record (sent, retry at, token removed, failed, put back), with its metrics and log line.
/// Provider differences end at the seam (`PushSendOutcome`); nothing here branches on one.
struct SendOutcomes: Sendable {
    let retry: RetryPolicy
    let metrics: DeliveryMetrics.Handles
    let logger: Logger
    /// A value in 0..<1 for backoff jitter.
    let random: @Sendable () -> Double

    /// The outcome of `result` for `delivery`, at `nowMs`.
    func outcome(of delivery: DeliveryRecord, _ result: PushSendResult, nowMs: Int64) -> DeliveryOutcome {
        let attempt = DeliveryAttempt(
            atMs: nowMs, status: result.status, reason: result.reason, error: result.error, pushID: delivery.pushID)
        switch result.outcome {
        case .delivered:
            return sent(delivery, attempt: attempt, providerID: result.outcome.keptProviderID, moved: result.tokenConfiguration)
        case .tokenDead(let death):
            return tokenInvalid(
                delivery, attempt: attempt, reason: result.label ?? "other", rule: TokenRemovalRule(death, answeredAtMs: nowMs))
        case .rejected:
            return result.answered
                ? rejected(delivery, attempt: attempt, reason: result.label ?? result.status.map(String.init) ?? "other")
                : unanswered(delivery, attempt: attempt)
        case .credentialsRefused:
            return credentialsRefused(delivery, attempt: attempt, reason: result.label ?? "other")
        case .retry(let after):
            // The label, not the provider's raw reason: an `expired` count must not grow its label set.
            return retryOutcome(
                delivery, attempt: attempt, suggested: after, reason: result.label ?? result.status.map(String.init) ?? "transport")
        case .notSent:
            return putBack(delivery, nowMs: nowMs)
        }
    }

    /// Not sent (shutdown): pending again, due at once, no attempt counted.
    func putBack(_ delivery: DeliveryRecord, nowMs: Int64) -> DeliveryOutcome {
        DeliveryOutcome(deliveryID: delivery.id, state: .pending, atMs: nowMs, attempt: nil, nextAttemptAtMs: nowMs)
    }

    /// Accepted; `moved`: through another of the app's configurations than the token's, which
    /// the token now belongs to (its attempt row says so).
    private func sent(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, providerID: String?, moved: String? = nil)
        -> DeliveryOutcome
    {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "sent", reason: "")
        if let moved {
            logger.notice(
                "device token answered under another configuration: kept, and moved to it",
                metadata: logMetadata(delivery, status: attempt.status).merging(["configuration": .string(moved)]) { $1 })
            return DeliveryOutcome(
                deliveryID: delivery.id, state: .sent, atMs: attempt.atMs, attempt: attempt, providerMessageID: providerID,
                tokenConfiguration: moved)
        }
        logger.debug("push sent", metadata: logMetadata(delivery, status: attempt.status))
        // A 200 says nothing an attempt row would add beyond the provider's id the delivery keeps.
        let logged =
            attempt.status == 200
            ? DeliveryAttempt(atMs: attempt.atMs, status: 200, reason: nil, error: nil, pushID: attempt.pushID) : attempt
        return DeliveryOutcome(deliveryID: delivery.id, state: .sent, atMs: attempt.atMs, attempt: logged, providerMessageID: providerID)
    }

    private func tokenInvalid(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, reason: String, rule: TokenRemovalRule)
        -> DeliveryOutcome
    {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "token_invalid", reason: reason)
        metrics.tokenRemoved(app: delivery.appID, provider: delivery.provider, reason: reason)
        logger.notice("device token removed", metadata: logMetadata(delivery, status: attempt.status, reason: attempt.reason))
        return DeliveryOutcome(deliveryID: delivery.id, state: .tokenInvalid, atMs: attempt.atMs, attempt: attempt, tokenRemoval: rule)
    }

    private func rejected(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, reason: String) -> DeliveryOutcome {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: reason)
        logger.warning(
            "push rejected by the provider",
            metadata: logMetadata(delivery, status: attempt.status, reason: attempt.reason))
        return DeliveryOutcome(deliveryID: delivery.id, state: .failed, atMs: attempt.atMs, attempt: attempt)
    }

    /// No answer, and none worth waiting for (a request the client refused, a server that does
    /// not speak HTTP/2).
    private func unanswered(_ delivery: DeliveryRecord, attempt: DeliveryAttempt) -> DeliveryOutcome {
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: "transport")
        logger.warning("push failed", metadata: logMetadata(delivery, reason: attempt.error))
        return DeliveryOutcome(deliveryID: delivery.id, state: .failed, atMs: attempt.atMs, attempt: attempt)
    }

    private func credentialsRefused(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, reason: String) -> DeliveryOutcome {
        metrics.credentialError(app: delivery.appID, provider: delivery.provider, reason: reason)
        metrics.push(app: delivery.appID, provider: delivery.provider, status: "failed", reason: reason)
        logger.error(
            "the provider refused the app's credentials",
            metadata: logMetadata(delivery, status: attempt.status, reason: attempt.reason ?? attempt.error))
        return DeliveryOutcome(deliveryID: delivery.id, state: .failed, atMs: attempt.atMs, attempt: attempt)
    }

    private func retryOutcome(_ delivery: DeliveryRecord, attempt: DeliveryAttempt, suggested: Duration, reason: String)
        -> DeliveryOutcome
    {
        let attempts = delivery.attempts + 1
        let delay = retry.delay(attempts: attempts, suggested: suggested, random: random())
        let next = attempt.atMs + delay.milliseconds
        if next >= delivery.expiresAtMs {
            metrics.push(app: delivery.appID, provider: delivery.provider, status: "expired", reason: reason)
            logger.warning(
                "push expired before the provider accepted it",
                metadata: logMetadata(delivery, status: attempt.status, reason: reason))
            return DeliveryOutcome(deliveryID: delivery.id, state: .expired, atMs: attempt.atMs, attempt: attempt)
        }
        metrics.retry(app: delivery.appID)
        logger.debug(
            "push will be retried",
            metadata: logMetadata(delivery, status: attempt.status, reason: reason).merging(
                ["retry_in_ms": .stringConvertible(delay.milliseconds)]) { $1 })
        return DeliveryOutcome(deliveryID: delivery.id, state: .pending, atMs: attempt.atMs, attempt: attempt, nextAttemptAtMs: next)
    }

    /// What a log line about one delivery carries; the device token only redacted.
    func logMetadata(_ delivery: DeliveryRecord, status: Int? = nil, reason: String? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "app": .string(delivery.appID), "message_id": .stringConvertible(delivery.messageID), "user": .string(delivery.userID),
            "token": .string(Redaction.redact(delivery.deviceToken)), "push_id": .string(UUIDText.lowercase(delivery.pushID)),
            "provider": .string(delivery.provider.rawValue),
            "attempt": .stringConvertible(delivery.attempts + 1),
        ]
        if let status { metadata["status"] = .stringConvertible(status) }
        if let reason, !reason.isEmpty { metadata["reason"] = .string(reason) }
        return metadata
    }
}

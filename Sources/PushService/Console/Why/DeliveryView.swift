import LogRedaction
import PushStore
import StoreContract
import UUIDText

/// One push of the timeline: where it went (redacted), where it stands, and each attempt with
/// the provider's status, reason and id, then the device's acknowledgement and the user's click.
struct DeliveryView: Sendable {
    struct Attempt: Sendable {
        var at: String
        var outcome: String
        var detail: String?
        var tone: String
    }

    var provider: String
    /// `test push` or `badge push` for a push without a message (message id 0), else `push`.
    var kind: String
    var token: String
    var state: String
    var tone: String
    var pushID: String
    var providerMessageID: String?
    var queuedAt: String
    var sentAt: String?
    var nextAttemptAt: String?
    var acknowledgedAt: String
    var clickedAt: String
    var attempts: [Attempt]

    init(_ logged: LoggedDelivery) {
        let d = logged.delivery
        provider = d.provider.displayName
        kind = Self.kind(logged)
        token = Redaction.redact(d.deviceToken)
        state = Self.stateText(logged)
        tone = d.state == .sent ? "good" : (d.state.isFinal ? "bad" : "warn")
        pushID = UUIDText.lowercase(d.pushID)
        providerMessageID = logged.providerMessageID
        queuedAt = ConsoleFormat.time(d.createdAtMs)
        sentAt = d.sentAtMs.map { ConsoleFormat.time($0) }
        nextAttemptAt = d.state.isFinal ? nil : ConsoleFormat.time(d.nextAttemptAtMs)
        acknowledgedAt = ConsoleFormat.time(logged.acknowledgedAtMs, none: "not reported by the device")
        clickedAt = ConsoleFormat.time(logged.clickedAtMs, none: "not opened")
        attempts = logged.attempts.map { Self.attempt($0, provider: d.provider.displayName) }
    }

    /// "answered 410 Unregistered", or "no answer: <the transport's error>" (scrubbed of tokens).
    static func attempt(_ a: DeliveryAttempt, provider: String) -> Attempt {
        let outcome: String
        if let status = a.status {
            outcome = "\(provider) answered \(status)" + (a.reason.map { " \($0)" } ?? "")
        } else {
            outcome = "no answer" + (a.error.map { ": \(Redaction.scrub($0))" } ?? "")
        }
        let accepted = a.status.map { (200..<300).contains($0) } ?? false
        return Attempt(
            at: ConsoleFormat.time(a.atMs), outcome: outcome, detail: "push id \(UUIDText.lowercase(a.pushID))",
            tone: accepted ? "ok" : "fail")
    }

    /// What the push was: a message's, a test push or a badge push.
    static func kind(_ logged: LoggedDelivery) -> String {
        if logged.isTest { return "test push" }
        return logged.delivery.messageID == TestDelivery.messageID ? "badge push" : "push"
    }

    /// The message column of a list: the message id, or what a push without a message was.
    static func messageText(_ logged: LoggedDelivery) -> String {
        let kind = kind(logged)
        return kind == "push" ? ConsoleFormat.message(logged.delivery.messageID) : kind
    }

    /// The delivery's state, with its last answer when it did not go out.
    static func stateText(_ logged: LoggedDelivery) -> String {
        let d = logged.delivery
        var text = d.state.rawValue
        if d.state != .sent, let reason = d.lastReason ?? d.lastStatus.map(String.init) { text += " (\(reason))" }
        return text
    }
}

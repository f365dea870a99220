import LogRedaction
import PushCore
import PushStore
import StoreContract
import UUIDText

/// "Why no push?" as the template shows it: the form, then the user's recent pushes and skipped
/// messages, or one message's timeline. Device tokens are redacted (`Redaction`); every text is escaped by the
/// template.
struct WhyPage: Sendable {
    struct Recent: Sendable {
        struct Row: Sendable {
            var href: String
            var messageID: String
            var queuedAt: String
            var provider: String
            var token: String
            var state: String
        }

        /// A message the policy did not push to the user.
        struct Skip: Sendable {
            var href: String
            var messageID: String
            var acceptedAt: String
            var decision: String
            var reason: String
        }

        var userID: String
        var rows: [Row]
        var skips: [Skip]
        var userHref: String
    }

    struct Timeline: Sendable {
        var messageID: String
        var userID: String
        var decision: String
        var reason: String
        var tone: String
        var acceptedAt: String?
        var deliveries: [DeliveryView]
        var userHref: String
    }

    var chrome: ConsoleChrome
    var userID: String
    var messageID: String
    var recent: Recent?
    var timeline: Timeline?

    static func recent(user: String, deliveries: [LoggedDelivery], skips: [SkippedMessage]) -> Recent {
        Recent(
            userID: user,
            rows: deliveries.map { logged in
                let d = logged.delivery
                return Recent.Row(
                    href: ConsoleLink.why(user: user, message: d.messageID), messageID: DeliveryView.messageText(logged),
                    queuedAt: ConsoleFormat.time(d.createdAtMs), provider: d.provider.displayName, token: Redaction.redact(d.deviceToken),
                    state: DeliveryView.stateText(logged))
            },
            skips: skips.map { skip in
                Recent.Skip(
                    href: ConsoleLink.why(user: user, message: skip.messageID), messageID: ConsoleFormat.message(skip.messageID),
                    acceptedAt: ConsoleFormat.time(skip.atMs), decision: skip.decision.code, reason: DecisionText.explain(skip.decision))
            }, userHref: ConsoleLink.user(user))
    }

    static func timeline(_ log: MessageDeliveryLog) -> Timeline {
        let pushed = log.decision == .push
        // Message id 0 is no message: test and badge pushes, which no policy decided.
        if log.messageID == TestDelivery.messageID, pushed {
            return Timeline(
                messageID: "Message \(log.messageID)", userID: log.userID, decision: "no message", reason: DecisionText.noMessage,
                tone: "muted", acceptedAt: nil, deliveries: log.deliveries.map(DeliveryView.init), userHref: ConsoleLink.user(log.userID))
        }
        return Timeline(
            messageID: NotificationPayload.notificationID(ofMessage: log.messageID).map { "Notification \($0)" }
                ?? "Message \(log.messageID)", userID: log.userID, decision: log.decision?.code ?? "no record",
            reason: DecisionText.explain(log.decision), tone: pushed ? "good" : "bad",
            acceptedAt: log.acceptedAtMs.map { ConsoleFormat.time($0) }, deliveries: log.deliveries.map(DeliveryView.init),
            userHref: ConsoleLink.user(log.userID))
    }
}

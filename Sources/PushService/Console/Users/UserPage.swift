import LogRedaction
import PushCore
import PushStore
import StoreContract

/// A user's devices and preferences as the template shows them. Tokens are redacted
/// (`Redaction`), a token's named configuration follows its provider; each device's last result is its newest push in the delivery log.
struct UserPage: Sendable {
    struct Device: Sendable {
        var provider: String
        var token: String
        var registeredAt: String
        var lastResult: String
        var tone: String
    }

    var chrome: ConsoleChrome
    var userID: String
    var unknown: Bool
    var found: Bool
    var nickname: String?
    var verdict: String = ""
    var verdictTone: String = ""
    var devices: [Device] = []
    var liveActivities: [LiveActivityRow] = []
    var startTokens: [LiveActivityRow] = []
    /// Stored, not computed: the template reads properties by reflection.
    var hasLiveActivities = false
    var preferences: [PreferenceReading.Row] = []
    var whyHref: String = ""
    var testPushHref: String?

    /// A Live Activity, or a push-to-start token (its attributes type as the kind).
    struct LiveActivityRow: Sendable {
        var id: String = ""
        var kind: String
        var state: String = ""
        var token: String
        var highPriority: String = ""
    }

    static func liveActivities(_ records: [LiveActivityRecord]) -> [LiveActivityRow] {
        records.map {
            LiveActivityRow(
                id: $0.activityID, kind: $0.attributesType ?? "", state: $0.state.rawValue,
                token: $0.updateToken.map(Redaction.redact) ?? "none yet", highPriority: String($0.highPriorityPushes))
        }
    }

    static func devices(_ tokens: [DeviceToken], recent: [LoggedDelivery]) -> [Device] {
        tokens.map { token in
            let last = recent.first { $0.delivery.deviceToken.sameBytes(as: token.token) && $0.delivery.provider == token.provider }
            let text = last.map { "\(DeliveryView.stateText($0)), \(ConsoleFormat.time($0.delivery.updatedAtMs))" } ?? "no push yet"
            let tone = last.map { $0.delivery.state == .sent ? "good" : ($0.delivery.state.isFinal ? "bad" : "warn") } ?? "muted"
            // An APNs configuration of several (a debug build's sandbox one) beside the provider.
            let provider = token.provider.displayName + (token.configuration.map { " (\($0))" } ?? "")
            return Device(
                provider: provider, token: Redaction.redact(token.token),
                registeredAt: ConsoleFormat.time(token.registeredAtMs), lastResult: text, tone: tone)
        }
    }
}

/// How iOS presents, groups and ranks an app's notifications: the `aps` keys beside the alert
/// (`apps[].apns`). Apple: "Generating a remote notification".
public struct AlertPresentation: Sendable, Hashable {
    /// `interruption-level` (iOS 15+): whether a notification lights the screen, sounds, and
    /// breaks through Focus.
    public enum InterruptionLevel: String, Sendable, Hashable, CaseIterable {
        case passive
        case active
        /// Breaks through Focus and scheduled summaries (the app needs the Time Sensitive
        /// Notifications capability).
        case timeSensitive = "time-sensitive"
        /// Sounds even when muted (needs Apple's critical alerts entitlement).
        case critical
    }

    /// `thread-id` = the channel's URL: iOS groups a channel's notifications. On by default.
    public var threadByChannel: Bool
    /// Every notification's level; nil leaves it out (iOS treats that as `active`).
    public var interruptionLevel: InterruptionLevel?
    /// The level for a member the message mentions (`mentioned_users`, or a channel mention);
    /// nil: the same as everyone's.
    public var mentionInterruptionLevel: InterruptionLevel?
    /// `relevance-score`, 0…1: which notification iOS features in a summary.
    public var relevanceScore: Double?
    /// `target-content-id`: the window the notification brings forward; `{channel_url}` and
    /// `{channel_custom_type}` are replaced by the channel's.
    public var targetContentID: String?
    /// `filter-criteria`: the Focus filter that lets it through, with the same placeholders.
    public var filterCriteria: String?

    public init(
        threadByChannel: Bool = true, interruptionLevel: InterruptionLevel? = nil, mentionInterruptionLevel: InterruptionLevel? = nil,
        relevanceScore: Double? = nil, targetContentID: String? = nil, filterCriteria: String? = nil
    ) {
        self.threadByChannel = threadByChannel
        self.interruptionLevel = interruptionLevel
        self.mentionInterruptionLevel = mentionInterruptionLevel
        self.relevanceScore = relevanceScore
        self.targetContentID = targetContentID
        self.filterCriteria = filterCriteria
    }

    /// A template's text for `channel`; nil when it comes out empty (the key is left out).
    static func render(_ template: String?, channel: WebhookChannel) -> String? {
        guard let template else { return nil }
        let text = TemplateRenderer.fill(template) { name in
            switch name {
            case "channel_url": channel.channelURL
            case "channel_custom_type": channel.customType
            default: nil
            }
        }
        return text.isEmpty ? nil : text
    }
}

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
        let text = template.replacing("{channel_url}", with: channel.channelURL)
            .replacing("{channel_custom_type}", with: channel.customType)
        return text.isEmpty ? nil : text
    }
}

/// What an `AlertPresentation` gives for one event, rendered once for all its recipients.
struct PreparedPresentation: Sendable {
    let filterCriteria: String?
    let relevanceScore: Double?
    let targetContentID: String?
    let threadID: String?
    let interruptionLevel: AlertPresentation.InterruptionLevel?
    let mentionInterruptionLevel: AlertPresentation.InterruptionLevel?
    /// The first mentioned user ids that get a mention's notification, or nil for a channel
    /// mention; kept only when a mention changes the level.
    private let mentioned: [String]?

    init(_ presentation: AlertPresentation, event: WebhookEvent) {
        filterCriteria = AlertPresentation.render(presentation.filterCriteria, channel: event.channel)
        relevanceScore = presentation.relevanceScore
        targetContentID = AlertPresentation.render(presentation.targetContentID, channel: event.channel)
        threadID = presentation.threadByChannel && !event.channel.channelURL.isEmpty ? event.channel.channelURL : nil
        interruptionLevel = presentation.interruptionLevel
        mentionInterruptionLevel = presentation.mentionInterruptionLevel
        if presentation.mentionInterruptionLevel == nil {
            mentioned = []
        } else if case .channel = event.mentionType {
            mentioned = nil
        } else {
            mentioned = event.mentionedUsers.prefix(WebhookEvent.mentionNotificationLimit).map(\.userID)
        }
    }

    /// The level of `userID`'s notification.
    func interruptionLevel(for userID: String) -> AlertPresentation.InterruptionLevel? {
        guard let mentionInterruptionLevel else { return interruptionLevel }
        guard let mentioned else { return mentionInterruptionLevel }
        return mentioned.contains { $0.sameBytes(as: userID) } ? mentionInterruptionLevel : interruptionLevel
    }
}

/// What an `AlertPresentation` gives for one event, encoded once for all its recipients: the
/// keys as ready-made bytes (`,"key":value`) in the three places of the sorted `aps` they go
/// (see `Skeleton`), and the level, which a mention can change per member.
struct PreparedPresentation: Sendable {
    /// `filter-criteria`, after `content-available`.
    let afterContentAvailable: [UInt8]
    /// `relevance-score`, after `mutable-content`.
    let afterMutableContent: [UInt8]
    /// `target-content-id` and `thread-id`, after `sound`.
    let afterSound: [UInt8]
    /// `interruption-level` for everyone, and for a mentioned member.
    private let level: [UInt8]
    private let mentionLevel: [UInt8]?
    /// The first mentioned user ids that get a mention's notification, or nil for a channel
    /// mention; kept only when a mention changes the level.
    private let mentioned: [String]?

    init(_ presentation: AlertPresentation, event: WebhookEvent) {
        var bytes: [UInt8] = []
        if let criteria = AlertPresentation.render(presentation.filterCriteria, channel: event.channel) {
            JSONWriter.writeMember("filter-criteria", .string(criteria), into: &bytes)
        }
        afterContentAvailable = bytes
        bytes = []
        if let score = presentation.relevanceScore { JSONWriter.writeMember("relevance-score", .double(score), into: &bytes) }
        afterMutableContent = bytes
        bytes = []
        if let target = AlertPresentation.render(presentation.targetContentID, channel: event.channel) {
            JSONWriter.writeMember("target-content-id", .string(target), into: &bytes)
        }
        if presentation.threadByChannel, !event.channel.channelURL.isEmpty {
            JSONWriter.writeMember("thread-id", .string(event.channel.channelURL), into: &bytes)
        }
        afterSound = bytes
        level = Self.level(presentation.interruptionLevel)
        mentionLevel = presentation.mentionInterruptionLevel.map(Self.level)
        if presentation.mentionInterruptionLevel == nil {
            mentioned = []
        } else if case .channel = event.mentionType {
            mentioned = nil
        } else {
            mentioned = event.mentionedUsers.prefix(WebhookEvent.mentionNotificationLimit).map(\.userID)
        }
    }

    private static func level(_ level: AlertPresentation.InterruptionLevel?) -> [UInt8] {
        var bytes: [UInt8] = []
        if let level { JSONWriter.writeMember("interruption-level", .string(level.rawValue), into: &bytes) }
        return bytes
    }

    /// `interruption-level` of `userID`'s notification, after `filter-criteria`.
    func interruptionLevel(for userID: String) -> [UInt8] {
        guard let mentionLevel else { return level }
        guard let mentioned else { return mentionLevel }
        return mentioned.contains { $0.sameBytes(as: userID) } ? mentionLevel : level
    }
}

/// What a notification pushes, as the app's server asked for it (texts already rendered from a
/// template): the same for every recipient except the language chosen and the tracking id.
public struct NotificationContent: Sendable, Hashable {
    public var texts: NotificationTexts
    /// The app's own data, handed to the app on the device (`notification.data`).
    public var data: [String: JSONValue]?
    /// Where the app goes when the notification is opened.
    public var deepLink: String?
    /// APNs' `category` (the notification's actions).
    public var category: String?
    /// The sound's name; nil: the app's default sound, if any.
    public var sound: String?
    /// The badge number to show; nil: the badge is left as it is.
    public var badge: Int?
    /// APNs' `interruption-level`: `passive`, `active` or `time-sensitive`.
    public var interruptionLevel: InterruptionLevel?
    /// Replaces an earlier notification of the same key on the device (`apns-collapse-id`).
    public var collapseKey: String?
    /// How long the pushes may wait; nil: the app's time to live.
    public var timeToLiveSeconds: Int?

    public init(
        texts: NotificationTexts, data: [String: JSONValue]? = nil, deepLink: String? = nil, category: String? = nil,
        sound: String? = nil, badge: Int? = nil, interruptionLevel: InterruptionLevel? = nil, collapseKey: String? = nil,
        timeToLiveSeconds: Int? = nil
    ) {
        self.texts = texts
        self.data = data
        self.deepLink = deepLink
        self.category = category
        self.sound = sound
        self.badge = badge
        self.interruptionLevel = interruptionLevel
        self.collapseKey = collapseKey
        self.timeToLiveSeconds = timeToLiveSeconds
    }

    /// Whether it passes do-not-disturb and snooze (iOS's time-sensitive level breaks through a Focus).
    public var isTimeSensitive: Bool { interruptionLevel == .timeSensitive }

    public enum InterruptionLevel: String, Sendable, Hashable, CaseIterable {
        case passive
        case active
        case timeSensitive = "time-sensitive"
    }
}

import PushCore

/// An app's `notifications` section: the templates `POST /v3/notifications` names, and the pace
/// of its large sends.
public struct NotificationSettings: Sendable, Hashable {
    /// By name.
    public var templates: [String: NotificationTemplate]
    /// At most this many pushes a minute for a notification that does not say (nil: no cap).
    public var pushesPerMinute: Int?

    public init(templates: [String: NotificationTemplate] = [:], pushesPerMinute: Int? = nil) {
        self.templates = templates
        self.pushesPerMinute = pushesPerMinute
    }

    /// A template's name: 1 to 64 letters, digits, `_`, `-` and `.`.
    public static func isTemplateName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    true
                default: false
                }
            }
    }

    /// The most pushes a minute a notification may ask for.
    public static let pushesPerMinuteRange = 1...10_000_000
    /// The longest title and body, in bytes (a push shows far less; the payload cuts the body to fit).
    public static let maximumTitleBytes = 512
    public static let maximumBodyBytes = 4096
    /// Translations of one text.
    public static let maximumTranslations = 50
}

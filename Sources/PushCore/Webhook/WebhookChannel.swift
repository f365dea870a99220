/// The group channel the message was sent in (webhook `channel`).
public struct WebhookChannel: Sendable, Hashable {
    public var channelURL: String
    public var name: String
    public var customType: String
    public var isDistinct: Bool
    public var isPublic: Bool
    /// Supergroup channels never get pushes.
    public var isSuper: Bool
    public var isEphemeral: Bool
    public var isDiscoverable: Bool
    public var data: String

    public init(
        channelURL: String,
        name: String = "",
        customType: String = "",
        isDistinct: Bool = false,
        isPublic: Bool = false,
        isSuper: Bool = false,
        isEphemeral: Bool = false,
        isDiscoverable: Bool = false,
        data: String = ""
    ) {
        self.channelURL = channelURL
        self.name = name
        self.customType = customType
        self.isDistinct = isDistinct
        self.isPublic = isPublic
        self.isSuper = isSuper
        self.isEphemeral = isEphemeral
        self.isDiscoverable = isDiscoverable
        self.data = data
    }

    /// The payload's `channel_type`: `messaging` for a distinct channel, `group_messaging` for a
    /// private (non-public) one, `chat` otherwise (Sendbird's documented meanings).
    public var pushChannelType: String {
        if isDistinct { return "messaging" }
        if !isPublic { return "group_messaging" }
        return "chat"
    }

    init(_ reader: JSONObjectReader) throws(WebhookEventError) {
        self.init(
            channelURL: try reader.requiredID("channel_url"),
            name: reader.string("name").cut(toBytes: TextLimits.nameBytes),
            customType: reader.string("custom_type"),
            isDistinct: reader.bool("is_distinct"),
            isPublic: reader.bool("is_public"),
            isSuper: reader.bool("is_super"),
            isEphemeral: reader.bool("is_ephemeral"),
            isDiscoverable: reader.bool("is_discoverable"),
            data: reader.text("data")
        )
    }
}

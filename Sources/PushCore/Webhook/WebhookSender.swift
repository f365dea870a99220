/// The user (or bot) who sent the message (webhook `sender`).
public struct WebhookSender: Sendable, Hashable {
    public var userID: String
    public var nickname: String
    public var profileURL: String
    public var metadata: [String: String]
    /// True for bots: `is_bot`, or a `role` of `bot`. Used by `block_push_from_bots`.
    public var isBot: Bool
    public var role: String
    /// Copied to the payload's `sender.require_auth_for_profile_image` when present.
    public var requireAuthForProfileImage: Bool?

    public init(
        userID: String,
        nickname: String = "",
        profileURL: String = "",
        metadata: [String: String] = [:],
        isBot: Bool = false,
        role: String = "",
        requireAuthForProfileImage: Bool? = nil
    ) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.metadata = metadata
        self.isBot = isBot
        self.role = role
        self.requireAuthForProfileImage = requireAuthForProfileImage
    }

    init(_ reader: JSONObjectReader) throws(WebhookEventError) {
        let role = reader.string("role")
        self.init(
            userID: try reader.requiredID("user_id"),
            nickname: reader.string("nickname").cut(toBytes: TextLimits.nameBytes),
            profileURL: reader.string("profile_url"),
            metadata: reader.stringMap("metadata"),
            isBot: reader.bool("is_bot") || role.lowercased() == "bot",
            role: role,
            requireAuthForProfileImage: reader.optionalBool("require_auth_for_profile_image")
        )
    }
}

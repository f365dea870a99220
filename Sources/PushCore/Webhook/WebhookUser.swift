/// A user named in a message (an entry of webhook `mentioned_users`).
public struct WebhookUser: Sendable, Hashable {
    public var userID: String
    public var nickname: String
    public var profileURL: String
    public var requireAuthForProfileImage: Bool

    public init(userID: String, nickname: String = "", profileURL: String = "", requireAuthForProfileImage: Bool = false) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.requireAuthForProfileImage = requireAuthForProfileImage
    }

    /// An object with `user_id`, or a bare user id string; nil for anything else, and for ids
    /// `IdentifierRules` refuses (a mention of such an id can match no member).
    init?(_ value: JSONValue) {
        if let object = value.objectValue {
            let reader = JSONObjectReader(object)
            guard let userID = reader.optionalString("user_id"), IdentifierRules.problem(with: userID) == nil else { return nil }
            self.init(
                userID: userID,
                nickname: reader.string("nickname").cut(toBytes: TextLimits.nameBytes),
                profileURL: reader.string("profile_url"),
                requireAuthForProfileImage: reader.bool("require_auth_for_profile_image")
            )
        } else if case .string(let userID) = value, IdentifierRules.problem(with: userID) == nil {
            self.init(userID: userID)
        } else {
            return nil
        }
    }
}

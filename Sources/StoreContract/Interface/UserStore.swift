import PushCore

/// Users as Sendbird's user API sees them: create, read, list, update, and erase.
public protocol UserStore: Sendable {
    /// Gives `user` a profile (creating the user, or keeping what is stored for one the relay
    /// knows already). nil, and nothing changed, when they have a profile already.
    func createUser(app: String, user: String, nickname: String, profileURL: String) async throws -> UserProfile?

    /// The user, or nil when the relay knows nothing of them.
    func user(app: String, user: String) async throws -> UserProfile?

    /// Changes the fields given; nil (and nothing changed) when the user is unknown.
    func updateUser(app: String, user: String, change: UserProfileChange) async throws -> UserProfile?

    /// Up to `limit` users of `app` with ids after `after` (from the first when nil), by id.
    func users(app: String, after: String?, limit: Int) async throws -> [UserProfile]

    /// Whether the store holds anything naming the user (what `eraseUser` would erase): a few index
    /// probes, no write, for a user it never saw.
    func namesUser(app: String, user: String) async throws -> Bool

    /// Erases the user: the user row with their device tokens, preferences and template choice,
    /// their session tokens, every delivery (payload and attempts) and decision naming them, and
    /// the payloads of pushes they sent (unsent ones fail with `UserDeleted`): the parts of
    /// `UserErasureScope`, in one transaction. Returns whether the store held anything of theirs.
    func eraseUser(app: String, user: String) async throws -> Bool
}

/// What `PUT /v3/users/{user_id}` changes: the fields given (nil: kept).
public struct UserProfileChange: Sendable, Hashable {
    public var nickname: String?
    public var profileURL: String?
    public var languages: PreferredLanguages?

    public init(nickname: String? = nil, profileURL: String? = nil, languages: PreferredLanguages? = nil) {
        self.nickname = nickname
        self.profileURL = profileURL
        self.languages = languages
    }
}

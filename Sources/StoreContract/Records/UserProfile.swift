import PushCore

/// A user as Sendbird's user API shows them. The relay knows a user once anything was written for
/// them (a token, preferences); `POST /v3/users` gives them a profile.
public struct UserProfile: Sendable, Hashable {
    public var userID: String
    public var nickname: String
    public var profileURL: String
    /// Unix ms: when the profile was created, or else when the relay first stored anything for them.
    public var createdAtMs: Int64
    /// Whether `POST /v3/users` created them (a second create is refused).
    public var hasProfile: Bool
    /// `preferred_languages`: which translation of a message their pushes show.
    public var languages: PreferredLanguages

    public init(
        userID: String, nickname: String, profileURL: String, createdAtMs: Int64, hasProfile: Bool, languages: PreferredLanguages = .none
    ) {
        self.userID = userID
        self.nickname = nickname
        self.profileURL = profileURL
        self.createdAtMs = createdAtMs
        self.hasProfile = hasProfile
        self.languages = languages
    }
}

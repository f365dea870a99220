import Hummingbird
import PushStore
import StoreContract

/// The user object of Sendbird's answers: the user API's, and the one in token responses (which
/// name only the user; the profile fields are there, empty, because Sendbird's SDK models
/// expect them).
struct SendbirdUser: Encodable {
    var userID: String
    var nickname = ""
    var profileURL = ""
    var requireAuthForProfileImage = false
    var metadata: [String: String] = [:]
    /// Unix seconds, as Sendbird gives a user's; only in the user API's answers.
    var createdAt: Int64?
    var isActive: Bool?
    var isOnline: Bool?
    /// Only in the user API's answers.
    var preferredLanguages: [String]?

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", nickname, profileURL = "profile_url"
        case requireAuthForProfileImage = "require_auth_for_profile_image", metadata
        case createdAt = "created_at", isActive = "is_active", isOnline = "is_online"
        case preferredLanguages = "preferred_languages"
    }

    init(_ userID: String) { self.userID = userID }

    init(_ profile: UserProfile) {
        userID = profile.userID
        nickname = profile.nickname
        profileURL = profile.profileURL
        createdAt = profile.createdAtMs / 1000
        isActive = true
        // The relay does not track presence; the webhook says who is online per event.
        isOnline = false
        preferredLanguages = profile.languages.codes
    }
}

extension SendbirdUser: ResponseEncodable {}

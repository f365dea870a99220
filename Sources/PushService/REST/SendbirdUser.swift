/// The user object Sendbird puts in token responses. The relay stores only the id, so the
/// profile fields are empty; they are present because Sendbird's SDK models expect them.
struct SendbirdUser: Encodable {
    var userID: String
    var nickname = ""
    var profileURL = ""
    var requireAuthForProfileImage = false
    var metadata: [String: String] = [:]

    enum CodingKeys: String, CodingKey {
        case userID = "user_id", nickname, profileURL = "profile_url"
        case requireAuthForProfileImage = "require_auth_for_profile_image", metadata
    }

    init(_ userID: String) { self.userID = userID }
}

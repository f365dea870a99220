/// The access token of an `authorization: Bearer …` header (the scheme in any case); nil for no
/// header, another scheme or an empty token.
package enum BearerToken {
    package static func from(authorization: String?) -> String? {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return nil }
        return String(authorization.dropFirst(7))
    }
}

import HTTP2Transport

/// Why an APNs credential (a `.p8` signing key, a `.p12` or PEM client identity, a Key ID or
/// Team ID) could not be used.
///
/// Every case names the file (or value) at fault and its `description` says what is wrong in
/// plain words, so it can be shown to an operator as is. Secrets (passwords, key bytes) never
/// appear in it.
public enum APNsCredentialError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The key or certificate file could not be read, decoded, checked or used.
    case credential(CredentialError)
    /// A Key ID that is not 10 letters or digits.
    case invalidKeyID(String)
    /// A Team ID that is not 10 letters or digits.
    case invalidTeamID(String)

    public var description: String {
        switch self {
        case .credential(let error):
            if case .expiredCertificate = error {
                return "\(error); create a new push certificate in the Apple Developer account"
            }
            return error.description
        case .invalidKeyID(let keyID):
            return "Key ID \"\(keyID)\" is invalid: it must be exactly 10 letters or digits "
                + "(as shown in the Apple Developer account and in the file name AuthKey_<KeyID>.p8)"
        case .invalidTeamID(let teamID):
            return "Team ID \"\(teamID)\" is invalid: it must be exactly 10 letters or digits "
                + "(as shown under Membership in the Apple Developer account)"
        }
    }
}

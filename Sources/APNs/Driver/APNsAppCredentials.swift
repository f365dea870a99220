import Foundation

/// An app's APNs credential loaded from its files: ready to hand to an `APNsClient`, with the
/// certificate's expiry when it is certificate-based.
public struct APNsAppCredentials: Sendable {
    public let authentication: APNsAuthentication
    /// When the client certificate expires (nil for token auth: `.p8` keys do not expire).
    public let certificateNotAfter: Date?

    /// Loads the key or certificate named by `setting`; the error names the file.
    public static func load(_ setting: APNsAuthSetting, now: Date = Date()) throws(APNsCredentialError) -> APNsAppCredentials {
        switch setting {
        case .token(let keyFile, let keyID, let teamID):
            let key = try APNsSigningKey(p8File: keyFile)
            let cache = try ProviderTokenCache(key: key, keyID: keyID, teamID: teamID)
            // Minting once proves the key signs (a broken key fails here, not at the first push).
            _ = try cache.current()
            return APNsAppCredentials(authentication: .token(cache), certificateNotAfter: nil)
        case .p12(let file, let password):
            let identity = try APNsClientIdentity.p12(path: file, password: password?.value, now: now)
            return APNsAppCredentials(authentication: .certificate(identity), certificateNotAfter: identity.notAfter)
        case .pem(let certificateFile, let keyFile):
            let identity = try APNsClientIdentity.pem(certificatePath: certificateFile, keyPath: keyFile, now: now)
            return APNsAppCredentials(authentication: .certificate(identity), certificateNotAfter: identity.notAfter)
        }
    }
}

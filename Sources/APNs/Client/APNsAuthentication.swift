/// How a client proves it may push: one provider token (shared by every connection of the
/// pool), or a TLS client certificate.
public enum APNsAuthentication: Sendable {
    /// `.p8` signing key: every request carries `authorization: bearer <JWT>`.
    case token(ProviderTokenCache)
    /// `.p12` / PEM certificate presented during the TLS handshake; no authorization header.
    case certificate(APNsClientIdentity)
}

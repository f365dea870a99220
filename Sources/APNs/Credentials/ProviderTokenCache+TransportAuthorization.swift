import HTTP2Transport

/// Every request carries the current provider token, added by the connection as the stream opens.
extension ProviderTokenCache: TransportAuthorization {
    package func authorizationHeader() throws -> (value: String, generation: UInt64) {
        let token = try current()
        return (token.authorizationHeader, token.generation)
    }
}

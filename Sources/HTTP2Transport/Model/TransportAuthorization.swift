/// An `authorization` header the connection adds as it opens each stream, so a request that
/// waited in a queue still carries the current credential (APNs provider tokens). The generation
/// comes back with the response, so the client renews a rejected credential only once.
package protocol TransportAuthorization: Sendable {
    func authorizationHeader() throws -> (value: String, generation: UInt64)
}

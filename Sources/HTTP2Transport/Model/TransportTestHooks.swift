/// Seams through which tests provoke failures that a real peer cannot, and reach a server by a
/// name DNS does not know. A provider client passes on its own internal `testHooks`, which only
/// its tests set (`@testable import`); a production configuration never carries one (nil).
package struct TransportTestHooks: Sendable {
    /// Asked before each request is submitted to nghttp2; `true` makes the submit fail the way
    /// nghttp2 does when a connection has used up its stream IDs
    /// (`NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE`).
    package var failSubmit: (@Sendable (HTTP2Request) -> Bool)?
    /// Connect the TCP socket to this address instead of resolving the endpoint's host (like
    /// `curl --resolve`). The server certificate is still checked against the endpoint's host.
    package var connectAddress: String?

    package init(failSubmit: (@Sendable (HTTP2Request) -> Bool)? = nil, connectAddress: String? = nil) {
        self.failSubmit = failSubmit
        self.connectAddress = connectAddress
    }
}

/// One request as the HTTP/2 transport sends it: a POST to `path` with these headers and body.
///
/// The transport knows nothing of APNs or FCM; `APNsClient` and `FCMClient` build these from
/// their own request types. `:method`, `:scheme`, `:authority`, `content-length` and, when the
/// transport signs requests (APNs provider tokens), `authorization` are added by the connection.
package struct HTTP2Request: Sendable {
    package var path: String
    package var headers: [HTTP2HeaderField]
    package var body: [UInt8]

    package init(path: String, headers: [HTTP2HeaderField], body: [UInt8]) {
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first header named `name` (lowercase).
    package func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}

/// One request header. `sensitive` values (tokens, per-request ids) are sent as HPACK
/// never-indexed literals, as Apple asks for APNs and as any bearer token deserves.
package struct HTTP2HeaderField: Sendable {
    package var name: String
    package var value: String
    package var sensitive: Bool

    package init(_ name: String, _ value: String, sensitive: Bool = false) {
        self.name = name
        self.value = value
        self.sensitive = sensitive
    }
}

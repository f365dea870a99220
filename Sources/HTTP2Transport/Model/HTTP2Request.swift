/// One request as the HTTP/2 transport sends it: a POST to a path with these headers and body.
///
/// The transport knows nothing of push providers; each provider's client builds these from its
/// own request type. `:method`, `:scheme`, `:authority` and, when the transport signs
/// requests (APNs provider tokens), `authorization` are added by the connection.
package struct HTTP2Request: Sendable {
    /// `:path`, the caller's headers and `content-length`, encoded where the request is made.
    package let headerBlock: HTTP2HeaderBlock
    package let body: [UInt8]

    /// - Parameter headers: adds the headers after `:path` (lowercase names).
    package init(path: String, body: [UInt8], headers: (inout HTTP2HeaderBlock) -> Void) {
        var block = HTTP2HeaderBlock()
        block.add(":path", path, sensitive: true)
        headers(&block)
        block.add("content-length", String(body.count))
        headerBlock = block
        self.body = body
    }

    package init(path: String, headers: [HTTP2HeaderField], body: [UInt8]) {
        self.init(path: path, body: body) { block in
            for h in headers { block.add(h.name, h.value, sensitive: h.sensitive) }
        }
    }

    /// The first header named `name` (lowercase).
    package func header(_ name: String) -> String? {
        headerBlock.value(of: name)
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

import Foundation
import NIOHTTP1

/// One whole request as a request-level mock's responder gets it, and what it came on.
package struct MockRequest: Sendable {
    package let head: HTTPRequestHead
    package let body: Data
    /// Part of the body was dropped (past `MockRequestHandler.maximumBody`).
    package let bodyTooLarge: Bool
    /// The connection's number, in accept order.
    package let connectionID: Int
    package let httpVersion: MockHTTPPipeline.Version

    package init(
        head: HTTPRequestHead, body: Data, bodyTooLarge: Bool = false, connectionID: Int, httpVersion: MockHTTPPipeline.Version
    ) {
        self.head = head
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.connectionID = connectionID
        self.httpVersion = httpVersion
    }

    /// The path, without the query.
    package var path: String {
        String(head.uri.split(separator: "?", maxSplits: 1).first ?? "")
    }

    /// The first value of header `name`.
    package func header(_ name: String) -> String? {
        head.headers.first(name: name)
    }

    /// The path segment between `prefix` and `suffix`, percent-decoded: the `{app}` of
    /// `/v1/{app}/messages:send`. Nil unless the path has both, with one non-empty segment between.
    package func pathSegment(between prefix: String, and suffix: String) -> String? {
        let path = path
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let segment = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard !segment.contains("/") else { return nil }
        return String(segment).removingPercentEncoding ?? String(segment)
    }
}

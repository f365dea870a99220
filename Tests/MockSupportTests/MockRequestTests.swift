import Foundation
import MockSupport
import NIOHTTP1
import Testing

/// What a responder reads from a request: the path without its query, a segment of it, headers.
@Suite(.timeLimit(.minutes(5))) struct MockRequestTests {
    static func request(_ uri: String) -> MockRequest {
        var head = HTTPRequestHead(version: .http2, method: .POST, uri: uri)
        head.headers.add(name: "Authorization", value: "Bearer x")
        return MockRequest(head: head, body: Data(), connectionID: 1, httpVersion: .h2)
    }

    @Test func theSegmentBetweenAPrefixAndASuffixIsOneNonEmptyDecodedSegment() {
        let (prefix, suffix) = ("/v1/projects/", "/messages:send")
        #expect(Self.request("/v1/projects/my%20app/messages:send?x=1").pathSegment(between: prefix, and: suffix) == "my app")
        #expect(Self.request("/v1/projects//messages:send").pathSegment(between: prefix, and: suffix) == nil)
        #expect(Self.request("/v1/projects/a/b/messages:send").pathSegment(between: prefix, and: suffix) == nil)
        #expect(Self.request("/v1/other/a/messages:send").pathSegment(between: prefix, and: suffix) == nil)
    }

    @Test func thePathDropsTheQueryAndHeadersAreFoundInAnyCase() {
        let request = Self.request("/token?a=b")
        #expect(request.path == "/token")
        #expect(request.header("authorization") == "Bearer x")
        #expect(request.header("user-agent") == nil)
    }
}

import MockSupport
import NIOCore
import NIOHTTP1
import Testing

@Suite(.timeLimit(.minutes(5))) struct RequestGathererTests {
    private static func head(_ uri: String) -> HTTPServerRequestPart {
        .head(HTTPRequestHead(version: .http1_1, method: .POST, uri: uri))
    }

    private static func body(_ text: String) -> HTTPServerRequestPart {
        .body(ByteBuffer(string: text))
    }

    @Test func aRequestIsWholeAtItsEnd() {
        var gatherer = RequestGatherer(maximumBody: 10)
        #expect(gatherer.take(Self.head("/a")) == nil)
        #expect(gatherer.take(Self.body("hello ")) == nil)
        #expect(gatherer.take(Self.body("you")) == nil)
        let request = gatherer.take(.end(nil))
        #expect(request?.head.uri == "/a")
        #expect(request.map { String(decoding: $0.body, as: UTF8.self) } == "hello you")
        #expect(request?.bodyTooLarge == false)
        #expect(gatherer.take(.end(nil)) == nil, "an end without a head is no request")
    }

    @Test func aBodyPastTheLimitIsDroppedAndMarkedAndTheNextRequestStartsClean() {
        var gatherer = RequestGatherer(maximumBody: 4)
        _ = gatherer.take(Self.head("/big"))
        _ = gatherer.take(Self.body("abc"))
        _ = gatherer.take(Self.body("defgh"))
        let big = gatherer.take(.end(nil))
        #expect(big?.bodyTooLarge == true)
        #expect(big.map { String(decoding: $0.body, as: UTF8.self) } == "abc")

        _ = gatherer.take(Self.head("/small"))
        _ = gatherer.take(Self.body("ok"))
        let small = gatherer.take(.end(nil))
        #expect(small?.bodyTooLarge == false)
        #expect(small.map { String(decoding: $0.body, as: UTF8.self) } == "ok")
    }
}

import ConnectionLiveness
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP2
import Synchronization
import Testing

@testable import PooledHTTP

/// `LivenessHandler` on an embedded channel whose clock the test advances: it PINGs a quiet
/// connection, closes it when the PING goes unanswered, when requests in a row end unanswered and
/// on a connection-level error, and keeps it open otherwise.
@Suite(.timeLimit(.minutes(1))) struct LivenessHandlerTests {
    static let settings = LivenessSettings(
        idlePingInterval: .seconds(60), stallPingInterval: .seconds(3), pingTimeout: .seconds(5), maximumUnansweredInARow: 4)

    final class Closes: Sendable {
        let reasons = Mutex<[String]>([])
    }

    static func channel(_ closes: Closes = Closes()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let handler = LivenessHandler(settings: settings, logger: Logger(label: "test")) { reason in
            closes.reasons.withLock { $0.append(reason) }
        }
        try channel.pipeline.syncOperations.addHandler(handler)
        return channel
    }

    static func pings(_ channel: EmbeddedChannel) throws -> [HTTP2PingData] {
        var pings: [HTTP2PingData] = []
        while let frame = try channel.readOutbound(as: HTTP2Frame.self) {
            if case .ping(let data, ack: false) = frame.payload, frame.streamID == .rootStream { pings.append(data) }
        }
        return pings
    }

    @Test func aQuietConnectionWithARequestWaitingIsPingedAndClosedWhenThePingGoesUnanswered() throws {
        let closes = Closes()
        let channel = try Self.channel(closes)
        channel.pipeline.fireUserInboundEventTriggered(
            NIOHTTP2StreamCreatedEvent(streamID: 1, localInitialWindowSize: nil, remoteInitialWindowSize: nil))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2_900))
        #expect(try Self.pings(channel).isEmpty)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(300))
        #expect(try Self.pings(channel).count == 1)
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(!channel.isActive)
        #expect(closes.reasons.withLock { $0 } == ["no PING answer within 5.0 seconds"])
    }

    @Test func anAnsweredPingKeepsTheConnection() throws {
        let channel = try Self.channel()
        channel.embeddedEventLoop.advanceTime(by: .seconds(61))
        let ping = try #require(try Self.pings(channel).first)
        try channel.writeInbound(HTTP2Frame(streamID: .rootStream, payload: .ping(ping, ack: true)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test func requestsInARowEndingUnansweredCloseTheConnection() throws {
        let closes = Closes()
        let channel = try Self.channel(closes)
        for id in stride(from: 1, through: 9, by: 2) {
            let stream = HTTP2StreamID(id)
            channel.pipeline.fireUserInboundEventTriggered(
                NIOHTTP2StreamCreatedEvent(streamID: stream, localInitialWindowSize: nil, remoteInitialWindowSize: nil))
        }
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 1, reason: .cancel))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 3, reason: nil))
        for id in [5, 7, 9] {
            channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: HTTP2StreamID(id), reason: .cancel))
        }
        #expect(channel.isActive, "an answer between them reset the count")
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 11, reason: .cancel))
        #expect(!channel.isActive)
        #expect(closes.reasons.withLock { $0 } == ["4 requests in a row found no answer"])
    }

    /// NIO reports a connection-level protocol error (after writing its GOAWAY) and leaves the
    /// closing to the pipeline; a stream's error is that stream's.
    @Test func aConnectionErrorClosesAndAStreamErrorDoesNot() throws {
        let closes = Closes()
        let channel = try Self.channel(closes)
        channel.pipeline.fireErrorCaught(
            NIOHTTP2Errors.streamError(streamID: 3, baseError: NIOHTTP2Errors.streamClosed(streamID: 3, errorCode: .cancel)))
        #expect(channel.isActive)
        channel.pipeline.fireErrorCaught(NIOHTTP2Errors.streamClosed(streamID: 1, errorCode: .streamClosed))
        #expect(!channel.isActive)
        #expect(closes.reasons.withLock { $0.count } == 1)
    }
}

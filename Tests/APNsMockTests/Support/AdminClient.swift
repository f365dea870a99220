import Foundation
import NIOCore
import NIOPosix

/// A minimal HTTP/1.1 client for the admin listener: one request per connection
/// (`Connection: close`), the raw answer split into status and body.
enum AdminClient {
    struct Answer: Sendable {
        let status: Int
        let body: Data

        var json: Any? { try? JSONSerialization.jsonObject(with: self.body) }
    }

    static func request(
        _ method: String,
        _ path: String,
        body: String? = nil,
        port: Int
    ) async throws -> Answer {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let received = eventLoop.makePromise(of: ByteBuffer.self)
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(promise: received))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        let bodyBytes = Array((body ?? "").utf8)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        request += "Content-Length: \(bodyBytes.count)\r\n\r\n"
        var buffer = channel.allocator.buffer(string: request)
        buffer.writeBytes(bodyBytes)
        try await channel.writeAndFlush(buffer)
        let raw = String(buffer: try await awaitFuture(received.futureResult, timeout: .seconds(60), what: "admin answer"))
        guard let headerEnd = raw.range(of: "\r\n\r\n"),
            let status = raw.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap({ Int($0) })
        else {
            throw TestTimeout(what: "a well-formed admin answer (got \(raw.prefix(200)))")
        }
        return Answer(status: status, body: Data(raw[headerEnd.upperBound...].utf8))
    }

    /// Gathers everything until the server closes.
    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<ByteBuffer>
        private let buffer: NIOLoopBoundBox<ByteBuffer>

        init(promise: EventLoopPromise<ByteBuffer>) {
            self.promise = promise
            self.buffer = NIOLoopBoundBox(ByteBuffer(), eventLoop: promise.futureResult.eventLoop)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var chunk = self.unwrapInboundIn(data)
            self.buffer.value.writeBuffer(&chunk)
        }

        func channelInactive(context: ChannelHandlerContext) {
            self.promise.succeed(self.buffer.value)
        }
    }
}

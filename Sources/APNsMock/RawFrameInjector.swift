import NIOCore
import NIOHTTP2

/// Sits between TLS and `NIOHTTP2Handler` so the connection handler can put a GOAWAY on the wire
/// without NIOHTTP2's state machine knowing.
///
/// Why: once NIOHTTP2 has *sent* a GOAWAY it ignores HEADERS above lastStreamID but treats a
/// DATA frame for such a stream as a connection error (the stream is "idle"), killing the answers
/// still owed below lastStreamID. Clients routinely have HEADERS and DATA of later streams in
/// flight when the GOAWAY reaches them, so the mock sends the frame itself and drops those
/// streams in ``APNsMockConnectionHandler`` instead.
final class RawFrameInjector: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = ByteBuffer

    /// A GOAWAY frame (RFC 9113 §6.8) on stream 0.
    static func goAwayFrame(
        lastStreamID: HTTP2StreamID,
        errorCode: HTTP2ErrorCode,
        debugData: String,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let debug = Array(debugData.utf8)
        let length = 8 + debug.count
        var buffer = allocator.buffer(capacity: 9 + length)
        buffer.writeInteger(UInt8(truncatingIfNeeded: length >> 16))
        buffer.writeInteger(UInt16(truncatingIfNeeded: length))
        buffer.writeInteger(UInt8(0x7))  // type GOAWAY
        buffer.writeInteger(UInt8(0))  // flags
        buffer.writeInteger(UInt32(0))  // stream 0
        buffer.writeInteger(UInt32(Int32(lastStreamID)) & 0x7FFF_FFFF)
        buffer.writeInteger(UInt32(truncatingIfNeeded: errorCode.networkCode))
        buffer.writeBytes(debug)
        return buffer
    }
}

import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
@testable import PushService

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(5))) struct AbortedRequestTests {
    @Test func errorsOfAClientThatWentAwayAreAbortsAndOurOwnAreNot() {
        #expect(AbortedRequest(IOError(errnoCode: ECONNRESET, reason: "read"))?.reason == .reset)
        #expect(AbortedRequest(IOError(errnoCode: EPIPE, reason: "write"))?.reason == .reset)
        #expect(AbortedRequest(HTTPParserError.invalidEOFState)?.reason == .closed)
        #expect(AbortedRequest(HTTPParserError.invalidChunkSize)?.reason == .malformed)
        #expect(AbortedRequest(ChannelError.ioOnClosedChannel)?.reason == .closed)
        #expect(AbortedRequest(RequestDeadlineExceeded(stage: .body))?.reason == .timeout)
        #expect(AbortedRequest(RequestDeadlineExceeded(stage: .body))?.apiError.status == .requestTimeout)
        // The relay's own failures stay errors: a full disk, a refused database connection.
        #expect(AbortedRequest(IOError(errnoCode: ENOSPC, reason: "write")) == nil)
        #expect(AbortedRequest(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == nil)
        #expect(AbortedRequest(ChannelError.connectTimeout(.seconds(1))) == nil)
        #expect(AbortedRequest(APIError.unexpected) == nil)
    }

    final class Lines: Sendable {
        let lines = Mutex<[(level: Logger.Level, metadata: Logger.Metadata?)]>([])
        var all: [(level: Logger.Level, metadata: Logger.Metadata?)] { lines.withLock { $0 } }
    }

    struct Recorder: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.lines.withLock { $0.append((event.level, event.metadata)) }
        }
    }

    @Test func oneLineAnIntervalCountsTheOnesHeldBack() {
        let now = Atomic<Int64>(0)
        let log = AbortedRequestLog(interval: .seconds(10), clock: { now.load(ordering: .relaxed) })
        let recorded = Lines()
        let logger = Logger(label: "t") { _ in Recorder(lines: recorded) }
        let reset = AbortedRequest(IOError(errnoCode: ECONNRESET, reason: "read"))!
        #expect(log.record(reset, path: "/webhooks/sendbird", logger: logger))
        for _ in 0..<500 { #expect(!log.record(reset, path: "/webhooks/sendbird", logger: logger)) }
        now.store(10_000, ordering: .relaxed)
        #expect(log.record(reset, path: "/v3/users", logger: logger))
        let lines = recorded.all
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.level == .info })
        #expect(lines.first?.metadata?["more_not_logged"] == nil)
        #expect(lines.last?.metadata?["more_not_logged"]?.description == "500")
        #expect(lines.last?.metadata?["reason"]?.description == "reset")
    }
}

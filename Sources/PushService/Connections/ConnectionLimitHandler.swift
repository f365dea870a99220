import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// One per HTTP connection, right after the HTTP/1 codec: asks `gate` to admit the connection
/// once it is active (closing it when refused), follows its requests and responses in a
/// `RequestProgress` — reporting each change of phase to the gate, so the gate knows which
/// connections it may shed — and enforces the request deadlines. The gate's count never
/// outlives a channel: the close future fires however the channel ends.
///
/// Responses are followed to the socket: one the client does not read has a deadline of its own
/// (`http.send_timeout`). A client pipelining requests gets at most `HeldRequests.maximumUnanswered`
/// handled before their answers reach the socket; the rest wait (`HeldRequests`), and while any
/// wait, or `maximumQueuedResponses` answers do, the connection reads no more.
///
/// On a missed deadline the connection is answered 408 when a request was under way and no
/// response has started, and closed either way. The request's handler, possibly still waiting
/// for the body, gets `RequestDeadlineExceeded` rather than a body cut short, and whatever it
/// writes afterwards is dropped.
final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let gate: ConnectionGate
    private var id: ConnectionGate.ID?
    private var decided = false
    private var progress: RequestProgress
    /// As `ConnectionLimiter.open` admits a connection.
    private var reportedPhase = RequestProgress.Phase.fresh
    private var armed: (deadline: RequestProgress.Deadline, task: Scheduled<Void>)?
    /// Whether the current socket read produced a request part (see `channelReadComplete`).
    private var readPart = false
    /// The 408 has been written (or the connection is closing): later writes are dropped.
    private var finished = false
    /// A read held back while requests wait in `held` or `maximumQueuedResponses` answers wait
    /// for the socket.
    private var readHeld = false
    /// Pipelined request parts not passed on yet.
    private var held = HeldRequests()

    /// Responses written and waiting for the socket before the connection stops reading requests.
    static let maximumQueuedResponses = 2

    init(gate: ConnectionGate) {
        self.gate = gate
        progress = gate.progress(nowMs: 0)  // restarted at the admission
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Hummingbird adds the handler during child channel setup; the channel may already be
        // active, and then no channelActive follows.
        if context.channel.isActive { admit(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        armed?.task.cancel()
        armed = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        admit(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finished = true
        armed?.task.cancel()
        armed = nil
        context.fireChannelInactive()
    }

    private func admit(context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        guard let id = gate.admit(context.channel) else {
            finished = true
            context.close(promise: nil)
            return
        }
        self.id = id
        let gate = self.gate
        context.channel.closeFuture.whenComplete { _ in gate.closed(id) }
        // The head deadline runs from the accept.
        progress = gate.progress(nowMs: Self.nowMs(context))
        update(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        readPart = true
        let part = unwrapInboundIn(data)
        guard !held.mustHold(part, unanswered: progress.unansweredRequests) else {
            held.hold(part)
            return
        }
        deliver(part, context: context)
    }

    /// Passes a request part on, following it in `progress`.
    private func deliver(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head: progress.headReceived(nowMs: Self.nowMs(context))
        case .body: break
        case .end: progress.endReceived(nowMs: Self.nowMs(context))
        }
        update(context: context)
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// An answer reached the socket: held requests that may go now do, then a held read.
    private func answerWritten(context: ChannelHandlerContext) {
        var released = false
        while let part = held.release(unanswered: progress.unansweredRequests) {
            deliver(part, context: context)
            released = true
        }
        // The request loop takes what was read at a read's completion.
        if released { context.fireChannelReadComplete() }
        releaseReadIfRoom(context: context)
    }

    /// The decoder passes on every socket read's completion, also one that completed no part:
    /// that is how the first bytes of a head show (a connection sending a head is receiving,
    /// not idle).
    func channelReadComplete(context: ChannelHandlerContext) {
        if !readPart {
            progress.bytesArrived(nowMs: Self.nowMs(context))
            update(context: context)
        }
        readPart = false
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !finished else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head:
            progress.responseStarted(nowMs: Self.nowMs(context))
            update(context: context)
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            progress.responseEnded()
            update(context: context)
            // Idle once the response has reached the socket: closing a connection whose
            // response is still queued in NIO would drop it.
            let written = promise ?? context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in
                self.progress.responseFinished(nowMs: Self.nowMs(context))
                self.update(context: context)
                self.answerWritten(context: context)
            }
            context.write(data, promise: written)
        }
    }

    /// Holds the next read while requests are held or the client leaves `maximumQueuedResponses` unread.
    func read(context: ChannelHandlerContext) {
        guard held.isEmpty, progress.queuedResponses < Self.maximumQueuedResponses else {
            readHeld = true
            return
        }
        context.read()
    }

    private func releaseReadIfRoom(context: ChannelHandlerContext) {
        guard readHeld, held.isEmpty, progress.queuedResponses < Self.maximumQueuedResponses, context.channel.isActive else {
            return
        }
        readHeld = false
        context.read()
    }

    /// Writable again: the socket took what was waiting down to NIO's low-water mark.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            progress.writeProgressed(nowMs: Self.nowMs(context))
            update(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Reports a change of phase to the gate and re-arms the timer when the deadline moved.
    private func update(context: ChannelHandlerContext) {
        guard let id, !finished else { return }
        let phase = progress.phase
        if phase != reportedPhase {
            reportedPhase = phase
            gate.update(id, to: phase)
        }
        let deadline = progress.deadline
        guard deadline != armed?.deadline else { return }
        armed?.task.cancel()
        armed = nil
        guard let deadline else { return }
        let delay = TimeAmount.milliseconds(max(0, deadline.atMs - Self.nowMs(context)))
        let task = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            armed = nil
            expire(context: context)
        }
        armed = (deadline, task)
    }

    /// The event loop's clock (monotonic; virtual on an embedded loop, which tests advance).
    private static func nowMs(_ context: ChannelHandlerContext) -> Int64 {
        Int64(context.eventLoop.now.uptimeNanoseconds / 1_000_000)
    }

    private func expire(context: ChannelHandlerContext) {
        guard let expiry = progress.expiry, let stage = progress.deadline?.stage, !finished else { return }
        finished = true
        gate.timedOut(stage)
        // The handler waiting for this request's body learns why it ends.
        context.fireErrorCaught(RequestDeadlineExceeded(stage: stage))
        if case .answer(let stage) = expiry {
            let (head, body) = gate.timeoutResponse(stage)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.close(promise: nil)
    }
}

// Bound to its channel's event loop, like every channel handler.
@available(*, unavailable)
extension ConnectionLimitHandler: Sendable {}

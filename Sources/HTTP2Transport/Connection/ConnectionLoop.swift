import CNGHTTP2
import COpenSSL
import ConnectionLiveness
import DequeModule
import Foundation
import Logging
#if canImport(Glibc)
    import Glibc
#endif

/// One TCP + TLS + HTTP/2 connection, driven by a `poll()` loop on its own thread.
///
/// Only this thread touches the socket, the `SSL*` and the `nghttp2_session*`. Bytes move with
/// `nghttp2_session_mem_recv` / `mem_send` between nghttp2 and OpenSSL on a non-blocking socket.
/// Requests beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS wait in `waiting`.
final class ConnectionLoop {
    let handle: HTTP2Connection
    let configuration: TransportConfiguration
    let tls: TLSContext
    let delegate: ConnectionDelegate
    let startDelay: Duration
    private var logger: Logger

    private var fd: Int32 = -1
    private var ssl: OpaquePointer?
    private var session: OpaquePointer?

    private var streams: [Int32: StreamState] = [:]
    /// A ring buffer: under a steady backlog it never empties, and an array consumed from an
    /// index kept every request ever sent alive, payload and all, until it did.
    private var waiting = Deque<PendingRequest>()
    /// What `takeInbox` last took; kept empty between turns so its capacity is reused.
    private var inbox: [PendingRequest] = []
    private var outbox: [UInt8] = []
    private var outboxOffset = 0
    private var needsPollOut = false
    private var readBuffer = [UInt8](repeating: 0, count: 65536)
    /// Answers read this turn of the loop. Their tasks are resumed after the next requests are
    /// written, so the server works on those while the woken tasks run (and compete for a core).
    private var answered: [(PendingRequest, RequestResult)] = []

    private var remoteMaxStreams = 0
    private var receivedSettings = false
    private var goAwayLastStreamID: Int32?
    /// Set when this connection takes no new streams (a stream could not be opened, or the client
    /// asked: `HTTP2Connection.requestRetire`); like after GOAWAY it finishes what is in flight and
    /// closes.
    private var retiredBecause: String?
    /// PINGs, their deadline, and requests in a row without an answer (`ConnectionLiveness`).
    private var liveness: ConnectionLiveness
    /// The liveness clock's zero.
    private let origin = ContinuousClock.now
    private var nextDeadlineScan = ContinuousClock.now
    private var shutdownDeadline: ContinuousClock.Instant?
    private let headerList: NGHTTP2HeaderList
    /// `configuration.requestIDHeader`, read for every header received.
    private let requestIDHeader: StaticString?
    /// `configuration.providerIDHeader`.
    private let providerIDHeader: StaticString?

    init(
        handle: HTTP2Connection, configuration: TransportConfiguration, tls: TLSContext,
        delegate: ConnectionDelegate, startDelay: Duration
    ) {
        self.handle = handle
        self.configuration = configuration
        self.tls = tls
        self.delegate = delegate
        self.startDelay = startDelay
        liveness = ConnectionLiveness(settings: configuration.liveness, now: .zero)
        var logger = configuration.logger
        logger[metadataKey: "connection"] = "\(handle.id)"
        self.logger = logger
        let endpoint = configuration.endpoint
        requestIDHeader = configuration.requestIDHeader
        providerIDHeader = configuration.providerIDHeader
        headerList = NGHTTP2HeaderList(
            authority: Array((endpoint.port == 443 ? endpoint.host : "\(endpoint.host):\(endpoint.port)").utf8))
    }

    /// The thread body.
    func run() {
        var closeError: HTTP2TransportError?
        do throws(HTTP2TransportError) {
            try waitBeforeConnecting()
            do throws(HTTP2TransportError) {
                try connect()
                try establishSession()
            } catch {
                // Closed before the server's SETTINGS, e.g. a client certificate rejected after
                // a TLS 1.3 handshake: a failed connect (with backoff), not a lost connection.
                guard case .connectionLost(let why) = error else { throw error }
                throw HTTP2TransportError.connectFailed("\(configuration.endpoint) closed the connection during setup: \(why)")
            }
            try loop()
        } catch {
            closeError = error
        }
        finish(error: closeError)
    }

    // MARK: - Connecting

    private func waitBeforeConnecting() throws(HTTP2TransportError) {
        guard startDelay > .zero else { return }
        let until = ContinuousClock.now + startDelay
        while ContinuousClock.now < until {
            if handle.isShutdownRequested { throw .shutdown }
            var pfd = pollfd(fd: handle.wakeFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, Int32(clamping: min(100, (until - ContinuousClock.now).milliseconds + 1)))
            handle.drainWakeups()
            handle.expireQueued(now: ContinuousClock.now)
        }
    }

    private func connect() throws(HTTP2TransportError) {
        let endpoint = configuration.endpoint
        let deadline = ContinuousClock.now + configuration.connectTimeout
        fd = try Socket.connect(
            host: configuration.testHooks?.connectAddress ?? endpoint.host, port: endpoint.port,
            timeout: configuration.connectTimeout,
            interrupt: handle.wakeFD, checkIn: checkInWhileConnecting)
        OpenSSLError.clearQueue()
        guard let ssl = SSL_new(tls.context) else {
            throw .connectFailed("SSL_new: \(OpenSSLError.drainQueue())")
        }
        self.ssl = ssl
        guard SSL_set_fd(ssl, fd) == 1 else {
            throw .connectFailed("SSL_set_fd: \(OpenSSLError.drainQueue())")
        }
        try ServerIdentityCheck.configure(ssl, host: endpoint.host)
        SSL_set_connect_state(ssl)
        while true {
            ERR_clear_error()
            let rc = SSL_do_handshake(ssl)
            if rc == 1 { break }
            let err = SSL_get_error(ssl, rc)
            let events: Int16
            switch err {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            default:
                let verify = SSL_get_verify_result(ssl)
                var detail = OpenSSLError.drainQueue()
                if verify != X509_V_OK {
                    detail = "server certificate not trusted: \(String(cString: X509_verify_cert_error_string(verify)))"
                } else if detail.isEmpty {
                    detail = err == SSL_ERROR_SYSCALL ? "connection closed during handshake" : "error \(err)"
                }
                throw .connectFailed("TLS handshake with \(endpoint): \(detail)")
            }
            switch Socket.wait(
                fd: fd, events: events, until: deadline, interrupt: handle.wakeFD,
                checkIn: checkInWhileConnecting)
            {
            case .ready: continue
            case .timedOut: throw .connectFailed("TLS handshake with \(endpoint): timed out")
            case .interrupted: throw .shutdown
            }
        }
        // SSL_VERIFY_PEER already fails a handshake whose chain or name does not verify; this
        // guards against a handshake that verified nothing at all.
        guard SSL_get0_peer_certificate(ssl) != nil, SSL_get_verify_result(ssl) == X509_V_OK else {
            throw .connectFailed("TLS handshake with \(endpoint): server certificate missing or not verified")
        }
        var alpn: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpn, &alpnLength)
        let selected = alpn.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) }
        guard selected == "h2" else { throw .alpnNotNegotiated(selected) }
    }

    /// Runs while the connection is not up yet: requests queued here must still fail at their
    /// own deadline, not at the end of a slow (or black-holed) connect. True means shut down.
    private func checkInWhileConnecting() -> Bool {
        handle.expireQueued(now: ContinuousClock.now)
        return handle.isShutdownRequested
    }

    private func establishSession() throws(HTTP2TransportError) {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0 else {
            throw .connectFailed("cannot create HTTP/2 session callbacks")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard nghttp2_session_client_new(&session, callbacks, me) == 0 else {
            throw .connectFailed("cannot create HTTP/2 session")
        }
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
        ]
        let rv = nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        guard rv == 0 else {
            throw .connectFailed("cannot send HTTP/2 SETTINGS: \(String(cString: nghttp2_strerror(rv)))")
        }
        // Requests wait until the server's SETTINGS say how many streams it allows; with token
        // auth APNs allows one until the first authenticated request succeeds.
        let deadline = ContinuousClock.now + configuration.connectTimeout
        while !receivedSettings {
            try flush()
            if ContinuousClock.now >= deadline {
                throw .connectFailed("no HTTP/2 SETTINGS from \(configuration.endpoint) within the connect timeout")
            }
            // At most 100 ms per poll: queued requests' deadlines are checked in between.
            try pollOnce(timeout: min(.milliseconds(100), deadline - ContinuousClock.now))
            if checkInWhileConnecting() { throw .shutdown }
        }
        logger.debug("connected", metadata: ["max_streams": "\(remoteMaxStreams)"])
        delegate.connectionDidConnect(handle)
        configuration.eventHandler?(.connected(connection: handle.id))
    }

    // MARK: - The loop

    private func loop() throws(HTTP2TransportError) {
        while true {
            if handle.isShutdownRequested, shutdownDeadline == nil {
                beginShutdown()
            }
            if let why = handle.takeRetireRequest(), retiredBecause == nil, goAwayLastStreamID == nil, shutdownDeadline == nil {
                logger.notice("connection retired", metadata: ["reason": "\(why)"])
                retiredBecause = why
                stopTakingWork(reason: why)
            }
            takeInbox()
            let now = ContinuousClock.now
            if now >= nextDeadlineScan {
                try expireDeadlines(now: now)
                nextDeadlineScan = now + .milliseconds(20)
            }
            try submitWaiting()
            try flush()
            resumeAnswered()
            // Checked after the scan, which drops streams whose callers gave up: checked before
            // it, a shutdown whose last streams were cancelled slept out the idle interval.
            if goAwayLastStreamID != nil || shutdownDeadline != nil || retiredBecause != nil, streams.isEmpty { return }
            if let shutdownDeadline, now >= shutdownDeadline { return }
            if nghttp2_session_want_read(session) == 0, nghttp2_session_want_write(session) == 0, outboxIsEmpty {
                throw .connectionLost("HTTP/2 session ended")
            }
            let busy = !streams.isEmpty || !waiting.isEmpty
            var timeout: Duration = busy ? .milliseconds(20) : liveness.nextCheck(now: now - origin)
            // With every stream in use, new requests could only join `waiting`, and only an
            // answer frees a stream: wait for the socket (at most the busy interval, so deadlines
            // are still checked), and let enqueuers skip the wake-up (a pipe write each, and an
            // empty turn of this loop). With no stream open (a limit of 0), enqueuers wake it.
            if streams.isEmpty || streams.count < streamLimit, !handle.prepareToSleep() { timeout = .zero }
            try pollOnce(timeout: timeout)
        }
    }

    private var outboxIsEmpty: Bool { outboxOffset == outbox.count }
    private var streamLimit: Int { min(remoteMaxStreams, configuration.maxConcurrentStreamsPerConnection) }

    /// One poll: reads whatever arrived and keeps the PING watchdog.
    private func pollOnce(timeout: Duration) throws(HTTP2TransportError) {
        var events = Int16(POLLIN)
        if needsPollOut { events |= Int16(POLLOUT) }
        var fds = [
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: handle.wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        let rc = poll(&fds, 2, Int32(clamping: max(0, timeout.milliseconds)))
        if rc < 0 && errno != EINTR { throw .connectionLost("poll: \(Socket.errnoString())") }
        if fds[1].revents != 0 { handle.drainWakeups() }
        if fds[0].revents & Int16(POLLOUT) != 0 { needsPollOut = false }
        if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            try readAvailable()
        }
        try apply(liveness.check(now: ContinuousClock.now - origin))
    }

    /// Carries out what `ConnectionLiveness` decided: a PING, or the end of this connection (its
    /// requests fail as on any lost connection, and the pool opens another).
    private func apply(_ action: ConnectionLiveness.Action) throws(HTTP2TransportError) {
        switch action {
        case .none: return
        case .sendPing: try submitPing()
        case .close(let reason): throw .connectionLost(reason)
        }
    }

    /// A PING now, unless one is awaiting its answer.
    private func sendPing() throws(HTTP2TransportError) {
        guard !liveness.isPingOutstanding else { return }
        liveness.pingSent(now: ContinuousClock.now - origin)
        try submitPing()
    }

    private func submitPing() throws(HTTP2TransportError) {
        // A PING that cannot be sent would never be answered: better to close now than to let
        // the PING timeout report a silent server.
        let rv = nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
        guard rv == 0 else { throw .connectionLost("cannot send PING: \(String(cString: nghttp2_strerror(rv)))") }
    }

    // MARK: - Requests

    private func takeInbox() {
        handle.takeInbox(swappingWith: &inbox)
        guard !inbox.isEmpty else { return }
        waiting.append(contentsOf: inbox)
        inbox.removeAll(keepingCapacity: true)
    }

    /// The largest TLS record's payload (RFC 8446 §5.1).
    private static let writeChunk = 16384

    private func submitWaiting() throws(HTTP2TransportError) {
        guard goAwayLastStreamID == nil, shutdownDeadline == nil else { return }
        // `submit` may retire the connection, which hands `waiting` to the pool.
        var queuedBytes = 0
        while retiredBecause == nil, streams.count < streamLimit, !waiting.isEmpty {
            // About one TLS record's worth at a time goes out before the next is built: the
            // server starts on it meanwhile. (Written in one burst after a read, the two sides
            // took turns idling: 1 connection with 1,000 senders reached 0.5x h2load.) Flushed
            // before the next request leaves `waiting`, so a failed write strands none.
            if queuedBytes >= Self.writeChunk {
                try flush()
                queuedBytes = 0
            }
            let pending = waiting.removeFirst()
            if pending.isCompleted {
                handle.load.subtract(1, ordering: .relaxed)
                continue
            }
            queuedBytes += pending.request.body.count + 128
            submit(pending)
        }
    }

    private func submit(_ pending: PendingRequest) {
        let r = pending.request
        var authorization: (value: String, generation: UInt64)?
        if let source = configuration.authorization {
            do {
                authorization = try source.authorizationHeader()
            } catch {
                finishRequest(pending, .failure(.connectFailed("cannot sign the authorization: \(error)")))
                return
            }
        }
        if let generation = authorization?.generation, handle.firstTokenGeneration.load(ordering: .relaxed) == 0 {
            handle.firstTokenGeneration.store(generation, ordering: .relaxed)
        }
        let stream = StreamState(pending: pending, tokenGeneration: authorization?.generation)
        let streamID =
            configuration.testHooks?.failSubmit?(r) == true
            ? NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE.rawValue
            : submitRequest(r, authorization: authorization?.value)
        guard streamID > 0 else {
            // Nothing reached the server, so the request fails at once and may be retried
            // anywhere. The connection itself is suspect (stream IDs used up, out of memory):
            // it takes no more work, finishes its streams and closes; the pool replaces it.
            let why = "cannot open an HTTP/2 stream: \(String(cString: nghttp2_strerror(streamID)))"
            finishRequest(pending, .failure(.connectFailed(why)))
            logger.notice("connection retired", metadata: ["error": "\(why)"])
            retiredBecause = why
            stopTakingWork(reason: why)
            return
        }
        streams[streamID] = stream
        liveness.requestStarted()
        handle.streamsInFlight.store(streams.count, ordering: .relaxed)
    }

    /// Submits the request's header block. Sensitive values (`:path`, `authorization`, per-request
    /// ids) are sent as never-indexed literals, as Apple's HPACK rules for APNs ask (and as any
    /// bearer token deserves).
    private func submitRequest(_ r: HTTP2Request, authorization: String?) -> Int32 {
        headerList.withList(r, authorization: authorization) { list, count in
            var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: nghttp2ReadBody)
            return nghttp2_submit_request(session, nil, list, count, &provider, nil)
        }
    }

    fileprivate func readBody(
        streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int,
        flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = streams[streamID] else {
            return Int(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        let payload = stream.pending.request.body
        let n = min(length, payload.count - stream.bodyOffset)
        payload.withUnsafeBufferPointer { src in
            buffer.update(from: src.baseAddress! + stream.bodyOffset, count: n)
        }
        stream.bodyOffset += n
        if stream.bodyOffset == payload.count { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return n
    }

    private func expireDeadlines(now: ContinuousClock.Instant) throws(HTTP2TransportError) {
        var expired = false
        var verdict = ConnectionLiveness.Action.none
        for (id, stream) in streams where stream.pending.deadline <= now || stream.pending.isCompleted {
            if !stream.pending.isCompleted { expired = true }
            finishRequest(stream.pending, .failure(.timedOut))
            streams[id] = nil
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), id, NGHTTP2_CANCEL.rawValue)
            if stream.pending.deadline > now {
                liveness.requestAbandoned()  // its caller gave up early: says nothing of the connection
            } else {
                let ended = liveness.requestEnded(answered: false)  // its deadline passed unanswered
                if ended != .none { verdict = ended }
            }
        }
        handle.streamsInFlight.store(streams.count, ordering: .relaxed)
        for p in waiting where p.deadline <= now && !p.isCompleted { p.complete(.failure(.timedOut)) }
        try apply(verdict)
        // A silent stream may mean a half-dead connection: find out with a PING.
        if expired { try sendPing() }
    }

    private func resumeAnswered() {
        guard !answered.isEmpty else { return }
        for (pending, result) in answered { pending.complete(result) }
        answered.removeAll(keepingCapacity: true)
    }

    private func finishRequest(_ pending: PendingRequest, _ result: RequestResult) {
        // Count first: the completed task may read the statistics right away.
        handle.load.subtract(1, ordering: .relaxed)
        pending.complete(result)
    }

    // MARK: - Bytes

    private func flush() throws(HTTP2TransportError) {
        while true {
            if outboxIsEmpty {
                outbox.removeAll(keepingCapacity: true)
                outboxOffset = 0
                while outbox.count < 65536 {
                    var data: UnsafePointer<UInt8>?
                    let n = nghttp2_session_mem_send(session, &data)
                    if n < 0 { throw .connectionLost("nghttp2: \(String(cString: nghttp2_strerror(Int32(n))))") }
                    if n == 0 { break }
                    outbox.append(contentsOf: UnsafeBufferPointer(start: data, count: n))
                }
                if outbox.isEmpty { return }
            }
            ERR_clear_error()
            let remaining = outbox.count - outboxOffset
            let written = outbox.withUnsafeBufferPointer { buf in
                SSL_write(ssl, buf.baseAddress! + outboxOffset, Int32(remaining))
            }
            if written > 0 {
                outboxOffset += Int(written)
                continue
            }
            switch SSL_get_error(ssl, written) {
            case SSL_ERROR_WANT_WRITE:
                needsPollOut = true
                return
            case SSL_ERROR_WANT_READ:
                return
            default:
                throw .connectionLost("TLS write: \(describeSSLFailure())")
            }
        }
    }

    private func readAvailable() throws(HTTP2TransportError) {
        while true {
            ERR_clear_error()
            let n = readBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 {
                liveness.heard(now: ContinuousClock.now - origin)
                let rv = readBuffer.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, Int(n)) }
                if rv < 0 { throw .connectionLost("HTTP/2 protocol error: \(String(cString: nghttp2_strerror(Int32(rv))))") }
                continue
            }
            switch SSL_get_error(ssl, n) {
            case SSL_ERROR_WANT_READ: return
            case SSL_ERROR_WANT_WRITE:
                needsPollOut = true
                return
            case SSL_ERROR_ZERO_RETURN: throw .connectionLost("server closed the connection")
            default: throw .connectionLost("TLS read: \(describeSSLFailure())")
            }
        }
    }

    private func describeSSLFailure() -> String {
        let queue = OpenSSLError.drainQueue()
        if !queue.isEmpty { return queue }
        return errno == 0 ? "connection closed" : Socket.errnoString()
    }

    // MARK: - nghttp2 events

    fileprivate func header(streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        guard let stream = streams[streamID] else { return }
        if Self.matches(name, ":status") {
            stream.status = Int(String(decoding: value, as: UTF8.self))
        } else if let requestIDHeader, Self.matches(name, requestIDHeader) {
            stream.requestID = String(decoding: value, as: UTF8.self)
        } else if let providerIDHeader, Self.matches(name, providerIDHeader) {
            stream.providerID = String(decoding: value, as: UTF8.self)
        } else if Self.matches(name, "retry-after") {
            if let seconds = Int(String(decoding: value, as: UTF8.self)) { stream.retryAfter = .seconds(seconds) }
        }
    }

    /// Whether a received header name is `literal`: lengths first, then memcmp (the generic
    /// `elementsEqual` over a String's UTF-8 view was 1 % of the client's CPU).
    private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        name.count == literal.utf8CodeUnitCount && memcmp(name.baseAddress!, literal.utf8Start, name.count) == 0
    }

    fileprivate func data(streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream = streams[streamID], stream.responseBody.count < 8192 else { return }
        stream.responseBody.append(contentsOf: bytes)
    }

    fileprivate func streamClosed(streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        handle.streamsInFlight.store(streams.count, ordering: .relaxed)
        // Answered, refused or reset: the server is serving streams.
        _ = liveness.requestEnded(answered: true)
        if stream.status != nil {
            // Count now; the task hears the answer at the end of this turn (`resumeAnswered`).
            handle.load.subtract(1, ordering: .relaxed)
            answered.append((stream.pending, .response(stream.response, tokenGeneration: stream.tokenGeneration, connection: handle.id)))
        } else if errorCode == NGHTTP2_REFUSED_STREAM.rawValue {
            // Refused (or above a GOAWAY's last-stream-id): the server did not process it.
            handle.load.subtract(1, ordering: .relaxed)
            delegate.resend([stream.pending], from: handle, reason: "REFUSED_STREAM")
        } else {
            let name = String(cString: nghttp2_http2_strerror(errorCode))
            finishRequest(stream.pending, .failure(.connectionLost("stream reset by server (\(name))")))
        }
    }

    fileprivate func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        let type = frame.pointee.hd.type
        switch UInt32(type) {
        case NGHTTP2_SETTINGS.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
            let value = Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS))
            if receivedSettings, value != remoteMaxStreams {
                logger.info("server changed max concurrent streams", metadata: ["from": "\(remoteMaxStreams)", "to": "\(value)"])
                configuration.eventHandler?(.maxConcurrentStreamsChanged(connection: handle.id, value: value))
            }
            remoteMaxStreams = value
            handle.maxStreams.store(min(value, configuration.maxConcurrentStreamsPerConnection), ordering: .relaxed)
            receivedSettings = true
        case NGHTTP2_PING.rawValue where frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0:
            liveness.pingAnswered(now: ContinuousClock.now - origin)
        case NGHTTP2_GOAWAY.rawValue:
            let goaway = frame.pointee.goaway
            var reason: String?
            if goaway.opaque_data_len > 0, let bytes = goaway.opaque_data {
                let data = Data(bytes: bytes, count: goaway.opaque_data_len)
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                reason = object?["reason"] as? String ?? String(decoding: data, as: UTF8.self)
            }
            goAwayLastStreamID = goaway.last_stream_id
            logger.notice(
                "\(configuration.peerName) sent GOAWAY",
                metadata: [
                    "last_stream_id": "\(goaway.last_stream_id)", "error_code": "\(goaway.error_code)",
                    "reason": "\(reason ?? "-")",
                ])
            configuration.eventHandler?(
                .goAway(
                    connection: handle.id, lastStreamID: goaway.last_stream_id,
                    errorCode: goaway.error_code, reason: reason))
            stopTakingWork(reason: "GOAWAY")
        default:
            break
        }
    }

    /// Nothing new comes here any more; queued work moves to another connection at once.
    private func stopTakingWork(reason: String) {
        var unsent = handle.stopAccepting()
        unsent.append(contentsOf: waiting)
        waiting.removeAll()
        if !unsent.isEmpty {
            handle.load.subtract(unsent.count, ordering: .relaxed)
            delegate.resend(unsent, from: handle, reason: reason)
        }
    }

    // MARK: - Shutdown

    private func beginShutdown() {
        shutdownDeadline = ContinuousClock.now + .seconds(5)
        var unsent = handle.stopAccepting()
        unsent.append(contentsOf: waiting)
        waiting.removeAll()
        for p in unsent { finishRequest(p, .failure(.shutdown)) }
    }

    /// A connection that closed by itself: at info when requests were on it (they are retried),
    /// else at debug (an idle connection closed, or ours during a stop, is reopened when needed).
    private func logClose(_ error: HTTP2TransportError?, inFlight: Int) {
        let reason: String
        switch error {
        case nil, .shutdown?, .connectFailed?, .alpnNotNegotiated?: return  // the pool logs connect failures
        case .connectionLost(let why)?: reason = why
        case let error?: reason = error.description
        }
        let metadata: Logger.Metadata = ["reason": .string(reason), "requests_in_flight": .stringConvertible(inFlight)]
        if inFlight > 0 && !handle.isShutdownRequested {
            logger.info("connection lost with requests in flight", metadata: metadata)
        } else {
            logger.debug("connection closed", metadata: metadata)
        }
    }

    private func finish(error: HTTP2TransportError?) {
        resumeAnswered()
        var unsent = handle.markClosed()
        unsent.append(contentsOf: waiting)
        waiting.removeAll()
        let inFlightError: HTTP2TransportError =
            error.map { e -> HTTP2TransportError in
                if case .connectionLost = e { return e }
                return .connectionLost(e.description)
            } ?? .connectionLost(goAwayLastStreamID != nil ? "connection closed after GOAWAY" : "connection closed")
        let inFlight = streams.count
        for (_, stream) in streams {
            finishRequest(stream.pending, .failure(handle.isShutdownRequested ? .shutdown : inFlightError))
        }
        streams.removeAll()
        handle.streamsInFlight.store(0, ordering: .relaxed)
        if let session {
            if error == nil {
                nghttp2_session_terminate_session(session, NGHTTP2_NO_ERROR.rawValue)
                try? flush()
            }
            nghttp2_session_del(session)
            self.session = nil
        }
        if let ssl {
            if error == nil { SSL_shutdown(ssl) }
            SSL_free(ssl)
            self.ssl = nil
        }
        if fd >= 0 { close(fd); fd = -1 }
        handle.load.subtract(unsent.count, ordering: .relaxed)
        logClose(error, inFlight: inFlight)
        configuration.eventHandler?(.closed(connection: handle.id, error: error?.description))
        delegate.connectionDidClose(handle, error: error, unsent: unsent)
    }
}

// MARK: - C callbacks (no captures; the loop comes back through user_data)

private func loop(_ userData: UnsafeMutableRawPointer?) -> ConnectionLoop {
    Unmanaged<ConnectionLoop>.fromOpaque(userData!).takeUnretainedValue()
}

private let onHeader: nghttp2_on_header_callback = { _, frame, name, nameLength, value, valueLength, _, userData in
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue) else { return 0 }
    loop(userData).header(
        streamID: frame.pointee.hd.stream_id,
        name: UnsafeBufferPointer(start: name, count: nameLength),
        value: UnsafeBufferPointer(start: value, count: valueLength))
    return 0
}

private let onDataChunk: nghttp2_on_data_chunk_recv_callback = { _, _, streamID, data, length, userData in
    loop(userData).data(streamID: streamID, UnsafeBufferPointer(start: data, count: length))
    return 0
}

private let onStreamClose: nghttp2_on_stream_close_callback = { _, streamID, errorCode, userData in
    loop(userData).streamClosed(streamID: streamID, errorCode: errorCode)
    return 0
}

private let onFrameReceived: nghttp2_on_frame_recv_callback = { _, frame, userData in
    if let frame { loop(userData).frameReceived(frame) }
    return 0
}

private let nghttp2ReadBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, userData in
    loop(userData).readBody(streamID: streamID, into: buffer!, length: length, flags: flags!)
}

import Foundation
import Logging
import MockSupport
import NIOCore
import NIOHPACK
import NIOHTTP2

/// Serves one HTTP/2 connection at the frame level.
///
/// It sits directly behind `NIOHTTP2Handler` with no stream multiplexer, so it sees every frame
/// with its stream ID, keeps per-stream state in a dictionary and writes HEADERS / DATA /
/// RST_STREAM / SETTINGS / GOAWAY / WINDOW_UPDATE frames itself. That avoids a child channel per
/// stream (the cost that dominates sink-mode throughput) and lets faults act on exact streams.
/// Without a multiplexer nobody else returns flow-control credit, so this handler does it too.
final class APNsMockConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// Connection-level receive window after the first WINDOW_UPDATE; large so that a thousand
    /// concurrent 4 KB requests never wait for credit.
    static let connectionWindow = 16 << 20
    /// Stream-level receive window (the HTTP/2 default, advertised in SETTINGS).
    static let streamWindow = 65_535
    /// Largest body kept for validation: anything bigger only needs its length (413).
    static let validatingBodyLimit = APNsRequestValidator.voipPayloadLimit + 1
    /// Largest body kept when sink mode records.
    static let sinkBodyLimit = 1 << 20

    private struct StreamState {
        var headers: HPACKHeaders
        var body: ByteBuffer?
        var bodyLength = 0
        /// Received bytes not yet credited back with a stream WINDOW_UPDATE.
        var uncreditedBytes = 0
        var held: Bool
        var scheduledAnswer: Scheduled<Void>?
    }

    private enum Answer {
        /// `uniqueID`: `apns-unique-id`, in development.
        case success(apnsID: String, uniqueID: String?)
        case failure(APNsErrorAnswer, apnsID: String)

        var status: Int {
            switch self {
            case .success: 200
            case .failure(let error, _): error.status
            }
        }
    }

    private let core: MockServerCore
    private let resources: ServingResources
    private let connectionID: Int
    private let certificateAuthenticated: Bool
    private let isSink: Bool
    private let bodyLimit: Int
    private var streams: [HTTP2StreamID: StreamState] = [:]
    private var heldStreamCount = 0
    private var tokenSession = ProviderTokenSession()
    private var warmingUp: Bool
    private var advertisedMaxStreams: Int
    private var idGenerator = APNsIDGenerator()
    private var context: ChannelHandlerContext?
    private var needsFlush = false
    private var isReading = false
    private var peerSettingsSeen = false
    private var connectionBytesUncredited = 0
    private var highestStreamID = HTTP2StreamID(0)
    private var goAwayLastStreamID: HTTP2StreamID?
    private var closing = false

    /// `initialMaxStreams` must be what the `NIOHTTP2Handler` in front advertised.
    init(
        core: MockServerCore,
        resources: ServingResources,
        connectionID: Int,
        certificateAuthenticated: Bool,
        warmingUp: Bool,
        initialMaxStreams: Int
    ) {
        self.core = core
        self.resources = resources
        self.connectionID = connectionID
        self.certificateAuthenticated = certificateAuthenticated
        self.isSink = core.configuration.mode == .sink
        self.bodyLimit =
            core.configuration.mode == .sink
            ? (core.recordsNotifications ? Self.sinkBodyLimit : 0) : Self.validatingBodyLimit
        self.warmingUp = warmingUp
        self.advertisedMaxStreams = initialMaxStreams
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        self.isReading = true
        switch frame.payload {
        case .headers(let headers):
            if self.streams[frame.streamID] != nil {
                // Trailers: nothing in them matters to APNs, only where the request ends.
                if headers.endStream { self.requestComplete(streamID: frame.streamID) }
            } else if frame.streamID > self.highestStreamID {
                if let last = self.goAwayLastStreamID, frame.streamID > last {
                    // Opened after our GOAWAY: dropped unanswered, like APNs does.
                    self.highestStreamID = frame.streamID
                } else {
                    self.streamOpened(streamID: frame.streamID, headers: headers)
                }
            }
        case .data(let data):
            self.received(data: data, streamID: frame.streamID)
        case .rstStream:
            self.forget(streamID: frame.streamID)
        case .goAway(_, let errorCode, _) where errorCode != .noError:
            // The client found the connection broken (`PeerGoAwayCloser` says why this closes).
            context.close(promise: nil)
        case .settings(.settings):
            if !self.peerSettingsSeen {
                self.peerSettingsSeen = true
                self.write(
                    HTTP2Frame(
                        streamID: .rootStream,
                        payload: .windowUpdate(windowSizeIncrement: Self.connectionWindow - 65_535)
                    )
                )
            }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        self.isReading = false
        self.flushIfNeeded()
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let closed = event as? StreamClosedEvent {
            self.forget(streamID: closed.streamID)
        } else if let event = event as? MockConnectionEvent {
            switch event {
            case .maxConcurrentStreamsChanged:
                self.readvertiseMaxConcurrentStreams()
                self.flushIfNeeded()
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        for state in self.streams.values { state.scheduledAnswer?.cancel() }
        // Everything still here (held streams included) ends unanswered.
        self.core.streamsFinished(count: self.streams.count, answeredWith: nil)
        self.streams.removeAll()
        self.heldStreamCount = 0
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.core.logger.debug(
            "connection error",
            metadata: ["connection": "\(self.connectionID)", "error": "\(error)"]
        )
        // NIOHTTP2Handler has already answered protocol errors (RST_STREAM or GOAWAY); a
        // connection-level one leaves nothing worth keeping open, and neither does a TLS or I/O error.
        if !Self.isStreamLevel(error) {
            context.close(promise: nil)
        }
    }

    private static func isStreamLevel(_ error: any Error) -> Bool {
        guard error is any NIOHTTP2Error else { return false }
        return
            !(error is NIOHTTP2Errors.BadClientMagic || error is NIOHTTP2Errors.MissingPreface
            || error is NIOHTTP2Errors.FlowControlViolation || error is NIOHTTP2Errors.UnableToParseFrame
            || error is NIOHTTP2Errors.ReceivedBadSettings || error is NIOHTTP2Errors.ExcessiveNumberOfGlitches
            || error is NIOHTTP2Errors.ExcessiveRSTFrames || error is NIOHTTP2Errors.ExcessiveControlFrames
            || error is NIOHTTP2Errors.ExcessiveContinuationFrames || error is NIOHTTP2Errors.ExcessiveStreamErrors
            || error is NIOHTTP2Errors.ExcessiveEmptyDataFrames || error is NIOHTTP2Errors.ExcessivelyLargeHeaderBlock)
    }

    // MARK: Streams

    private func streamOpened(streamID: HTTP2StreamID, headers: HTTP2Frame.FramePayload.Headers) {
        let previousHighest = self.highestStreamID
        self.highestStreamID = streamID
        let decision = self.core.streamArrived(openOnConnection: self.streams.count)
        var goAwayAfterwards: String?
        switch decision.goAway {
        case .beforeThisStream(let reason):
            self.sendGoAway(lastStreamID: previousHighest, reason: reason)
            return
        case .includingThisStream(let reason):
            goAwayAfterwards = reason
        case nil:
            break
        }
        switch decision.disposition {
        case .refuse:
            self.write(HTTP2Frame(streamID: streamID, payload: .rstStream(.refusedStream)))
        case .hold, .normal:
            let held = decision.disposition == .hold
            if held { self.heldStreamCount += 1 }
            self.streams[streamID] = StreamState(headers: headers.headers, held: held)
            if headers.endStream { self.requestComplete(streamID: streamID) }
        }
        if let reason = goAwayAfterwards {
            self.sendGoAway(lastStreamID: streamID, reason: reason)
        }
    }

    private func received(data: HTTP2Frame.FramePayload.Data, streamID: HTTP2StreamID) {
        let payloadBytes = data.data.readableBytes
        let flowControlled = payloadBytes + (data.paddingBytes.map { $0 + 1 } ?? 0)
        self.connectionBytesUncredited += flowControlled
        if self.connectionBytesUncredited >= Self.connectionWindow / 2 {
            self.write(
                HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: self.connectionBytesUncredited))
            )
            self.connectionBytesUncredited = 0
        }
        guard var state = self.streams[streamID] else { return }
        if state.bodyLength < self.bodyLimit, case .byteBuffer(var buffer) = data.data {
            let room = self.bodyLimit - state.bodyLength
            if buffer.readableBytes > room { buffer = buffer.getSlice(at: buffer.readerIndex, length: room)! }
            if state.body == nil {
                state.body = buffer
            } else {
                state.body!.writeImmutableBuffer(buffer)
            }
        }
        state.bodyLength += payloadBytes
        if data.endStream {
            self.streams[streamID] = state
            self.requestComplete(streamID: streamID)
            return
        }
        state.uncreditedBytes += flowControlled
        if state.uncreditedBytes >= Self.streamWindow / 2 {
            self.write(HTTP2Frame(streamID: streamID, payload: .windowUpdate(windowSizeIncrement: state.uncreditedBytes)))
            state.uncreditedBytes = 0
        }
        self.streams[streamID] = state
    }

    /// The client is done with `streamID` (reset, or NIO closed it): drop it unanswered.
    private func forget(streamID: HTTP2StreamID, closingIfDrained: Bool = true) {
        guard let state = self.streams.removeValue(forKey: streamID) else { return }
        state.scheduledAnswer?.cancel()
        if state.held { self.heldStreamCount -= 1 }
        self.core.streamsFinished(answeredWith: nil)
        if closingIfDrained { self.finishGoAwayIfDone(lastWrite: nil) }
    }

    private func requestComplete(streamID: HTTP2StreamID) {
        guard let state = self.streams[streamID], !state.held else { return }
        let (disposition, delay) = self.core.requestCompleted()
        let answer: Answer
        switch disposition {
        case .dropConnection:
            self.dropConnection()
            return
        case .silence:
            self.core.connectionSilenced()
            if let context = self.context { ConnectionSilencer.silence(context.channel) }
            return
        case .status(let code, let reason, let retryAfterSeconds):
            answer = .failure(
                APNsErrorAnswer(status: code, reason: reason, retryAfterSeconds: retryAfterSeconds),
                apnsID: self.answerID(for: state.headers)
            )
        case .normal:
            answer = self.isSink ? self.sinkAnswer(streamID: streamID, state: state) : self.validate(streamID: streamID, state: state)
        }
        guard let delay, let context = self.context else {
            self.send(answer, on: streamID)
            return
        }
        let scheduled = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(delay))) {
            guard self.streams[streamID] != nil, !self.closing else { return }
            self.send(answer, on: streamID)
            self.flushIfNeeded()
        }
        self.streams[streamID]?.scheduledAnswer = scheduled
    }

    // MARK: Answers

    private func sinkAnswer(streamID: HTTP2StreamID, state: StreamState) -> Answer {
        let apnsID = state.headers.first(name: "apns-id") ?? self.idGenerator.next()
        if self.core.recordsNotifications {
            let path = state.headers.first(name: ":path") ?? ""
            let token = path.hasPrefix("/3/device/") ? Substring(path.dropFirst("/3/device/".count)) : Substring(path)
            self.record(streamID: streamID, state: state, deviceToken: token, apnsID: apnsID, uniqueID: nil)
        }
        return .success(apnsID: apnsID, uniqueID: nil)
    }

    /// Apple's checks, in this order: method and path, duplicate headers, authentication, `apns-*`
    /// headers, payload, device-token state.
    private func validate(streamID: HTTP2StreamID, state: StreamState) -> Answer {
        let headers = state.headers
        if let bundle = APNsRequestValidator.broadcastBundle(path: headers.first(name: ":path")) {
            return validateBroadcast(streamID: streamID, state: state, bundle: bundle)
        }
        let token: Substring
        switch APNsRequestValidator.deviceToken(method: headers.first(name: ":method"), path: headers.first(name: ":path")) {
        case .success(let value): token = value
        case .failure(let error): return .failure(error, apnsID: self.answerID(for: headers))
        }
        if APNsRequestValidator.duplicateHeader(in: headers) != nil {
            return .failure(.duplicateHeaders, apnsID: self.answerID(for: headers))
        }
        if !self.certificateAuthenticated, let error = self.authenticate(headers) {
            return .failure(error, apnsID: self.answerID(for: headers))
        }
        if let error = APNsRequestValidator.checkHeaders(headers)
            ?? APNsRequestValidator.checkPayload(
                state.body,
                length: state.bodyLength,
                pushType: headers.first(name: "apns-push-type")
            )
            ?? self.core.deviceTokenAnswer(
                token,
                liveActivityEvent: headers.first(name: "apns-push-type") == "liveactivity"
                    ? APNsRequestValidator.liveActivityEvent(in: state.body) : nil)
        {
            return .failure(error, apnsID: self.answerID(for: headers))
        }
        let apnsID = self.answerID(for: headers)
        let uniqueID = self.core.configuration.environment == .development ? UUID().uuidString.lowercased() : nil
        self.record(streamID: streamID, state: state, deviceToken: token, apnsID: apnsID, uniqueID: uniqueID)
        return .success(apnsID: apnsID, uniqueID: uniqueID)
    }

    /// A broadcast (`POST /4/broadcasts/apps/{bundle}` with `apns-channel-id`): a Live Activity
    /// update or end to every device subscribed to a channel the bundle created. Recorded with
    /// the channel id as its device token.
    private func validateBroadcast(streamID: HTTP2StreamID, state: StreamState, bundle: String) -> Answer {
        let headers = state.headers
        let failure = { (error: APNsErrorAnswer) in Answer.failure(error, apnsID: self.answerID(for: headers)) }
        guard headers.first(name: ":method") == "POST" else { return failure(.methodNotAllowed) }
        if APNsRequestValidator.duplicateHeader(in: headers) != nil { return failure(.duplicateHeaders) }
        if !self.certificateAuthenticated, let error = self.authenticate(headers) { return failure(error) }
        if let error = APNsRequestValidator.checkBroadcast(headers, body: state.body, length: state.bodyLength) { return failure(error) }
        let channel = headers.first(name: "apns-channel-id") ?? ""
        guard self.core.channels({ $0.storagePolicy(bundle: bundle, id: channel) }) != nil else { return failure(.channelNotRegistered) }
        let apnsID = self.answerID(for: headers)
        let uniqueID = self.core.configuration.environment == .development ? UUID().uuidString.lowercased() : nil
        self.record(streamID: streamID, state: state, deviceToken: Substring(channel), apnsID: apnsID, uniqueID: uniqueID)
        return .success(apnsID: apnsID, uniqueID: uniqueID)
    }

    /// Token authentication for one request, with the connection's churn rule and warm-up.
    private func authenticate(_ headers: HPACKHeaders) -> APNsErrorAnswer? {
        guard let authorization = headers.first(name: "authorization") else { return .missingProviderToken }
        let trimmed = authorization.drop(while: { $0 == " " })
        if trimmed.isEmpty || trimmed.lowercased() == "bearer" { return .missingProviderToken }
        guard trimmed.count > 7, trimmed.prefix(7).lowercased() == "bearer " else { return .invalidProviderToken }
        let jwt = trimmed.dropFirst(7).drop(while: { $0 == " " })
        guard !jwt.isEmpty else { return .missingProviderToken }
        let now = self.core.configuration.now()
        switch self.core.judgeProviderToken(jwt, now: now, verifier: self.resources.verifier) {
        case .invalid:
            return .invalidProviderToken
        case .expired:
            self.tokenSession.refusedAsExpired(jwt)
            return .expiredProviderToken
        case .fresh:
            switch self.tokenSession.offer(jwt, now: now) {
            case .tooManyUpdates:
                return .tooManyProviderTokenUpdates
            case .accepted:
                if self.warmingUp {
                    self.warmingUp = false
                    self.readvertiseMaxConcurrentStreams()
                }
                return nil
            }
        }
    }

    /// The request's `apns-id` when it is well-formed, else a fresh one.
    private func answerID(for headers: HPACKHeaders) -> String {
        if let sent = headers.first(name: "apns-id"), APNsRequestValidator.isCanonicalUUID(sent) { return sent }
        return self.idGenerator.next()
    }

    private func record(streamID: HTTP2StreamID, state: StreamState, deviceToken: Substring, apnsID: String, uniqueID: String?) {
        var headers: [String: String] = [:]
        for header in state.headers where !header.name.hasPrefix(":") {
            headers[header.name.lowercased()] = header.value
        }
        headers["apns-id"] = apnsID
        if let uniqueID { headers["apns-unique-id"] = uniqueID }
        let payload = state.body.map { Data($0.readableBytesView) } ?? Data()
        self.core.record(
            RecordedNotification(
                connectionID: self.connectionID,
                streamID: Int(streamID),
                deviceToken: String(deviceToken),
                headers: headers,
                payload: payload,
                receivedAt: self.core.configuration.now()
            ),
            to: self.resources.recordFile
        )
    }

    /// Writes `answer` and closes `streamID`; closes the connection too if a GOAWAY is draining
    /// and this was the last stream to answer.
    private func send(_ answer: Answer, on streamID: HTTP2StreamID) {
        guard self.streams.removeValue(forKey: streamID) != nil, let context = self.context else { return }
        let lastWrite = self.willFinishGoAway() ? context.eventLoop.makePromise(of: Void.self) : nil
        var headers = HPACKHeaders()
        switch answer {
        case .success(let apnsID, let uniqueID):
            headers.add(name: ":status", value: "200")
            headers.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
            if let uniqueID { headers.add(name: "apns-unique-id", value: uniqueID, indexing: .nonIndexable) }
            self.write(
                HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true))),
                promise: lastWrite
            )
        case .failure(let error, let apnsID):
            headers.add(name: ":status", value: String(error.status))
            headers.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
            headers.add(name: "content-type", value: "application/json")
            if let retryAfter = error.retryAfterSeconds {
                headers.add(name: "retry-after", value: String(retryAfter))
            }
            self.write(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers))))
            let body = context.channel.allocator.buffer(string: error.body)
            self.write(
                HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(body), endStream: true))),
                promise: lastWrite
            )
        }
        self.core.streamsFinished(answeredWith: answer.status)
        self.finishGoAwayIfDone(lastWrite: lastWrite)
    }

    // MARK: Connection-level actions

    private func readvertiseMaxConcurrentStreams() {
        guard !self.closing else { return }
        let value = self.core.maxConcurrentStreams(warmingUp: self.warmingUp)
        guard value != self.advertisedMaxStreams else { return }
        self.advertisedMaxStreams = value
        self.write(
            HTTP2Frame(
                streamID: .rootStream,
                payload: .settings(.settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: value)]))
            )
        )
    }

    /// Sends GOAWAY through ``RawFrameInjector`` (see there why) and from now on drops streams
    /// above `lastStreamID`; the connection closes once the rest are answered.
    private func sendGoAway(lastStreamID: HTTP2StreamID, reason: String) {
        guard self.goAwayLastStreamID == nil, !self.closing, let context = self.context,
            let injector = try? context.pipeline.syncOperations.context(handlerType: RawFrameInjector.self)
        else { return }
        self.goAwayLastStreamID = lastStreamID
        for streamID in Array(self.streams.keys) where streamID > lastStreamID {
            self.forget(streamID: streamID, closingIfDrained: false)
        }
        let frame = RawFrameInjector.goAwayFrame(
            lastStreamID: lastStreamID,
            errorCode: .noError,
            debugData: #"{"reason":"\#(APNsErrorAnswer.jsonEscaped(reason))"}"#,
            allocator: context.channel.allocator
        )
        // Frames already handed to NIOHTTP2 go first, so nothing overtakes or splits them.
        self.needsFlush = false
        context.flush()
        let lastWrite = self.willFinishGoAway() ? context.eventLoop.makePromise(of: Void.self) : nil
        injector.writeAndFlush(NIOAny(frame), promise: lastWrite)
        self.core.goAwaySent()
        self.core.logger.info(
            "GOAWAY sent",
            metadata: ["connection": "\(self.connectionID)", "lastStreamID": "\(lastStreamID)", "reason": "\(reason)"]
        )
        self.finishGoAwayIfDone(lastWrite: lastWrite)
    }

    /// Whether the connection is draining after a GOAWAY and has nothing left to answer.
    private func willFinishGoAway() -> Bool {
        self.goAwayLastStreamID != nil && !self.closing && self.streams.count - self.heldStreamCount <= 0
    }

    /// Closes the connection once `lastWrite` (the final frame) is on the wire. Without one, the
    /// graceful TLS close still goes out behind everything already flushed.
    private func finishGoAwayIfDone(lastWrite: EventLoopPromise<Void>?) {
        guard self.willFinishGoAway(), let context = self.context else { return }
        self.closing = true
        self.needsFlush = false
        context.flush()
        guard let lastWrite else {
            context.close(promise: nil)
            return
        }
        lastWrite.futureResult.assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Closes the TCP connection at once (RST), bypassing TLS close_notify and HTTP/2 GOAWAY.
    private func dropConnection() {
        guard !self.closing, let context = self.context else { return }
        self.closing = true
        self.core.connectionDropped()
        self.core.logger.info("dropping connection", metadata: ["connection": "\(self.connectionID)"])
        for state in self.streams.values { state.scheduledAnswer?.cancel() }
        if let socket = context.channel as? any SocketOptionProvider {
            _ = socket.setSoLinger(linger(l_onoff: 1, l_linger: 0))
        }
        if let rawContext = try? context.pipeline.syncOperations.context(handlerType: ConnectionAborter.self) {
            rawContext.close(promise: nil)
        } else {
            context.close(promise: nil)
        }
    }

    // MARK: Writing

    private func write(_ frame: HTTP2Frame, promise: EventLoopPromise<Void>? = nil) {
        guard let context = self.context else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        context.write(self.wrapOutboundOut(frame), promise: promise)
        self.needsFlush = true
        if !self.isReading { self.flushIfNeeded() }
    }

    private func flushIfNeeded() {
        guard self.needsFlush, let context = self.context else { return }
        self.needsFlush = false
        context.flush()
    }
}

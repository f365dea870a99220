import Foundation
import LogRedaction
import Logging
import MockSupport
import NIOCore
import Synchronization

/// What the mock's connections share: configuration, the record file and the locked state (issued
/// access tokens, faults, invalid tokens, counters, recorded messages). Validation and file writes
/// happen outside the lock.
final class HMSMockCore: Sendable {
    let configuration: HMSMockConfiguration
    let logger: Logger
    let recordFile: JSONLinesFile?
    private let state = Mutex(State())

    struct State {
        var stats = HMSMockStats()
        var faults = FaultBook()
        var invalidTokens: Set<String> = []
        var accessTokens = AccessTokenLedger()
        var messages = Recordings<RecordedMessage>()
        var connections: [Int: any Channel] = [:]
        var nextConnectionID = 0
        var nextRequestSerial: UInt64 = 0
    }

    init(configuration: HMSMockConfiguration, logger: Logger) throws(HMSMockError) {
        self.configuration = configuration
        self.logger = logger
        do {
            recordFile = try configuration.recordFile.map { try JSONLinesFile(path: $0) }
        } catch {
            throw .cannotOpenRecordFile(path: configuration.recordFile ?? "", detail: "\(error)")
        }
    }

    private var now: Int64 { Int64(configuration.now().timeIntervalSince1970) }
    private var nowMs: Int64 { Int64(configuration.now().timeIntervalSince1970 * 1000) }

    // MARK: Connections and requests

    func connectionAccepted(_ channel: any Channel) -> Int {
        state.withLock { state in
            state.nextConnectionID += 1
            state.stats.connectionsAccepted += 1
            state.stats.connectionsOpen += 1
            state.connections[state.nextConnectionID] = channel
            return state.nextConnectionID
        }
    }

    func connectionClosed(id: Int) {
        state.withLock { state in
            if state.connections.removeValue(forKey: id) != nil { state.stats.connectionsOpen -= 1 }
        }
    }

    /// Whether the connection of the request that just arrived goes silent (`silent_connections`).
    func takeSilence() -> Bool {
        state.withLock { state in
            guard state.faults.takeSilence() else { return false }
            state.stats.connectionsSilenced += 1
            return true
        }
    }

    /// A request arrived whole; returns how long its answer waits (the `delay_ms` fault).
    func requestReceived(on version: RequestContext.HTTPVersion) -> Int? {
        state.withLock { state in
            state.stats.requestsByHTTPVersion[version.rawValue, default: 0] += 1
            return state.faults.delayMilliseconds
        }
    }

    func answered(_ answer: HMSMockAnswer) {
        state.withLock { state in
            state.stats.responsesByStatus[String(answer.status), default: 0] += 1
            if let code = answer.code { state.stats.responsesByCode[code.rawValue, default: 0] += 1 }
        }
    }

    /// Huawei's request ids are digits: the time in ms and a serial.
    func makeRequestID() -> String {
        let serial = state.withLock { state in
            state.nextRequestSerial += 1
            return state.nextRequestSerial
        }
        let digits = String(serial % 1_000_000)
        return String(nowMs) + String(repeating: "0", count: 6 - digits.count) + digits
    }

    // MARK: The token endpoint

    /// `POST /oauth2/v3/token`, form-encoded `grant_type=client_credentials`, `client_id`, `client_secret`.
    func issueToken(body: Data) -> HMSMockAnswer {
        switch state.withLock({ $0.faults.takeTokenEndpointFault() }) {
        case .unavailable: return refused(.tokenEndpointUnavailable)
        case .refuseCredentials: return refused(.tokenRefused(.wrongClientSecret))
        case nil: break
        }
        if let refusal = Self.credentialRefusal(
            FormFields.parse(body), appID: configuration.appID, clientSecret: configuration.clientSecret)
        {
            logger.debug("token request refused", metadata: ["why": "\(refusal)"])
            return refused(.tokenRefused(refusal))
        }
        let token = "hms-mock." + (0..<3).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        let lifetime = configuration.accessTokenLifetimeSeconds
        let now = now
        state.withLock { state in
            state.accessTokens.issue(token, now: now, lifetimeSeconds: lifetime)
            state.stats.tokensIssued += 1
        }
        return .accessToken(token, expiresIn: lifetime)
    }

    private func refused(_ answer: HMSMockAnswer) -> HMSMockAnswer {
        state.withLock { $0.stats.tokenRequestsRefused += 1 }
        return answer
    }

    /// Why the token endpoint refuses these credentials, checked in Huawei's order; nil to issue.
    static func credentialRefusal(_ form: [String: String], appID: String, clientSecret: String) -> HMSMockAnswer.TokenRefusal? {
        guard form["grant_type"] == "client_credentials" else { return .wrongGrantType }
        // Huawei's client ids match ^[0-9]{1,64}$.
        guard let clientID = form["client_id"], (1...64).contains(clientID.utf8.count),
            clientID.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { return .malformedClientID }
        guard clientID == appID else { return .unknownClientID }
        guard let secret = form["client_secret"], !secret.isEmpty else { return .emptyClientSecret }
        return secret == clientSecret ? nil : .wrongClientSecret
    }

    // MARK: messages:send

    /// What a send meets before its body is read.
    private enum Gate {
        case flowControl(retryAfterSeconds: Int?)
        case refused(HMSResultCode)
        case open
    }

    /// One `POST /v1/{appId}/messages:send`.
    func send(appID: String, authorization: String?, body: Data, context: RequestContext) -> HMSMockAnswer {
        let requestID = makeRequestID()
        switch gate(appID: appID, bearer: BearerToken.from(authorization: authorization)) {
        case .flowControl(let retryAfter): return .flowControl(retryAfterSeconds: retryAfter, requestID: requestID)
        case .refused(let code): return .result(code, requestID: requestID)
        case .open: break
        }
        switch HMSMessageValidator.validate(body: body) {
        case .failure(let refusal):
            logger.debug("message refused", metadata: ["code": "\(refusal.code.rawValue)", "why": "\(refusal.message)"])
            return .result(refusal.code, message: refusal.message, requestID: requestID)
        case .success(let message):
            return deliver(message, requestID: requestID, context: context)
        }
    }

    /// Flow control first (a front door's rate limit), then the access token and the app it is for,
    /// then an armed internal error.
    private func gate(appID: String, bearer: String?) -> Gate {
        let now = now
        return state.withLock { state in
            state.stats.sendRequests += 1
            if let flow = state.faults.takeFlowControl() { return .flowControl(retryAfterSeconds: flow.retryAfterSeconds) }
            switch state.accessTokens.verdict(for: bearer, now: now) {
            case .unknown:
                state.stats.sendsUnauthenticated += 1
                return .refused(.oauthAuthenticationError)
            case .expired:
                state.stats.sendsWithExpiredToken += 1
                return .refused(.oauthTokenExpired)
            case .valid:
                break
            }
            // Tokens are issued for the configured app only: another app's path is another app's token.
            guard appID == configuration.appID else {
                state.stats.sendsUnauthenticated += 1
                return .refused(.oauthAuthenticationError)
            }
            return state.faults.takeInternalError() ? .refused(.internalError) : .open
        }
    }

    private func deliver(_ message: HMSMessageValidator.Message, requestID: String, context: RequestContext) -> HMSMockAnswer {
        let receivedAtMs = nowMs
        let (delivery, records) = state.withLock { state in
            let delivery = TokenDelivery(tokens: message.tokens, invalid: state.invalidTokens)
            guard !message.validateOnly else {
                state.stats.messagesValidated += 1
                return (delivery, [RecordedMessage]())
            }
            let records = delivery.delivered.map { token in
                RecordedMessage(
                    token: token, data: message.data, android: message.android, headers: context.headers,
                    httpVersion: context.httpVersion.rawValue, requestId: requestID, receivedAtMs: receivedAtMs,
                    connectionID: context.connectionID)
            }
            state.stats.messagesAccepted += records.count
            if configuration.recordInMemory { state.messages.append(contentsOf: records) }
            return (delivery, records)
        }
        // Written outside the lock: the file is shared by every connection and has its own.
        for record in records {
            if let recordFile, let error = recordFile.append(record) {
                logger.error("cannot append to the record file", metadata: ["error": "\(error)"])
            }
        }
        if !delivery.illegal.isEmpty {
            logger.debug("illegal tokens", metadata: ["tokens": "\(delivery.illegal.map { Redaction.redact($0) })"])
        }
        guard delivery.code == .partialSuccess else { return .result(delivery.code, requestID: requestID) }
        return .partialSuccess(delivered: delivery.delivered.count, illegalTokens: delivery.illegal, requestID: requestID)
    }

    // MARK: Control

    var stats: HMSMockStats { state.withLock { $0.stats } }
    var messages: [RecordedMessage] { state.withLock { $0.messages.all } }

    var armedFaults: HMSMockFaults {
        state.withLock { state in
            var faults = state.faults.armed
            if !state.invalidTokens.isEmpty { faults.invalidTokens = state.invalidTokens.sorted() }
            return faults
        }
    }

    func arm(_ faults: HMSMockFaults) {
        state.withLock { state in
            state.faults.arm(faults)
            state.invalidTokens.formUnion(faults.invalidTokens ?? [])
        }
        var shown = faults
        shown.invalidTokens = faults.invalidTokens?.map { Redaction.redact($0) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(shown)).map { String(decoding: $0, as: UTF8.self) } ?? "\(shown)"
        logger.info("faults armed", metadata: ["faults": "\(json)"])
    }

    /// Disarms the counted faults and the delay (invalid tokens stay invalid until `reset`).
    func clearFaults() {
        state.withLock { $0.faults = FaultBook() }
    }

    func markInvalid(_ tokens: [String]) {
        state.withLock { $0.invalidTokens.formUnion(tokens) }
    }

    /// Every access token issued so far expires now: sends with them are answered 80200003.
    func expireAccessTokens() {
        let now = now
        state.withLock { $0.accessTokens.expireAll(now: now) }
    }

    /// Forgets messages, faults, invalid tokens and counters (open connections stay counted, issued
    /// access tokens stay valid).
    func reset() {
        state.withLock { state in
            state.messages.removeAll()
            state.faults = FaultBook()
            state.invalidTokens.removeAll()
            var stats = HMSMockStats()
            stats.connectionsOpen = state.stats.connectionsOpen
            state.stats = stats
        }
    }

    /// Fails pending and later waits; returns the open connections.
    func shutDown() -> [any Channel] {
        state.withLock { state in
            state.messages.fail(with: HMSMockError.shutDown)
            return Array(state.connections.values)
        }
    }

    /// Waits until at least `count` messages are recorded and returns them all.
    func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        try await Recordings.wait(count: count, of: "messages", timeout: timeout, timedOut: HMSMockError.timedOut) { body in
            self.state.withLock { body(&$0.messages) }
        }
    }
}

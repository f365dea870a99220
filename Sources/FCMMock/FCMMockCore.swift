import Foundation
import Logging
import MockSupport
import NIOCore
import Synchronization

/// What the mock's connections share: configuration, the service account's verifier, the record
/// file and the locked state (issued access tokens, faults, unregistered tokens, counters,
/// recorded messages). Signature checks and file writes happen outside the lock.
final class FCMMockCore: Sendable {
    let configuration: FCMMockConfiguration
    let verifier: ServiceAccountVerifier
    let logger: Logger
    let recordFile: JSONLinesFile?
    private let state = Mutex(State())

    struct State {
        var stats = FCMMockStats()
        var faults = FaultBook()
        var unregistered: Set<String> = []
        /// Access token → expiry (Unix seconds).
        var accessTokens: [String: Int64] = [:]
        var messages = Recordings<RecordedMessage>()
        var connections: [Int: any Channel] = [:]
        var nextConnectionID = 0
        var nextMessageSerial: UInt64 = 0
    }

    /// What a `messages:send` gets.
    enum SendOutcome: Sendable, Equatable {
        case answer(FCMMockAnswer)
        /// Close the connection without answering (a `drop_connections` fault).
        case dropConnection
    }

    /// Access tokens kept at most; past it, expired ones are forgotten.
    private static let accessTokenLimit = 10_000

    init(configuration: FCMMockConfiguration, logger: Logger) throws(FCMMockError) {
        self.configuration = configuration
        self.logger = logger
        verifier = try ServiceAccountVerifier(path: configuration.serviceAccountPath)
        do {
            recordFile = try configuration.recordFile.map { try JSONLinesFile(path: $0) }
        } catch {
            throw .cannotOpenRecordFile(path: configuration.recordFile ?? "", detail: "\(error)")
        }
    }

    private var now: Int64 { Int64(configuration.now().timeIntervalSince1970) }

    // MARK: Connections

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

    func answered(_ status: Int) {
        state.withLock { $0.stats.responsesByStatus[String(status), default: 0] += 1 }
    }

    // MARK: The token endpoint

    /// `POST /token`, form-encoded `grant_type` (JWT bearer) and `assertion`.
    /// Whether the connection of the request that just arrived goes silent (`silent_connections`).
    func takeSilence() -> Bool {
        state.withLock { state in
            guard state.faults.takeSilence() else { return false }
            state.stats.connectionsSilenced += 1
            return true
        }
    }

    func exchangeToken(body: Data) -> FCMMockAnswer {
        if state.withLock({ $0.faults.takeTokenEndpointFault() }) {
            return refused(.oauthError(status: 503, "temporarily_unavailable", "The token endpoint is unavailable (fault)."))
        }
        let form = FormFields.parse(body)
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return refused(.oauthError("unsupported_grant_type", "Invalid grant_type: \(form["grant_type"]?.prefix(80) ?? "")"))
        }
        guard let assertion = form["assertion"] else {
            return refused(.oauthError("invalid_request", "Missing required parameter: assertion"))
        }
        let now = now
        if case .failure(let rejection) = verifier.verify(assertion, now: now) {
            logger.debug("token request refused", metadata: ["why": "\(rejection)"])
            return refused(.oauthError("invalid_grant", rejection.description))
        }
        let token = "ya29.mock-" + (0..<3).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        let lifetime = configuration.accessTokenLifetimeSeconds
        state.withLock { state in
            if state.accessTokens.count >= Self.accessTokenLimit {
                state.accessTokens = state.accessTokens.filter { $0.value > now }
            }
            state.accessTokens[token] = now + Int64(lifetime)
            state.stats.tokensIssued += 1
        }
        return .accessToken(token, expiresIn: lifetime)
    }

    private func refused(_ answer: FCMMockAnswer) -> FCMMockAnswer {
        state.withLock { $0.stats.tokenRequestsRefused += 1 }
        return answer
    }

    // MARK: messages:send

    /// One `POST /v1/projects/{project}/messages:send`.
    func send(project: String, authorization: String?, body: Data, connectionID: Int) -> SendOutcome {
        let now = now
        enum Gate {
            case drop
            case fault(FCMMockAnswer)
            case unauthenticated
            case open
        }
        let gate: Gate = state.withLock { state in
            state.stats.sendRequests += 1
            if state.faults.takeDrop() {
                state.stats.connectionsDropped += 1
                return .drop
            }
            guard let bearer = BearerToken.from(authorization: authorization), let expiry = state.accessTokens[bearer], expiry > now else {
                state.stats.sendsUnauthenticated += 1
                return .unauthenticated
            }
            if let answer = state.faults.takeAnswerFault() { return .fault(answer) }
            return .open
        }
        switch gate {
        case .drop: return .dropConnection
        case .fault(let answer): return .answer(answer)
        case .unauthenticated: return .answer(.unauthenticated)
        case .open: break
        }
        guard project == verifier.projectID else {
            return .answer(
                .fcmError(
                    status: 403, apiStatus: "PERMISSION_DENIED",
                    message:
                        "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project.prefix(100))'"
                ))
        }
        let message: FCMMessageValidator.Message
        switch FCMMessageValidator.validate(body: body) {
        case .success(let valid): message = valid
        case .failure(let answer): return .answer(answer)
        }
        enum Verdict {
            case unregistered, validated
            case recorded(RecordedMessage)
        }
        let verdict: Verdict = state.withLock { state in
            if state.unregistered.contains(message.token) { return .unregistered }
            if message.validateOnly {
                state.stats.messagesValidated += 1
                return .validated
            }
            state.nextMessageSerial += 1
            state.stats.messagesAccepted += 1
            let record = RecordedMessage(
                token: message.token, data: message.data, android: message.android,
                name: "projects/\(project)/messages/0:\(now * 1000)%\(String(state.nextMessageSerial, radix: 16))",
                receivedAtMs: Int64(configuration.now().timeIntervalSince1970 * 1000), connectionID: connectionID)
            if configuration.recordInMemory { state.messages.append(record) }
            return .recorded(record)
        }
        switch verdict {
        case .unregistered:
            return .answer(.unregistered)
        case .validated:
            return .answer(.sent(name: "projects/\(project)/messages/fake_message_id"))
        case .recorded(let record):
            // Written outside the lock: the file is shared by every connection and has its own.
            if let recordFile, let error = recordFile.append(record) {
                logger.error("cannot append to the record file", metadata: ["error": "\(error)"])
            }
            return .answer(.sent(name: record.name))
        }
    }

    // MARK: Control

    var stats: FCMMockStats { state.withLock { $0.stats } }
    var messages: [RecordedMessage] { state.withLock { $0.messages.all } }
    var armedFaults: FCMMockFaults { state.withLock { $0.faults.armed } }

    func arm(_ faults: FCMMockFaults) {
        state.withLock { state in
            state.faults.arm(faults)
            state.unregistered.formUnion(faults.unregistered ?? [])
        }
        logger.info("faults armed", metadata: ["faults": "\(faults)"])
    }

    func clearFaults() {
        state.withLock { $0.faults = FaultBook() }
    }

    /// Every access token issued so far stops working (answered 401 UNAUTHENTICATED), as when
    /// Google revokes them early.
    func expireAccessTokens() {
        state.withLock { $0.accessTokens.removeAll() }
    }

    func markUnregistered(_ tokens: [String]) {
        state.withLock { $0.unregistered.formUnion(tokens) }
    }

    /// Forgets messages, faults, unregistered tokens and counters (open connections stay counted).
    func reset() {
        state.withLock { state in
            state.messages.removeAll()
            state.faults = FaultBook()
            state.unregistered.removeAll()
            var stats = FCMMockStats()
            stats.connectionsOpen = state.stats.connectionsOpen
            state.stats = stats
        }
    }

    /// Fails pending and later waits; returns the open connections.
    func shutDown() -> [any Channel] {
        state.withLock { state in
            state.messages.fail(with: FCMMockError.shutDown)
            return Array(state.connections.values)
        }
    }

    /// Waits until at least `count` messages are recorded and returns them all.
    func waitForMessages(count: Int, timeout: Duration) async throws -> [RecordedMessage] {
        try await Recordings.wait(count: count, of: "messages", timeout: timeout, timedOut: FCMMockError.timedOut) { body in
            self.state.withLock { body(&$0.messages) }
        }
    }
}

import Foundation
import Logging
import MockSupport

/// fcm-mock's own part of what its connections share: the configuration, the service account's
/// verifier, and what its token endpoint and `messages:send` do to the locked state (`shared`).
/// Signature checks and file writes happen outside the lock.
final class FCMMockCore: Sendable {
    let configuration: FCMMockConfiguration
    let verifier: ServiceAccountVerifier
    let shared: SharedMockState<FCMMockState>

    /// What a send meets before its body is read.
    private enum Gate {
        case drop
        case fault(FCMMockAnswer)
        case unauthenticated
        case open
    }

    /// How a valid message fares.
    private enum Verdict {
        case unregistered, validated
        case recorded(RecordedMessage)
    }

    init(configuration: FCMMockConfiguration, logger: Logger) throws(FCMMockError) {
        self.configuration = configuration
        verifier = try ServiceAccountVerifier(path: configuration.serviceAccountPath)
        shared = try SharedMockState(settings: configuration.settings, logger: logger)
    }

    var logger: Logger { shared.logger }

    // MARK: The token endpoint

    /// `POST /token`, form-encoded `grant_type` (JWT bearer) and `assertion`.
    func exchangeToken(body: Data) -> FCMMockAnswer {
        if shared.withLock({ $0.faults.takeTokenEndpointFault() }) {
            return shared.refusedTokenRequest(
                .oauthError(status: 503, "temporarily_unavailable", "The token endpoint is unavailable (fault)."))
        }
        let form = FormFields.parse(body)
        guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return shared.refusedTokenRequest(
                .oauthError("unsupported_grant_type", "Invalid grant_type: \(form["grant_type"]?.prefix(80) ?? "")"))
        }
        guard let assertion = form["assertion"] else {
            return shared.refusedTokenRequest(.oauthError("invalid_request", "Missing required parameter: assertion"))
        }
        if case .failure(let rejection) = verifier.verify(assertion, now: shared.now) {
            logger.debug("token request refused", metadata: ["why": "\(rejection)"])
            return shared.refusedTokenRequest(.oauthError("invalid_grant", rejection.description))
        }
        let token = shared.issueAccessToken(prefix: "ya29.mock-")
        return .accessToken(token, expiresIn: configuration.accessTokenLifetimeSeconds)
    }

    // MARK: messages:send

    /// One `POST /v1/projects/{project}/messages:send`.
    func send(project: String, authorization: String?, body: Data, connectionID: Int) -> MockReply<FCMMockAnswer> {
        switch gate(bearer: BearerToken.from(authorization: authorization)) {
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
        switch FCMMessageValidator.validate(body: body) {
        case .success(let message): return .answer(deliver(message, project: project, connectionID: connectionID))
        case .failure(let answer): return .answer(answer)
        }
    }

    /// A dropped connection first, then the access token, then an armed error answer.
    private func gate(bearer: String?) -> Gate {
        let now = shared.now
        return shared.withLock { state in
            state.stats.sendRequests += 1
            if state.faults.takeDrop() {
                state.stats.connectionsDropped += 1
                return .drop
            }
            guard state.accessTokens.verdict(for: bearer, now: now) == .valid else {
                state.stats.sendsUnauthenticated += 1
                return .unauthenticated
            }
            return state.faults.takeAnswerFault().map(Gate.fault) ?? .open
        }
    }

    private func deliver(_ message: FCMMessageValidator.Message, project: String, connectionID: Int) -> FCMMockAnswer {
        let (now, receivedAtMs) = (shared.now, shared.nowMs)
        let verdict: Verdict = shared.withLock { state in
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
                receivedAtMs: receivedAtMs, connectionID: connectionID)
            state.records.append(record)
            return .recorded(record)
        }
        switch verdict {
        case .unregistered:
            return .unregistered
        case .validated:
            return .sent(name: "projects/\(project)/messages/fake_message_id")
        case .recorded(let record):
            shared.writeToFile([record])
            return .sent(name: record.name)
        }
    }
}

extension FCMMockCore: MockAdminControl {
    var armedFaults: FCMMockFaults { shared.withLock { $0.faults.armed } }

    func arm(_ faults: FCMMockFaults) {
        shared.withLock { state in
            state.faults.arm(faults)
            state.unregistered.formUnion(faults.unregistered ?? [])
        }
        logger.info("faults armed", metadata: ["faults": "\(faults)"])
    }

    func clearFaults() {
        shared.withLock { $0.faults = FaultBook() }
    }

    func markUnregistered(_ tokens: [String]) {
        shared.withLock { $0.unregistered.formUnion(tokens) }
    }
}

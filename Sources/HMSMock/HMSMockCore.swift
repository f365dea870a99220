import Foundation
import LogRedaction
import Logging
import MockSupport

/// hms-mock's own part of what its connections share: the configuration, and what its token
/// endpoint and `messages:send` do to the locked state (`shared`). Validation and file writes
/// happen outside the lock.
final class HMSMockCore: Sendable {
    let configuration: HMSMockConfiguration
    let shared: SharedMockState<HMSMockState>

    /// What a send meets before its body is read.
    private enum Gate {
        case flowControl(retryAfterSeconds: Int?)
        case refused(HMSResultCode)
        case open
    }

    init(configuration: HMSMockConfiguration, logger: Logger) throws(HMSMockError) {
        self.configuration = configuration
        shared = try SharedMockState(settings: configuration.settings, logger: logger)
    }

    var logger: Logger { shared.logger }

    // MARK: Requests

    /// A request arrived whole on `version`; returns how long its answer waits (the `delay_ms` fault).
    func requestReceived(on version: MockHTTPPipeline.Version) -> Int? {
        shared.withLock { state in
            state.stats.requestsByHTTPVersion[version.rawValue, default: 0] += 1
            return state.faults.delayMilliseconds
        }
    }

    /// Huawei's request ids are digits: the time in ms and a serial.
    func makeRequestID() -> String {
        let serial = shared.withLock { state in
            state.nextRequestSerial += 1
            return state.nextRequestSerial
        }
        let digits = String(serial % 1_000_000)
        return String(shared.nowMs) + String(repeating: "0", count: 6 - digits.count) + digits
    }

    // MARK: The token endpoint

    /// `POST /oauth2/v3/token`, form-encoded `grant_type=client_credentials`, `client_id`, `client_secret`.
    func issueToken(body: Data) -> HMSMockAnswer {
        switch shared.withLock({ $0.faults.takeTokenEndpointFault() }) {
        case .unavailable: return shared.refusedTokenRequest(.tokenEndpointUnavailable)
        case .refuseCredentials: return shared.refusedTokenRequest(.tokenRefused(.wrongClientSecret))
        case nil: break
        }
        if let refusal = Self.credentialRefusal(
            FormFields.parse(body), appID: configuration.appID, clientSecret: configuration.clientSecret)
        {
            logger.debug("token request refused", metadata: ["why": "\(refusal)"])
            return shared.refusedTokenRequest(.tokenRefused(refusal))
        }
        let token = shared.issueAccessToken(prefix: "hms-mock.")
        return .accessToken(token, expiresIn: configuration.accessTokenLifetimeSeconds)
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

    /// One `POST /v1/{appId}/messages:send`.
    func send(appID: String, request: MockRequest) -> HMSMockAnswer {
        let requestID = makeRequestID()
        switch gate(appID: appID, bearer: BearerToken.from(authorization: request.header("authorization"))) {
        case .flowControl(let retryAfter): return .flowControl(retryAfterSeconds: retryAfter, requestID: requestID)
        case .refused(let code): return .result(code, requestID: requestID)
        case .open: break
        }
        switch HMSMessageValidator.validate(body: request.body) {
        case .failure(let refusal):
            logger.debug("message refused", metadata: ["code": "\(refusal.code.rawValue)", "why": "\(refusal.message)"])
            return .result(refusal.code, message: refusal.message, requestID: requestID)
        case .success(let message):
            return deliver(message, requestID: requestID, request: request)
        }
    }

    /// Flow control first (a front door's rate limit), then the access token and the app it is for,
    /// then an armed internal error.
    private func gate(appID: String, bearer: String?) -> Gate {
        let now = shared.now
        return shared.withLock { state in
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

    private func deliver(_ message: HMSMessageValidator.Message, requestID: String, request: MockRequest) -> HMSMockAnswer {
        let receivedAtMs = shared.nowMs
        // The request's headers worth recording, by lowercase name.
        var headers: [String: String] = [:]
        for name in ["content-type", "user-agent"] {
            if let value = request.header(name) { headers[name] = value }
        }
        let (delivery, records) = shared.withLock { state in
            let delivery = TokenDelivery(tokens: message.tokens, invalid: state.invalidTokens)
            guard !message.validateOnly else {
                state.stats.messagesValidated += 1
                return (delivery, [RecordedMessage]())
            }
            let records = delivery.delivered.map { token in
                RecordedMessage(
                    token: token, data: message.data, android: message.android, headers: headers,
                    httpVersion: request.httpVersion.rawValue, requestId: requestID, receivedAtMs: receivedAtMs,
                    connectionID: request.connectionID)
            }
            state.stats.messagesAccepted += records.count
            state.records.append(contentsOf: records)
            return (delivery, records)
        }
        shared.writeToFile(records)
        if !delivery.illegal.isEmpty {
            logger.debug("illegal tokens", metadata: ["tokens": "\(delivery.illegal.map { Redaction.redact($0) })"])
        }
        guard delivery.code == .partialSuccess else { return .result(delivery.code, requestID: requestID) }
        return .partialSuccess(delivered: delivery.delivered.count, illegalTokens: delivery.illegal, requestID: requestID)
    }
}

extension HMSMockCore: MockAdminControl {
    /// Invalid tokens included.
    var armedFaults: HMSMockFaults {
        shared.withLock { state in
            var faults = state.faults.armed
            if !state.invalidTokens.isEmpty { faults.invalidTokens = state.invalidTokens.sorted() }
            return faults
        }
    }

    func arm(_ faults: HMSMockFaults) {
        shared.withLock { state in
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
        shared.withLock { $0.faults = FaultBook() }
    }

    func markInvalid(_ tokens: [String]) {
        shared.withLock { $0.invalidTokens.formUnion(tokens) }
    }
}

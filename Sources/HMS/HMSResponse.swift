import Foundation
import PushSending

/// HMS Push Kit's answer to one `messages:send`: `{"code", "msg", "requestId"}`.
public struct HMSResponse: Sendable, Hashable {
    public var status: Int
    /// Nil when the body is not HMS's JSON (a proxy's 503 page, say).
    public var code: HMSResultCode?
    public var message: String?
    public var requestID: String?
    /// `Retry-After`, when the answer carried one.
    public var retryAfter: Duration?

    public init(status: Int, code: HMSResultCode?, message: String? = nil, requestID: String? = nil, retryAfter: Duration? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.requestID = requestID
        self.retryAfter = retryAfter
    }

    /// From the answer's status, body and `Retry-After`.
    public init(status: Int, body: [UInt8], retryAfter: Duration? = nil) {
        struct Answer: Decodable {
            var code: String?
            var msg: String?
            var requestId: String?
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: Data(body))
        self.init(
            status: status, code: answer?.code.map(HMSResultCode.init), message: answer?.msg, requestID: answer?.requestId,
            retryAfter: retryAfter)
    }

    /// The tokens an 80100000 answer names as illegal (its `msg` is a JSON string:
    /// `{"success":1,"failure":1,"illegal_tokens":["…"]}`).
    public var illegalTokens: [String] {
        struct Partial: Decodable { var illegal_tokens: [String]? }
        guard let message, let partial = try? JSONDecoder().decode(Partial.self, from: Data(message.utf8)) else { return [] }
        return partial.illegal_tokens ?? []
    }

    /// What the sender does about it, for a request naming `token` alone; `startedAtMs` is when
    /// the send began (HMS gives no moment a token died).
    public func outcome(token: String, startedAtMs: Int64) -> PushSendOutcome {
        switch code {
        case .success?:
            return .delivered(providerID: requestID)
        case .partialSuccess?:
            return illegalTokens.contains(token) ? .tokenDead(.registeredBefore(startedAtMs)) : .delivered(providerID: requestID)
        case .allTokensInvalid?:
            return .tokenDead(.registeredBefore(startedAtMs))
        case .authenticationFailed?, .noPermission?:
            return .credentialsRefused
        case .internalError?:
            return .retry(after: retryAfter ?? .zero)
        case .accessTokenExpired?:
            // The client already fetched a new token and tried once more; later is sound.
            return .retry(after: retryAfter ?? .seconds(1))
        case .parameterError?, .incorrectMessage?, .badTTL?, .messageTooLarge?, .tooManyTokens?:
            return .rejected
        case .unknown?, nil:
            // Flow control is 503; any 5xx or 429 is temporary, anything else will not change.
            if status == 429 || (500...599).contains(status) { return .retry(after: retryAfter ?? .seconds(1)) }
            return status == 200 ? .delivered(providerID: requestID) : .rejected
        }
    }
}

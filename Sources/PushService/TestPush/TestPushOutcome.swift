import PushSending
import PushStore
import StoreContract

/// How a device's test push ended, as the answer reports it.
public enum TestPushStatus: String, Sendable, Hashable, Codable {
    /// The provider accepted it.
    case sent
    /// The provider says the token is dead (APNs 410 `Unregistered`, 400 `BadDeviceToken`;
    /// FCM `UNREGISTERED`; HMS 80300007): it is removed, as a queued push's would be.
    case tokenDead = "token_dead"
    /// Refused for good (a bad request, refused credentials), or never sent (no settings for
    /// the provider).
    case failed
    /// Refused for now (429, 5xx, no answer in time, the connection lost): a queued push would
    /// be tried again; a test push is not.
    case retryable
}

/// What a provider's answer to a test push means, decided without I/O: the status reported, the
/// state the delivery log keeps, and whether and how the dead token goes (the dispatcher's rule,
/// `TokenRemovalRule(_:answeredAtMs:)`).
struct TestPushOutcome: Sendable, Hashable {
    var status: TestPushStatus
    /// Final: a test push is never retried.
    var state: DeliveryState
    var tokenRemoval: TokenRemovalRule?
    /// FCM's message name, HMS's request id, once accepted.
    var providerMessageID: String?

    init(_ result: PushSendResult, answeredAtMs: Int64) {
        switch result.outcome {
        case .delivered:
            self.init(status: .sent, state: .sent, providerMessageID: result.outcome.keptProviderID)
        case .tokenDead(let death):
            self.init(status: .tokenDead, state: .tokenInvalid, tokenRemoval: TokenRemovalRule(death, answeredAtMs: answeredAtMs))
        case .rejected, .credentialsRefused:
            self.init(status: .failed, state: .failed)
        case .retry, .notSent:
            self.init(status: .retryable, state: .failed)
        }
    }

    init(status: TestPushStatus, state: DeliveryState, tokenRemoval: TokenRemovalRule? = nil, providerMessageID: String? = nil) {
        self.status = status
        self.state = state
        self.tokenRemoval = tokenRemoval
        self.providerMessageID = providerMessageID
    }
}

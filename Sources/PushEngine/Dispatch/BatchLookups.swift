import PushCore
import PushSending
import StoreContract

/// What the sends of one batch (a hand-off, a claim) look up once per run of pushes that share
/// it, not once per push: the app's sender for a provider and the message's collapse id. An
/// event's pushes come together, so a hand-off of 8 takes the targets' lock, hashes the app id,
/// copies the app's `DeliveryTarget` and formats the collapse id once instead of 8 times. Kept
/// for one batch only: a reload's new senders are used from the next batch on.
struct BatchLookups {
    private let targets: any DeliveryTargetProvider
    private var lastApp: String?
    private var lastProvider: PushProvider?
    private var lastSender: (any PushSender)?
    private var lastMessageID: Int64?
    private var lastCollapseID: String?

    init(targets: any DeliveryTargetProvider) {
        self.targets = targets
    }

    /// The app's sender for `provider`, nil when the app has none. Apps compare by their bytes.
    mutating func sender(app: String, provider: PushProvider) -> (any PushSender)? {
        if let lastApp, lastProvider == provider, lastApp.sameBytes(as: app) { return lastSender }
        let sender = targets.target(forApp: app)?.senders[provider]
        (lastApp, lastProvider, lastSender) = (app, provider, sender)
        return sender
    }

    /// `CollapseID.forMessage(messageID)`.
    mutating func collapseID(forMessage messageID: Int64) -> String? {
        if lastMessageID == messageID { return lastCollapseID }
        let id = CollapseID.forMessage(messageID)
        (lastMessageID, lastCollapseID) = (messageID, id)
        return id
    }
}

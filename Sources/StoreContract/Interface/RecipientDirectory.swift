import PushCore

/// The webhook's read of its recipients: what each member needs for the policy, in one snapshot.
public protocol RecipientDirectory: Sendable {
    /// The push state of several users for one channel, keyed by the ids' bytes (`ExactID`, as the
    /// store compares them). Users the relay has never seen are absent from the result (they have
    /// no tokens to push to).
    func recipientStates(app: String, users: [String], channel: String) async throws -> [ExactID: RecipientPushState]

    /// `recipientStates` and the templates the app changed through the API, as the webhook needs
    /// them; implementations serve repeated reads from a `RecipientCache`.
    func recipientStatesAndTemplates(
        app: String, users: [String], channel: String
    ) async throws -> (states: [ExactID: RecipientPushState], templates: [PushTemplateName: PushMessageTemplate])

    /// The cache behind `recipientStatesAndTemplates`.
    var recipientCacheStatistics: RecipientCacheStatistics { get }
}

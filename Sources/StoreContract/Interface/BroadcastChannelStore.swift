/// An app's broadcast channels (`LiveActivityChannel`) and the broadcasts queued to them. A
/// channel the provider calls unknown is removed by the broadcast's outcome, as a dead token is.
public protocol BroadcastChannelStore: Sendable {
    func saveChannel(_ channel: LiveActivityChannel) async throws

    /// The app's channels, oldest first.
    func channels(app: String) async throws -> [LiveActivityChannel]

    func channel(app: String, id: String) async throws -> LiveActivityChannel?

    /// Whether it was there.
    @discardableResult
    func removeChannel(app: String, id: String) async throws -> Bool

    /// Queues one broadcast (`push.activityID` is the channel id; no user): false, and nothing
    /// queued, when the app has no such channel.
    func queueBroadcast(_ push: LiveActivityPush) async throws -> Bool
}

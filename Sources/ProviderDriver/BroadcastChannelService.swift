/// A provider's broadcast channels (APNs' channel management API for iOS 18 broadcast push): the
/// REST layer creates and deletes an app's channels through it, whichever provider offers it.
public protocol BroadcastChannelService: Sendable {
    /// Creates a channel; its id. `storagePolicy`: 0 keeps no message for an offline device, 1
    /// the latest.
    func createChannel(storagePolicy: Int) async throws -> String

    /// Deletes a channel; false when the provider did not know it (deleted before).
    func deleteChannel(_ channel: String) async throws -> Bool

    /// Closes its connections.
    func shutdown() async
}

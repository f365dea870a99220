extension PushSendOutcome {
    /// The longest provider id a delivery keeps. Providers' own are far shorter (APNs' a UUID,
    /// FCM's `projects/…/messages/…`, a push service's `Location` URL); one longer is dropped, so
    /// a push service that answers with a huge header cannot grow every stored delivery.
    public static let maximumProviderIDBytes = 512

    /// The provider's id of an accepted push, when it gave a non-empty one short enough to keep.
    public var keptProviderID: String? {
        guard case .delivered(let id?) = self, !id.isEmpty, id.utf8.count <= Self.maximumProviderIDBytes else { return nil }
        return id
    }
}

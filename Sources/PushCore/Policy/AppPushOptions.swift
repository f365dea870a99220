/// An app's push settings (Sendbird's APNs push configuration and dashboard options). Built once
/// from configuration and injected.
public struct AppPushOptions: Sendable, Hashable {
    /// Set `aps.badge` to the recipient's total unread count (Sendbird `has_unread_count_badge`,
    /// on by default).
    public var badge: Bool
    /// Set `aps.mutable-content: 1` so a notification service extension can edit the push
    /// (e.g. to mark it delivered).
    public var mutableContent: Bool
    /// Set `aps.content-available: 1`.
    public var contentAvailable: Bool
    /// Push admin messages (`ADMM`); off by default, as in Sendbird.
    public var pushAdminMessages: Bool
    /// The sound when neither the channel nor the user chose one; nil means `"default"`.
    public var defaultSound: String?
    /// Sendbird's "push notifications with multi-device support": every device of a member gets
    /// the push even while the member is online on another (Sendbird's SDKs show it only on the
    /// offline ones). Off, Sendbird's plain "push notifications": only members offline on every
    /// device get pushes.
    public var multiDevice: Bool
    /// `require_auth` of files and `require_auth_for_profile_image` of users in the payload, when
    /// the webhook does not say (the app uses Sendbird's file authentication).
    public var requireAuthForFiles: Bool
    /// APNs' limit for regular notifications.
    public var maxPayloadBytes: Int
    /// `thread-id`, `interruption-level` and the other `aps` keys beside the alert.
    public var presentation: AlertPresentation

    public init(
        badge: Bool = true,
        mutableContent: Bool = false,
        contentAvailable: Bool = false,
        pushAdminMessages: Bool = false,
        defaultSound: String? = nil,
        multiDevice: Bool = false,
        requireAuthForFiles: Bool = false,
        maxPayloadBytes: Int = 4096,
        presentation: AlertPresentation = AlertPresentation()
    ) {
        self.badge = badge
        self.mutableContent = mutableContent
        self.contentAvailable = contentAvailable
        self.pushAdminMessages = pushAdminMessages
        self.defaultSound = defaultSound
        self.multiDevice = multiDevice
        self.requireAuthForFiles = requireAuthForFiles
        self.maxPayloadBytes = maxPayloadBytes
        self.presentation = presentation
    }

    public static let defaults = AppPushOptions()
}

/// The `apns-collapse-id` of a message's pushes: one per message, the same on every retry and
/// every relay of a fleet (it is made from the message id alone), different for two messages, at
/// most 28 bytes (APNs takes 64). Delivery is at least once; with it, a push sent twice (a crash
/// between APNs' answer and its commit) replaces the first notification on the device instead of
/// showing a second. Badge pushes (message id 0) have none: they show nothing.
///
/// FCM and HMS have no per-message equivalent for data messages (FCM's `collapse_key` keeps at
/// most four keys per device while it is offline, so one per message would drop pushes; HMS's is
/// a number from -1 to 100): an Android app shows the notification with the message id as its tag.
public enum CollapseID {
    public static func forMessage(_ messageID: Int64) -> String? {
        if messageID > 0 { return "sendbird-\(messageID)" }
        // A notification of the app's server (`NotificationPayload.messageID`): one per notification.
        if messageID < 0, messageID != .min { return "notification-\(-messageID)" }
        return nil
    }
}

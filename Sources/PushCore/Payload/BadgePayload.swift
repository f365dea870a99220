import Foundation

/// The background push that sets a reader's badge (`badge_sync`): no alert, no sound, only
/// `content-available` and the new total, sent with push type `background` and priority 5, as
/// Apple requires of a background notification.
public enum BadgePayload {
    public static let pushType = "background"
    public static let priority = 5

    public static func data(badge: Int) -> Data {
        Data(#"{"aps":{"badge":\#(max(0, badge)),"content-available":1}}"#.utf8)
    }
}

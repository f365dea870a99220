import Foundation
import PushCore

/// Links between the console's pages, with ids percent-encoded as query values (an id may hold
/// `&`, `#`, `/` or spaces).
enum ConsoleLink {
    static func why(user: String, message: Int64? = nil) -> String {
        let message = message.map { id in
            id < 0 ? "&notification_id=\(NotificationPayload.notificationID(ofMessage: id) ?? 0)" : "&message_id=\(id)"
        }
        return "/console/why?user_id=\(encoded(user))" + (message ?? "")
    }

    static func user(_ user: String) -> String {
        "/console/user?user_id=\(encoded(user))"
    }

    static func testPush(user: String) -> String {
        "/console/test-push?user_id=\(encoded(user))"
    }

    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}

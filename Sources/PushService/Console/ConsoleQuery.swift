import Foundation
import Hummingbird
import PushCore

/// The user id and message id a page is asked about, from its query string as an HTML form
/// writes it (`+` is a space, then percent escapes), checked by the REST API's rules
/// (`RequestParameter`): an id no store could hold is refused, not looked up.
struct ConsoleQuery: Sendable {
    var user: String?
    var message: Int64?

    init(_ request: Request) throws(APIError) {
        let fields = ConsoleForm(text: request.uri.query ?? "")
        if let raw = fields["user_id"], !raw.isEmpty {
            user = try RequestParameter.checked("user_id", raw)
        }
        if let raw = fields["message_id"], !raw.isEmpty {
            guard let id = Int64(raw.trimmingCharacters(in: .whitespaces)), id >= 0 else {
                throw APIError.wrongType("message_id", expected: .integer)
            }
            message = id
        }
        // A notification's log (its id, which its deliveries carry negated).
        if let raw = fields["notification_id"], !raw.isEmpty {
            guard let id = Int64(raw.trimmingCharacters(in: .whitespaces)), id > 0 else {
                throw APIError.wrongType("notification_id", expected: .integer)
            }
            message = NotificationPayload.messageID(ofNotification: id)
        }
    }
}

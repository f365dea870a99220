import Foundation
import Hummingbird

/// The user id and message id a page is asked about, from its query string, checked by the REST
/// API's rules (`RequestParameter`): an id no store could hold is refused, not looked up.
struct ConsoleQuery: Sendable {
    var user: String?
    var message: Int64?

    init(_ request: Request) throws(APIError) {
        let parameters = request.uri.queryParameters
        if let raw = parameters["user_id"], !raw.isEmpty {
            user = try RequestParameter.query("user_id", from: request)
        }
        if let raw = parameters["message_id"], !raw.isEmpty {
            guard let id = Int64(String(raw).trimmingCharacters(in: .whitespaces)), id >= 0 else {
                throw APIError.wrongType("message_id", expected: .integer)
            }
            message = id
        }
    }
}

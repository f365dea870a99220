import Foundation
import MockSupport

/// An answer of APNs' channel management API: a status, a JSON body (none for 201 and 204), and
/// the channel id a create answers in `apns-channel-id`.
struct ChannelManagementAnswer: MockHTTPAnswer {
    var status: Int
    var body: Data
    var channelID: String?
    var retryAfterSeconds: Int? { nil }
    static var contentType: String { "application/json" }
    var extraHeaders: [(name: String, value: String)] { channelID.map { [("apns-channel-id", $0)] } ?? [] }

    static func json(_ status: Int, _ object: [String: Any]) -> ChannelManagementAnswer {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return ChannelManagementAnswer(status: status, body: data)
    }

    static func error(_ answer: APNsErrorAnswer) -> ChannelManagementAnswer {
        ChannelManagementAnswer(status: answer.status, body: Data(answer.body.utf8))
    }
}

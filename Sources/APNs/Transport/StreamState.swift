import Foundation

/// One request on one HTTP/2 stream, owned by the connection thread.
final class StreamState {
    let pending: PendingRequest
    let tokenGeneration: UInt64?
    var bodyOffset = 0
    var status: Int?
    var apnsID: UUID?
    var retryAfter: Duration?
    var responseBody: [UInt8] = []

    init(pending: PendingRequest, tokenGeneration: UInt64?) {
        self.pending = pending
        self.tokenGeneration = tokenGeneration
    }

    /// The finished response, parsed from status, headers and the JSON error body.
    func makeResponse() -> APNsResponse {
        var response = APNsResponse(status: status ?? 0, apnsID: apnsID, retryAfter: retryAfter)
        if !responseBody.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: Data(responseBody)) as? [String: Any]
        {
            if let reason = object["reason"] as? String { response.reason = APNsReason(rawValue: reason) }
            if let ms = object["timestamp"] as? NSNumber {
                response.timestamp = Date(timeIntervalSince1970: ms.doubleValue / 1000)
            }
        }
        return response
    }
}

import HTTPTypes
import Hummingbird
import NIOCore

/// The webhook's answer: `accepted`, `duplicate` or `ignored`, and how many pushes were queued.
///
/// Written by hand, keys sorted as `RelayRequestContext.jsonEncoder` writes them (a test
/// compares the two): encoding it with `JSONEncoder` was about 1 % of the relay's CPU, once per
/// event.
struct WebhookAnswer: ResponseGenerator, Equatable {
    enum Result: String, Encodable {
        case accepted, duplicate, ignored
    }

    var result: Result
    var deliveries: Int

    /// The body's bytes: `{"deliveries":N,"result":"…"}`.
    var json: String {
        #"{"deliveries":"# + String(deliveries) + #","result":""# + result.rawValue + #""}"#
    }

    func response(from request: Request, context: some RequestContext) -> Response {
        let buffer = ByteBuffer(string: json)
        var headers = HTTPFields()
        headers.reserveCapacity(2)
        headers.append(HTTPField(name: .contentType, value: "application/json; charset=utf-8"))
        headers.append(HTTPField(name: .contentLength, value: String(buffer.readableBytes)))
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }
}

extension WebhookAnswer: Encodable {}

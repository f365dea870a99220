import Foundation
import Hummingbird

/// JSON responses with stable key order (easier to read in logs and to diff in tests).
enum JSONResponse {
    static func make(status: HTTPResponse.Status = .ok, _ value: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain structs cannot fail; if it ever did, say so rather than crash.
        let data = (try? encoder.encode(value)) ?? Data(#"{"message":"response encoding failed","code":500901,"error":true}"#.utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// Collects the body (at most `limit` bytes; more is 413) and parses it as a JSON object.
    /// A string holding NUL anywhere (a key or a value) is refused with 400151: SQLite's C API
    /// would store it cut at the NUL, and an id cut that way could be another user's.
    func jsonObject(limit: Int) async throws -> JSONObject {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.bodyTooLarge(limit: limit)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit)
        } catch is NIOTooManyBytesError {
            // A chunked body (no Content-Length) that grows past the limit.
            throw APIError.bodyTooLarge(limit: limit)
        }
        let object = try JSONValue.parseObject(Data(buffer.readableBytesView))
        if JSONValue.object(object.fields).containsNUL {
            throw APIError(code: .notAllowedCharacters, message: "Invalid value: a string in the body contains a NUL character.")
        }
        return object
    }
}

import Foundation
import Hummingbird
import NIOCore
import PushCore

extension Request {
    /// The body, at most `limit` bytes: a larger `Content-Length` is refused before reading, and
    /// a chunked body that grows past the limit is refused once it does (413 either way).
    func collectBody(limit: Int) async throws -> Data {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.bodyTooLarge(limit: limit)
        }
        do {
            let buffer = try await body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limit: limit)
        }
    }

    /// Collects the body (`collectBody`) and parses it as a JSON object.
    /// A string holding NUL anywhere (a key or a value) is refused with 400151: SQLite's C API
    /// would store it cut at the NUL, and an id cut that way could be another user's.
    func jsonObject(limit: Int) async throws -> JSONObject {
        try await jsonObjectAndBytes(limit: limit).object
    }

    /// `jsonObject`, with the bytes it was read from (what an `Idempotency-Key` compares).
    func jsonObjectAndBytes(limit: Int) async throws -> (object: JSONObject, bytes: Data) {
        let bytes = try await collectBody(limit: limit)
        let object = try JSONObject.parse(bytes)
        if JSONValue.object(object.fields).containsNUL {
            throw APIError(code: .notAllowedCharacters, message: "Invalid value: a string in the body contains a NUL character.")
        }
        return (object, bytes)
    }
}

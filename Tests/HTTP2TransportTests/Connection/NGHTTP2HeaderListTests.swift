import CNGHTTP2
import Foundation
import Testing

@testable import HTTP2Transport

/// The header list handed to nghttp2: what the server sees on the wire, and which fields it must
/// not index (Apple, for APNs: `:path`, `authorization` and per-request ids go as never-indexed
/// literals).
@Suite("nghttp2 header list", .timeLimit(.minutes(5)))
struct NGHTTP2HeaderListTests {
    private struct Field: Equatable, CustomStringConvertible {
        let name: String
        let value: String
        let neverIndexed: Bool
        var description: String { "\(name): \(value)\(neverIndexed ? " (never indexed)" : "")" }
    }

    private func fields(_ list: NGHTTP2HeaderList, _ request: HTTP2Request, authorization: String?) -> [Field] {
        list.withList(request, authorization: authorization) { nv, count in
            (0..<count).map { i in
                Field(
                    name: String(decoding: UnsafeBufferPointer(start: nv[i].name, count: nv[i].namelen), as: UTF8.self),
                    value: String(decoding: UnsafeBufferPointer(start: nv[i].value, count: nv[i].valuelen), as: UTF8.self),
                    neverIndexed: nv[i].flags & UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) != 0)
            }
        }
    }

    @Test func aRequestCarriesEveryFieldInOrderWithSensitiveOnesNeverIndexed() {
        let list = NGHTTP2HeaderList(authority: Array("api.push.apple.com".utf8))
        let id = UUID().uuidString.lowercased()
        let token = String(repeating: "ab", count: 32)
        let request = HTTP2Request(path: "/3/device/" + token, body: Array(#"{"aps":{}}"#.utf8)) { h in
            h.add("apns-topic", "com.example.app")
            h.add("apns-push-type", "alert")
            h.add("apns-priority", "10")
            h.add("apns-id", id, sensitive: true)
            h.add("apns-expiration", "0", sensitive: true)
            h.add("apns-collapse-id", "thread-1", sensitive: true)
        }
        let expected: [Field] = [
            Field(name: ":method", value: "POST", neverIndexed: false),
            Field(name: ":scheme", value: "https", neverIndexed: false),
            Field(name: ":authority", value: "api.push.apple.com", neverIndexed: false),
            Field(name: ":path", value: "/3/device/" + token, neverIndexed: true),
            Field(name: "apns-topic", value: "com.example.app", neverIndexed: false),
            Field(name: "apns-push-type", value: "alert", neverIndexed: false),
            Field(name: "apns-priority", value: "10", neverIndexed: false),
            Field(name: "apns-id", value: id, neverIndexed: true),
            Field(name: "apns-expiration", value: "0", neverIndexed: true),
            Field(name: "apns-collapse-id", value: "thread-1", neverIndexed: true),
            Field(name: "content-length", value: "10", neverIndexed: false),
            Field(name: "authorization", value: "bearer a.b.c", neverIndexed: true),
        ]
        #expect(fields(list, request, authorization: "bearer a.b.c") == expected)
        // The same list serves the next request (reused, not appended to), with no authorization.
        #expect(fields(list, request, authorization: nil) == Array(expected.dropLast()))
    }

    @Test func growsForRequestsWithManyHeaders() {
        let list = NGHTTP2HeaderList(authority: Array("127.0.0.1:8443".utf8))
        let headers = (0..<30).map { HTTP2HeaderField("x-h\($0)", "v\($0)", sensitive: $0 % 2 == 0) }
        let listed = fields(list, HTTP2Request(path: "/v1/send", headers: headers, body: [1, 2, 3]), authorization: "Bearer t")
        #expect(listed.count == 3 + 1 + 30 + 1 + 1)
        #expect(listed[2] == Field(name: ":authority", value: "127.0.0.1:8443", neverIndexed: false))
        #expect(listed[3] == Field(name: ":path", value: "/v1/send", neverIndexed: true))
        #expect(listed[4 + 29] == Field(name: "x-h29", value: "v29", neverIndexed: false))
        #expect(listed[4 + 28] == Field(name: "x-h28", value: "v28", neverIndexed: true))
        #expect(
            listed.suffix(2) == [
                Field(name: "content-length", value: "3", neverIndexed: false),
                Field(name: "authorization", value: "Bearer t", neverIndexed: true),
            ])
        #expect(HTTP2Request(path: "/v1/send", headers: headers, body: []).header("x-h7") == "v7")
    }
}

import Foundation
import Testing
import UUIDText

@testable import APNs
@testable import HTTP2Transport

/// What an `APNsRequest` hands the transport: `:path` and the apns-* fields in order, with the
/// per-request values marked sensitive (Apple: they go as never-indexed literals).
@Suite("APNs request's header fields", .timeLimit(.minutes(5)))
struct APNsRequestTests {
    private struct Field: Equatable, CustomStringConvertible {
        let name: String
        let value: String
        let sensitive: Bool
        var description: String { "\(name): \(value)\(sensitive ? " (sensitive)" : "")" }
    }

    @Test func everyFieldInOrderWithPerRequestValuesSensitive() {
        let id = APNsID.random()
        let token = String(repeating: "ab", count: 32)
        let request = APNsRequest(
            deviceToken: token, topic: "com.example.app", payload: Array(#"{"aps":{}}"#.utf8), expiration: .immediately,
            collapseID: "thread-1", apnsID: id)
        let block = request.http2Request.headerBlock
        let fields = block.fields.map { f in
            Field(
                name: String(decoding: block.bytes[f.name..<f.name + f.nameLength], as: UTF8.self),
                value: String(decoding: block.bytes[f.value..<f.value + f.valueLength], as: UTF8.self), sensitive: f.sensitive)
        }
        #expect(
            fields == [
                Field(name: ":path", value: "/3/device/" + token, sensitive: true),
                Field(name: "apns-topic", value: "com.example.app", sensitive: false),
                Field(name: "apns-push-type", value: "alert", sensitive: false),
                Field(name: "apns-priority", value: "10", sensitive: false),
                Field(name: "apns-id", value: UUIDText.lowercase(id), sensitive: true),
                Field(name: "apns-expiration", value: "0", sensitive: true),
                Field(name: "apns-collapse-id", value: "thread-1", sensitive: true),
                Field(name: "content-length", value: "10", sensitive: false),
            ])
        #expect(request.http2Request.body == Array(#"{"aps":{}}"#.utf8))
    }
}

import Foundation
import NIOHTTP1

/// One HTTP request gathered from its parts: the head, then the body up to a limit. A chunk past
/// the limit is dropped and the request marked, so it can be refused without holding the bytes.
package struct RequestGatherer {
    package struct Request {
        package let head: HTTPRequestHead
        package let body: Data
        /// Part of the body was dropped.
        package let bodyTooLarge: Bool
    }

    private let maximumBody: Int
    private var head: HTTPRequestHead?
    private var body = Data()
    private var bodyTooLarge = false

    package init(maximumBody: Int) {
        self.maximumBody = maximumBody
    }

    /// Takes the next part; returns the request once it is whole.
    package mutating func take(_ part: HTTPServerRequestPart) -> Request? {
        switch part {
        case .head(let head):
            self.head = head
            body = Data()
            bodyTooLarge = false
        case .body(let chunk):
            if body.count + chunk.readableBytes <= maximumBody {
                body.append(contentsOf: chunk.readableBytesView)
            } else {
                bodyTooLarge = true
            }
        case .end:
            guard let head else { return nil }
            self.head = nil
            return Request(head: head, body: body, bodyTooLarge: bodyTooLarge)
        }
        return nil
    }
}

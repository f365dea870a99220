import Foundation
import NIOHTTP1

/// One request to a mock's admin API, and the answers its routes share: a page of records, a JSON
/// body applied or refused.
package struct AdminRequest {
    package let method: HTTPMethod
    package let path: String
    package let body: Data
    private let queryItems: [URLQueryItem]

    package init(method: HTTPMethod, uri: String, body: Data) {
        let components = URLComponents(string: uri)
        self.method = method
        self.path = components?.path ?? uri
        self.body = body
        self.queryItems = components?.queryItems ?? []
    }

    /// The first value of query parameter `name`.
    package func query(_ name: String) -> String? {
        queryItems.first(where: { $0.name == name })?.value
    }

    /// The records from index `since` (a query parameter, default 0) on, as a JSON array; 400
    /// unless `since` is a non-negative integer.
    package func page<Record: Encodable>(of records: @autoclosure () -> [Record]) -> AdminResponse {
        let sinceText = query("since") ?? "0"
        guard let since = Int(sinceText), since >= 0 else {
            return .error(.badRequest, "since must be a non-negative integer, got \"\(sinceText.prefix(40))\"")
        }
        let all = records()
        return .json(since < all.count ? Array(all[since...]) : [])
    }

    /// Decodes the body as `Body` and hands it to `apply` (204), or answers 400 with `refusal`
    /// and what the decoder found.
    package func applying<Body: Decodable>(
        _ type: Body.Type, refusal: String, _ apply: (Body) -> Void
    ) -> AdminResponse {
        do {
            apply(try JSONDecoder().decode(type, from: body))
            return .noContent
        } catch {
            return .error(.badRequest, "\(refusal): \(error)")
        }
    }
}

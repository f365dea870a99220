import Hummingbird

/// The methods each route answers, taken from the router's own routes once all are added. The
/// router answers a known path with an unknown method as "not found"; this lets
/// `MethodNotAllowedMiddleware` say 405 with `Allow` instead, as HTTP clients expect.
struct AllowedMethods: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(Substring)
        case capture
    }

    private let routes: [(segments: [Segment], methods: [String])]

    init(_ routes: [Router<RelayRequestContext>.RouteDescription]) {
        var byPath: [String: Set<String>] = [:]
        for route in routes { byPath[route.path.description, default: []].insert(route.method.rawValue) }
        self.routes = byPath.map { path, methods in
            let segments = path.split(separator: "/").map { $0.hasPrefix(":") || $0.hasPrefix("{") ? Segment.capture : .literal($0) }
            return (segments, methods.sorted())
        }
    }

    /// The methods of the route `path` belongs to; nil when no route has this path. Of several
    /// matching routes, the one with the most literal segments wins, as in the router
    /// (`/v3/users/{id}/push/template` over `/v3/users/{id}/push/{token_type}`).
    func methods(forPath path: String) -> [String]? {
        let parts = path.split(separator: "/")
        var best: (literals: Int, methods: [String])?
        for route in routes where route.segments.count == parts.count {
            var literals = 0
            var matches = true
            for (segment, part) in zip(route.segments, parts) {
                switch segment {
                case .capture: continue
                case .literal(let text):
                    if text == part { literals += 1 } else { matches = false }
                }
                if !matches { break }
            }
            if matches, literals > (best?.literals ?? -1) { best = (literals, route.methods) }
        }
        return best?.methods
    }
}

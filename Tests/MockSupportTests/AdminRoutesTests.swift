import Foundation
import MockSupport
import NIOHTTP1
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct AdminRoutesTests {
    struct Tokens: Codable { var tokens: [String] }

    final class Control: Sendable {
        let records = Mutex<[String]>(["a", "b", "c"])
        let marked = Mutex<[String]>([])
        let resets = Mutex(0)

        var routes: AdminRoutes {
            AdminRoutes([
                .init(.GET, "/records") { $0.page(of: self.records.withLock { $0 }) },
                .init(.POST, "/mark") {
                    $0.applying(Tokens.self, refusal: "body must be {\"tokens\":[…]}") { body in
                        self.marked.withLock { $0 += body.tokens }
                    }
                },
                .command(.POST, "/reset") { self.resets.withLock { $0 += 1 } },
            ])
        }
    }

    private static func error(_ response: AdminResponse) -> String? {
        guard let body = response.body else { return nil }
        return (try? JSONDecoder().decode([String: String].self, from: body))?["error"]
    }

    @Test func routesByMethodAndPathWith405And404ForTheRest() throws {
        let control = Control()
        let routes = control.routes
        #expect(routes.respond(method: .POST, uri: "/reset", body: Data()).status == .noContent)
        #expect(control.resets.withLock { $0 } == 1)

        let wrongMethod = routes.respond(method: .DELETE, uri: "/reset?x=1", body: Data())
        #expect(wrongMethod.status == .methodNotAllowed)
        #expect(Self.error(wrongMethod) == "DELETE is not allowed on /reset")

        let unknown = routes.respond(method: .GET, uri: "/nothing", body: Data())
        #expect(unknown.status == .notFound)
        #expect(Self.error(unknown) == "no admin endpoint /nothing")
        let long = routes.respond(method: .GET, uri: "/" + String(repeating: "x", count: 5000), body: Data())
        #expect(Self.error(long) == "no admin endpoint /" + String(repeating: "x", count: 199), "a path is quoted in part")
        #expect(control.resets.withLock { $0 } == 1)
    }

    @Test func recordsArePagedFromSince() throws {
        let routes = Control().routes
        func page(_ uri: String) throws -> [String] {
            let response = routes.respond(method: .GET, uri: uri, body: Data())
            #expect(response.status == .ok)
            return try JSONDecoder().decode([String].self, from: response.body ?? Data())
        }
        #expect(try page("/records") == ["a", "b", "c"])
        #expect(try page("/records?since=1") == ["b", "c"])
        #expect(try page("/records?since=3") == [])
        #expect(try page("/records?since=99") == [])
        for bad in ["-1", "x", "1.5", ""] {
            let response = routes.respond(method: .GET, uri: "/records?since=\(bad)", body: Data())
            #expect(response.status == .badRequest)
            #expect(Self.error(response) == "since must be a non-negative integer, got \"\(bad)\"")
        }
    }

    @Test func aBodyIsAppliedWhenItDecodesAndRefusedWhenNot() throws {
        let control = Control()
        let routes = control.routes
        let applied = routes.respond(method: .POST, uri: "/mark", body: Data(#"{"tokens":["t1","t2"]}"#.utf8))
        #expect(applied.status == .noContent && applied.body == nil)
        #expect(control.marked.withLock { $0 } == ["t1", "t2"])

        let refused = routes.respond(method: .POST, uri: "/mark", body: Data(#"{"token":"t3"}"#.utf8))
        #expect(refused.status == .badRequest)
        #expect(Self.error(refused)?.hasPrefix("body must be {\"tokens\":[…]}: ") == true)
        #expect(control.marked.withLock { $0 } == ["t1", "t2"])
    }
}

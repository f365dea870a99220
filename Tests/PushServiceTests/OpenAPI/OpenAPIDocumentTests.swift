import Foundation
import Hummingbird
import Logging
import Testing
import Yams
@testable import PushService
@testable import PushEngine

@Suite(.timeLimit(.minutes(5))) struct OpenAPIDocumentTests {
    /// `METHOD /path/{param}` for every operation in the document.
    static func documentedOperations() throws -> Set<String> {
        let document = try #require(try Yams.load(yaml: OpenAPIDocument.yaml) as? [String: Any])
        #expect(document["openapi"] as? String == "3.0.3")
        let paths = try #require(document["paths"] as? [String: Any])
        var operations: Set<String> = []
        for (path, item) in paths {
            let methods = try #require(item as? [String: Any])
            for method in methods.keys where ["get", "put", "post", "delete", "patch", "head"].contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    /// `METHOD /path/{param}` for every route the router has.
    static func routedOperations() async throws -> Set<String> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("OpenAPIDocumentTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = RelayConfiguration(
            listen: ListenConfiguration(), database: DatabaseConfiguration(path: directory.appendingPathComponent("r.sqlite").path),
            apps: [TestApps.a])
        let relay = try await RelayApplication.build(
            configuration: configuration, logger: Logger(label: "test"),
            seams: .init(targets: StaticDeliveryTargets([:])))
        let router = relay.makeRouter()
        await relay.close()
        return Set(
            router.routes.map { route in
                let path = route.path.description.split(separator: "/").map { segment in
                    segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
                }.joined(separator: "/")
                return "\(route.method) /\(path)"
            })
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let documented = try Self.documentedOperations()
        let routed = try await Self.routedOperations()
        #expect(routed.subtracting(documented).isEmpty, "routes missing from the document: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented operations without a route: \(documented.subtracting(routed).sorted())")
        #expect(routed.count == 64)
    }

    @Test func theDocumentIsServed() async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.get, "/openapi.yaml", app: nil)
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "application/yaml; charset=utf-8")
            #expect(r.text == OpenAPIDocument.yaml)
        }
    }

    /// Over the live port, every documented operation reaches a handler: none answers with the
    /// router's "no such path" 404.
    @Test func everyDocumentedOperationIsReachable() async throws {
        let operations = try Self.documentedOperations()
        try await LiveRelay.run { relay async throws in
            for operation in operations {
                let parts = operation.split(separator: " ")
                let path = String(parts[1])
                    .replacingOccurrences(of: "{user_id}", with: "alice")
                    .replacingOccurrences(of: "{token_type}", with: "apns")
                    .replacingOccurrences(of: "{token}", with: apnsToken(1))
                    .replacingOccurrences(of: "{channel_url}", with: "c1")
                    .replacingOccurrences(of: "{template_name}", with: "default")
                    .replacingOccurrences(of: "{app_id}", with: TestApps.a.appID)
                    .replacingOccurrences(of: "{api_token}", with: apnsToken(1))
                    .replacingOccurrences(of: "{activity_id}", with: "order-1")
                    .replacingOccurrences(of: "{channel_id}", with: "Y2hhbm5lbA%3D%3D")
                    .replacingOccurrences(of: "{notification_id}", with: "1")
                    .replacingOccurrences(of: "{topic}", with: "news")
                let r = try await relay.request(HTTPRequest.Method(String(parts[0]))!, path, body: "{}")
                #expect(r.status != .notFound, "\(operation) -> \(r.status) \(r.text)")
                #expect(r.status.code < 500, "\(operation) -> \(r.status) \(r.text)")
            }
        }
    }
}

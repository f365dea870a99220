import ConfigSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PushCore
import PushStore
import StoreContract
@testable import PushService
@testable import PushEngine

/// Two apps, so every test can also check that data stays within its app.
enum TestApps {
    static let a = AppConfiguration(appID: "app-A", apiToken: Secret("token-A-0123456789abcdef0123456789abcdef"))
    static let b = AppConfiguration(appID: "app-B", apiToken: Secret("token-B-0123456789abcdef0123456789abcdef"))
}

/// A 64-hex-digit APNs token derived from a number.
func apnsToken(_ n: Int) -> String {
    String(repeating: String(format: "%08x", n), count: 8)
}

/// Parses JSON text (an expected body in a test) into a `JSONValue`.
func json(_ text: String) -> JSONValue {
    do {
        return try JSONValue.parse(Data(text.utf8))
    } catch {
        preconditionFailure("bad JSON in test: \(text)")
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}

/// A response with its body parsed.
struct HTTPResult {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let text: String
    var body: JSONValue { json(text) }
    /// Sendbird's error `code`, if the body is an error.
    var code: Int? {
        if case .int(let code)? = body["code"], body["error"] == .bool(true) { return Int(code) }
        return nil
    }
}

/// The relay on a real loopback port (Hummingbird's live test server binds localhost:0) with a
/// real SQLite file in a temporary directory.
struct LiveRelay {
    let client: any TestClientProtocol
    let store: SQLiteStore
    let api: RelayAPI

    /// - Parameter databasePath: an existing database to serve (a restart); by default a new one
    ///   in a temporary directory removed afterwards.
    static func run(
        maxBodyBytes: Int = HTTPConfiguration.defaultMaxBodyBytes, apps: [AppConfiguration] = [TestApps.a, TestApps.b],
        databasePath: String? = nil, console: ConsoleConfiguration = ConsoleConfiguration(),
        _ test: @Sendable (LiveRelay) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("PushServiceTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = databasePath ?? directory.appendingPathComponent("relay.sqlite").path
        let configuration = RelayConfiguration(
            listen: ListenConfiguration(host: "127.0.0.1", port: 0),
            database: DatabaseConfiguration(path: path),
            http: HTTPConfiguration(maxBodyBytes: maxBodyBytes),
            apps: apps, console: console
        )
        var logger = Logger(label: "PushServiceTests")
        logger.logLevel = .warning
        // Opened here, so tests can read the file itself (what is stored, and how).
        let store = try SQLiteStore(path: path)
        let relay = try await RelayApplication.build(
            configuration: configuration, logger: logger,
            seams: .init(targets: StaticDeliveryTargets([:]), store: store))
        let outcome = await Result {
            try await relay.makeApplication().test(.live) { client in
                try await test(LiveRelay(client: client, store: store, api: relay.api))
            }
        }
        // Closed before the directory goes: an open store would write its WAL back into it.
        await relay.close()
        try outcome.get()
    }

    /// One request as app A (or `app`, or without the header when `app` is nil).
    @discardableResult
    func request(
        _ method: HTTPRequest.Method,
        _ uri: String,
        body: String? = nil,
        app: AppConfiguration? = TestApps.a,
        apiToken: String? = nil
    ) async throws -> HTTPResult {
        var headers: HTTPFields = [:]
        if let token = apiToken ?? app?.apiToken.value { headers[HTTPField.Name("Api-Token")!] = token }
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return HTTPResult(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    /// One request as a user's device: `Session-Token` and no `Api-Token`.
    @discardableResult
    func request(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, sessionToken: String) async throws -> HTTPResult {
        var headers: HTTPFields = [HTTPField.Name("Session-Token")!: sessionToken]
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return HTTPResult(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }

    /// A session token for `user` of app A (or `app`), issued through the API with the master token.
    func issueSessionToken(for user: String, app: AppConfiguration = TestApps.a, body: String? = nil) async throws -> String {
        let r = try await request(.post, "/v3/users/\(user)/token", body: body, app: app)
        guard r.status == .ok, case .string(let token)? = r.body["token"] else {
            throw TestFailure("issuing a session token failed: \(r.status) \(r.text)")
        }
        return token
    }

    /// Every byte of the SQLite database and its WAL, to show a secret is not in them.
    func databaseBytes() throws -> Data {
        var bytes = Data()
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: store.path + suffix) { bytes.append(data) }
        }
        return bytes
    }
}

/// A test step that could not go on.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension AppConfiguration {
    /// How a session issued with this app's master API token records its issuer.
    var masterIssuer: String { CredentialIssuer.hex(AppRegistry.digest(apiToken.value)) }
}

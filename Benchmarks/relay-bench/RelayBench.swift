import APNs
import ArgumentParser
import ConfigSupport
import Foundation
import HTTP2Transport
import Logging
import PushEngine
import PushService
import PushStore
import StoreContract

/// The relay's whole pipeline in one process for `scripts/bench-relay.sh`: REST + webhook on
/// `--port`, SQLite at `--database`, the dispatcher sending to an APNs sink on `--apns-port`.
/// Registers `--users` users (`u0`…) with one token each, then serves until SIGTERM/SIGINT.
@main
struct RelayBench: AsyncParsableCommand {
    @Option var port = 8080
    @Option var apnsPort: Int
    @Option var database: String
    @Option var users = 10_000
    @Option var connections = 2
    @Option var window = 4000
    @Option var durability: String = "full"
    /// `info` logs one line per webhook event, as `serve` does by default.
    @Option var logLevel: String = "warning"

    static let appID = "bench-app"
    static let apiToken = "bench-token-0123456789abcdef0123456789abcdef"

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .warning
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
        var logger = Logger(label: "relay-bench")
        logger.logLevel = level
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let configuration = RelayConfiguration(
            listen: ListenConfiguration(host: "127.0.0.1", port: port),
            database: DatabaseConfiguration(path: database),
            apps: [AppConfiguration(appID: Self.appID, apiToken: Secret(Self.apiToken))])
        let store = try SQLiteStore(
            path: database,
            configuration: PushStoreConfiguration(
                durability: StoreDurability(rawValue: durability) ?? .full))
        let cache = try ProviderTokenCache(
            key: APNsSigningKey(p8File: repo + "/certs/dev/AuthKey_DEVKEY1234.p8"),
            keyID: "DEVKEY1234", teamID: "DEVTEAM123")
        let client = try APNsClient(
            configuration: APNsClientConfiguration(
                endpoint: TransportEndpoint(host: "127.0.0.1", port: apnsPort), authentication: .token(cache),
                extraCAFile: repo + "/certs/dev/ca.pem", trustSystemRoots: false, connections: connections))
        let targets = StaticDeliveryTargets([
            Self.appID: DeliveryTarget(routes: [APNsDriver.route(client: client, topic: "com.example.pushrelay")])
        ])
        let relay = try await RelayApplication.build(
            configuration: configuration, logger: logger,
            seams: .init(
                targets: targets, dispatcher: DispatcherConfiguration(window: window, claimBatch: window / 4, recordBatch: 1000),
                store: store))
        for n in 0..<users {
            _ = try await store.registerToken(
                app: Self.appID, user: "u\(n)", token: String(format: "%064x", n + 1), isUnique: false, provider: .apns)
        }
        try await relay.makeApplication { port in
            FileHandle.standardOutput.write(Data("relay-bench listening on \(port)\n".utf8))
        }.runService()
        await client.shutdown()
    }
}

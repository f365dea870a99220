import ConfigSupport
import TestSupport
import Foundation
import Logging
import Prometheus
import PushStore
import StoreContract
import Testing
@testable import PushService
@testable import PushEngine

@Suite(.timeLimit(.minutes(5))) struct RelayApplicationTests {
    @Test func reloadAppliesAValidFileAndKeepsTheRunningConfigurationOtherwise() async throws {
        let directory = try TemporaryDirectory()
        let yaml = tokenAppYAML(database: directory.path("relay.sqlite"))
        let path = try directory.write("relay.yaml", yaml)
        let configuration = try RelayConfiguration.load(path: path, environment: ConfigurationEnvironment(variables: [:]))
        var logger = Logger(label: "RelayApplicationTests")
        logger.logLevel = .critical
        let relay = try await RelayApplication.build(
            configuration: configuration, configurationPath: path, logger: logger,
            seams: .init(notifier: SystemdNotifier(environment: [:]), environment: ConfigurationEnvironment(variables: [:])))

        try "apps: [".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await relay.reload() == false)
        #expect(relay.targets.target(forApp: "app-A")?.topic == "com.example.a")

        try yaml.replacingOccurrences(of: "AuthKey_DEVKEY1234.p8", with: "AuthKey_MISSING.p8").write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(await relay.reload() == false)
        #expect(relay.targets.target(forApp: "app-A")?.topic == "com.example.a")

        // Templates are applied with the credentials; a failed reload kept the old ones above.
        let withTemplates =
            yaml.replacingOccurrences(of: "com.example.a", with: "com.example.b")
            + "\n    templates: {default: {MESG: \"{sender_name} says {message}\"}}"
            + "\n    notifications: {pushes_per_minute: 600, templates: {shipped: {body: \"Order {order} shipped\"}}}"
        try withTemplates.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(relay.api.templates.templates(forApp: "app-A") == .sendbirdDefaults)
        #expect(relay.api.notificationSettings.settings(forApp: "app-A").templates.isEmpty)
        #expect(await relay.reload() == true)
        #expect(relay.targets.target(forApp: "app-A")?.topic == "com.example.b")
        #expect(relay.api.templates.templates(forApp: "app-A").defaultTemplate.mesg == "{sender_name} says {message}")
        let notifications = relay.api.notificationSettings.settings(forApp: "app-A")
        #expect(notifications.pushesPerMinute == 600 && notifications.templates["shipped"]?.texts.standard.body == "Order {order} shipped")
        await relay.close()
    }

    /// The pruner keeps the application's clock: events accepted "in 2023" by a test's clock are
    /// not a week old to it (with the system clock they were, and went at its first pass).
    @Test func thePrunerRunsOnTheApplicationsClock() async throws {
        let directory = try TemporaryDirectory()
        let configuration = try RelayConfiguration.parse(
            yaml: tokenAppYAML(database: directory.path("relay.sqlite")), environment: ConfigurationEnvironment(variables: [:]))
        let now: Int64 = 1_700_000_000_000
        var logger = Logger(label: "RelayApplicationTests")
        logger.logLevel = .critical
        let relay = try await RelayApplication.build(
            configuration: configuration, logger: logger,
            seams: .init(targets: StaticDeliveryTargets([:]), clock: { now }, notifier: SystemdNotifier(environment: [:])))
        let event = AcceptedEvent(
            appID: "app-A", messageID: 1, channelURL: "c1", acceptedAtMs: now,
            decisions: [RecipientDecisionRecord(userID: "bob", decision: .skip(.online))], deliveries: [])
        #expect(try await relay.store.acceptEvent(event))
        #expect(try await relay.pruner.pruneOnce() == 0)
        #expect(try await relay.store.deliveryLog(app: "app-A", messageID: 1, user: "bob").decision == .skip(.online))
        await relay.close()
    }
}

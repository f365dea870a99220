import ArgumentParser
import Foundation
import Logging
import PushEngine
import PushService
import PushStore
import StoreContract

/// `push-relay test-push --config PATH --app ID (--user ID | --token-type T --device-token D)`:
/// one test push through the app's providers (`TestPush`, as `POST /v3/push/test` sends it),
/// each device's answer printed as a table.
struct TestPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-push",
        abstract: "Send a test push to a user's devices, or to one device token, and print each provider's answer.",
        discussion: """
            Sends a real push with the app's credentials, as the relay would (the same senders), \
            but ignoring preferences, do-not-disturb and snooze, and waiting for each provider's \
            answer instead of queueing. Prints per device: provider, token (redacted), status \
            (sent, token_dead, failed, retryable), HTTP status, the provider's reason, its id for \
            the push (apns-id, FCM message name, HMS request id) and the latency. A dead token is \
            removed, as a queued push's would be. Each push is logged in the delivery log as a \
            test (GET /v3/users/{user_id}/push/deliveries). It may run while the relay serves \
            the same database (SQLite too): it reads tokens, logs its pushes and removes dead \
            tokens, and makes no SQLite file where there is none.

            --token-type: apns, gcm (or fcm) or huawei (or hms).

            Exit status: 0 every device's provider accepted the push; 1 a provider refused it, \
            called the token dead or did not answer; 2 nothing was sent: the user is unknown or \
            has no device tokens, or the device token is not registered in the app; 64 usage error (an unknown --app, a malformed device token); \
            74 the database cannot be opened (or there is no SQLite file yet); 78 the \
            configuration file or one of the app's credentials is invalid.

            Example (the quick start's relay and mocks):
              push-relay test-push --config Config/quickstart.yaml --app quickstart-app --user bob
            """
    )

    @Option(name: .long, help: "Path of the YAML configuration file.")
    var config: String

    @Option(name: .long, help: "The app whose credentials send the push (apps[].app_id).")
    var app: String

    @Option(name: .long, help: "Send to every device token of this user.")
    var user: String?

    @Option(name: .customLong("token-type"), help: "With --device-token: apns, gcm (fcm) or huawei (hms).")
    var tokenType: String?

    @Option(name: .customLong("device-token"), help: "Send to this one device token (registered to a user of the app).")
    var deviceToken: String?

    @Option(name: .long, help: "The alert text (default: \"\(TestPushRequest.defaultMessage)\").")
    var message: String?

    @Option(name: .long, help: "A title above the text.")
    var title: String?

    @Option(name: .long, help: "Seconds to wait for each provider's answer (1...120).")
    var timeout = Int(TestPush.defaultTimeout.components.seconds)

    func validate() throws {
        guard (1...120).contains(timeout) else { throw ValidationError("--timeout must be 1...120") }
    }

    func run() async throws {
        try await reportingUsageErrors { try await sendTestPush() }
    }

    private func sendTestPush() async throws {
        let request = try makeRequest()
        let configuration = loadConfiguration()
        guard let app = configuration.apps.first(where: { $0.appID == self.app }) else {
            let known = configuration.apps.map(\.appID).joined(separator: ", ")
            throw ValidationError("--app: \(config) has no app \(self.app) (it has: \(known))")
        }
        var logger = Logger(label: "push-relay.test-push")
        logger.logLevel = .error  // the table says it all; connection chatter would only confuse
        let target = Self.target(of: app, logger: logger)
        let store: any RelayStore
        do {
            store = try await SideStore.open(configuration.database, nodeID: "test-push", logger: logger)
        } catch {
            Self.fail(error.message, code: error.exitCode)
        }
        let testPush = TestPush(
            store: store, targets: StaticDeliveryTargets(target.map { [app.appID: $0] } ?? [:]), timeout: .seconds(timeout),
            logger: logger)
        let outcome = await Self.send(request, app: app.appID, through: testPush)
        await target?.shutdown()
        try? await store.close()
        switch outcome {
        case .success(let report):
            let whom = report.userID.map { "user \($0)" } ?? "a device token no user of the app holds"
            print("test push to \(whom) of app \(app.appID): \(report.results.count) device(s)")
            print(report.table)
            if !report.allSent { throw ExitCode(1) }
        case .failure(let error as APIError):
            Self.fail(error.message, code: 2)
        case .failure(let error):
            Self.fail(store.describe(error), code: 74)
        }
    }

    /// The options as a test push, or the usage error naming the option at fault.
    private func makeRequest() throws -> TestPushRequest {
        do {
            return try TestPushRequest(user: user, tokenType: tokenType, deviceToken: deviceToken, message: message, title: title)
        } catch {
            throw ValidationError(Self.option(error.message))
        }
    }

    private func loadConfiguration() -> RelayConfiguration {
        do {
            return try RelayConfiguration.load(path: config)
        } catch {
            Self.fail("\(error)", code: 78)
        }
    }

    /// The app's senders, built as `serve` builds them (nil for an app without provider settings).
    private static func target(of app: AppConfiguration, logger: Logger) -> DeliveryTarget? {
        do {
            return try AppClient.build(app: app, logger: logger).target
        } catch {
            fail("\(error)", code: 78)
        }
    }

    private static func send(_ request: TestPushRequest, app: String, through testPush: TestPush) async -> Result<TestPushReport, any Error>
    {
        do {
            return .success(try await testPush.send(request, app: app))
        } catch {
            return .failure(error)
        }
    }

    /// A request's field named as the option that gave it.
    private static func option(_ message: String) -> String {
        message.replacingOccurrences(of: "\"user_id\"", with: "--user").replacingOccurrences(of: "\"token_type\"", with: "--token-type")
            .replacingOccurrences(of: "\"device_token\"", with: "--device-token").replacingOccurrences(of: "\"message\"", with: "--message")
            .replacingOccurrences(of: "\"title\"", with: "--title")
    }

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("push-relay test-push: \(message)\n".utf8))
        Foundation.exit(code)
    }
}

import ConfigSupport
import TestSupport
import APNs
import Foundation
import HMS
import HTTP2Transport
import Logging
import ProviderDriver
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct PushClientsTests {
    static let logger = Logger(label: "test")

    static func configuration(keyFile: String = Repository.privateDevCert("AuthKey_DEVKEY1234.p8"), topic: String = "com.example.a") throws
        -> RelayConfiguration
    {
        try RelayConfiguration.parse(
            yaml: tokenAppYAML(database: "/tmp/unused.sqlite", keyFile: keyFile)
                .replacingOccurrences(of: "com.example.a", with: topic), environment: ConfigurationEnvironment(variables: [:]))
    }

    @Test func buildsATargetPerAppFromTheConfiguration() async throws {
        let runtime = try await PushClients.build(configuration: Self.configuration(), logger: Self.logger)
        let target = try #require(runtime.target(forApp: "app-A"))
        #expect(target.topic == "com.example.a")
        #expect(target.apns?.configuration.endpoint == TransportEndpoint(host: "127.0.0.1", port: 2197))
        #expect(runtime.target(forApp: "other") == nil)
        await runtime.shutdown()
    }

    /// `multi_device` reaches the planner's options for an app with any provider, APNs or not.
    @Test func multiDeviceIsTheAppsWhateverItsProviders() async throws {
        var configuration = try Self.configuration()
        configuration.apps[0].multiDevice = true
        let hms = HMSAppConfiguration(appID: "104783201", clientSecret: Secret("s"))
        configuration.apps.append(
            AppConfiguration(
                appID: "app-H", apiToken: Secret("hhhhhhhhhhhhhhhhhhhh"), providers: ProviderSettingsList([hms]), multiDevice: true))
        configuration.apps.append(
            AppConfiguration(appID: "app-F", apiToken: Secret("ffffffffffffffffffff"), providers: ProviderSettingsList([hms])))
        let runtime = try await PushClients.build(configuration: configuration, logger: Self.logger)
        #expect(runtime.target(forApp: "app-A")?.options.multiDevice == true)
        #expect(runtime.target(forApp: "app-H")?.options.multiDevice == true)
        #expect(runtime.target(forApp: "app-F")?.options.multiDevice == false)
        await runtime.shutdown()
    }

    @Test func aMissingKeyFileNamesTheAppAndTheFile() async throws {
        await #expect {
            _ = try await PushClients.build(configuration: Self.configuration(keyFile: "/nonexistent/AuthKey.p8"), logger: Self.logger)
        } throws: { error in
            let text = "\(error)"
            return text.contains("app-A") && text.contains("/nonexistent/AuthKey.p8")
        }
    }

    @Test func aWrongP12PasswordIsACredentialError() async throws {
        let config = try RelayConfiguration.parse(
            yaml: """
                listen: {}
                database: {path: p}
                apps:
                  - app_id: A
                    api_token: aaaaaaaaaaaaaaaaaaaa
                    apns: {topic: t, auth: {certificate: {p12_file: \(Repository.privateDevCert("client.p12")), password: wrong-password}}}
                """)
        await #expect {
            _ = try await PushClients.build(configuration: config, logger: Self.logger)
        } throws: { error in
            guard let error = error as? RuntimeError, error.appID == "A", error.provider == .apns else { return false }
            let underlying = APNsCredentialError.credential(.wrongPassword(path: Repository.privateDevCert("client.p12")))
            return error.detail == "apns.auth: \(underlying)"
        }
    }

    @Test func reloadSwapsTargetsAndKeepsTheOldOnesWhenTheNewConfigurationFails() async throws {
        let runtime = try await PushClients.build(configuration: Self.configuration(), logger: Self.logger)
        let before = try #require(runtime.target(forApp: "app-A"))

        try await runtime.reload(configuration: Self.configuration(topic: "com.example.renamed"))
        let after = try #require(runtime.target(forApp: "app-A"))
        #expect(after.topic == "com.example.renamed")
        #expect(after.apns !== before.apns)

        await #expect(throws: RuntimeError.self) {
            try await runtime.reload(configuration: Self.configuration(keyFile: "/nonexistent/k.p8"))
        }
        let kept = try #require(runtime.target(forApp: "app-A"))
        #expect(kept.apns === after.apns)
        #expect(kept.topic == "com.example.renamed")
        await runtime.shutdown()
    }
}

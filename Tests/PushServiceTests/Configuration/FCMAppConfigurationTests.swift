import APNs
import ConfigSupport
import FCM
import Foundation
import HTTP2Transport
import Logging
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct FCMAppConfigurationTests {
    static func yaml(fcm: String, apns: String? = nil) -> String {
        """
        listen: {}
        database: {path: p}
        apps:
          - app_id: A
            api_token: aaaaaaaaaaaaaaaaaaaa
        \(apns.map { "    apns: \($0)" } ?? "")
            fcm:
        \(fcm.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
        """
    }

    @Test func parsesEveryFCMKey() throws {
        let config = try RelayConfiguration.parse(
            yaml: Self.yaml(
                fcm: """
                    service_account: /etc/push-relay/firebase.json
                    project_id: my-app-1234
                    url: https://127.0.0.1:2198
                    token_url: https://127.0.0.1:2198/token
                    ca_file: certs/ca.pem
                    pool_size: 3
                    """))
        let fcm = try #require(config.apps[0].fcm)
        #expect(config.apps[0].apns == nil, "an Android-only app needs no apns settings")
        #expect(fcm.serviceAccountFile == "/etc/push-relay/firebase.json")
        #expect(fcm.projectID == "my-app-1234")
        #expect(fcm.endpoint == TransportEndpoint(host: "127.0.0.1", port: 2198))
        #expect(fcm.tokenURL == URL(string: "https://127.0.0.1:2198/token"))
        #expect(fcm.caFile == "certs/ca.pem")
        #expect(fcm.poolSize == 3)
    }

    @Test func defaultsAreGooglesAndTheServiceAccountsOwn() throws {
        let config = try RelayConfiguration.parse(yaml: Self.yaml(fcm: "service_account: sa.json"))
        let fcm = try #require(config.apps[0].fcm)
        #expect(fcm.endpoint == FCMClientConfiguration.production)
        #expect(fcm.projectID == nil && fcm.tokenURL == nil && fcm.caFile == nil)
        #expect(fcm.poolSize == ProviderPoolSize.defaultSize)
    }

    @Test(arguments: [
        ("project_id: x", ConfigurationError.missingKey("apps[0].fcm.service_account")),
        ("service_account: sa.json\nkey_file: x", ConfigurationError.unknownKey("apps[0].fcm.key_file")),
        (
            "service_account: sa.json\nurl: http://fcm.googleapis.com",
            ConfigurationError.invalidValue(key: "apps[0].fcm.url", reason: "must be https://HOST:PORT")
        ),
        (
            "service_account: sa.json\nproject_id: a/b",
            ConfigurationError.invalidValue(key: "apps[0].fcm.project_id", reason: "must be a Firebase project id, e.g. my-app-1234")
        ),
        (
            "service_account: sa.json\npool_size: 0",
            ConfigurationError.invalidValue(key: "apps[0].fcm.pool_size", reason: "must be 1...64")
        ),
    ])
    func rejectsInvalidFCMSettings(fcm: String, expected: ConfigurationError) {
        #expect(throws: expected) { try RelayConfiguration.parse(yaml: Self.yaml(fcm: fcm)) }
    }

    /// The file is read when the clients are built; a bad one names the app and the file, never the key.
    @Test func aBadServiceAccountFailsTheBuildNamingTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("sa.json").path
        try Data(
            #"{"type":"service_account","project_id":"p","client_email":"e@x","private_key":"not a key","token_uri":"https://t/token"}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let config = try RelayConfiguration.parse(yaml: Self.yaml(fcm: "service_account: \(file)"))
        #expect {
            try AppClient.build(app: config.apps[0], logger: Logger(label: "test"))
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("app A: fcm: FCM service account \(file)") && !text.contains("not a key")
        }
    }
}

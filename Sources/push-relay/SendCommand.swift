import APNs
import ArgumentParser
import Foundation
import HTTP2Transport
import Logging
import PushService
import UUIDText

/// `push-relay send`: one notification to APNs with the given credentials. An operator's tool
/// for checking credentials, topics and device tokens without the service.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one notification to APNs and print status, apns-id and reason.",
        discussion: """
            Exit status: 0 delivered; 1 APNs rejected it (the reason is printed); 2 bad credentials \
            or an invalid request; 3 no answer (connection, TLS or timeout); 64 usage error.

            Examples:
              push-relay send --p8 AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF123GHIJ \\
                --topic com.example.app --environment sandbox --device-token <hex> --alert "Hello"
              push-relay send --p12 push.p12 --p12-password-env P12_PASSWORD --topic com.example.app \\
                --device-token <hex> --payload payload.json
            """
    )

    @Option(help: "Hex device token.") var deviceToken: String
    @Option(help: "apns-topic: the app's bundle id (with .voip etc. for those push types).") var topic: String
    @Option(help: "As apns.environment in the configuration: \(APNsEnvironmentSetting.forms) (e.g. apns-mock).")
    var environment = "production"
    @Option(help: "Extra PEM CA file to trust (for apns-mock), unless --environment names its ca_file.") var caFile: String?

    @Option(help: "Token auth: the .p8 signing key.") var p8: String?
    @Option(help: "Token auth: the 10-character key id.") var keyID: String?
    @Option(help: "Token auth: the 10-character team id.") var teamID: String?
    @Option(help: "Certificate auth: a .p12 file.") var p12: String?
    @Option(help: "Name of an environment variable holding the .p12 password.") var p12PasswordEnv: String?
    @Option(help: "Certificate auth: a PEM certificate (with --key).") var cert: String?
    @Option(help: "Certificate auth: the PEM private key for --cert.") var key: String?

    @Option(help: "Alert text (builds {\"aps\":{\"alert\":…,\"sound\":\"default\"}}).") var alert: String?
    @Option(help: "A file with the JSON payload to send as is.") var payload: String?
    @Option(help: "apns-push-type.") var pushType = "alert"
    @Option(help: "apns-priority: 10, 5 or 1.") var priority = 10
    @Option(help: "apns-expiration as Unix seconds (0 = deliver now or never).") var expiration: Int?
    @Option(help: "apns-collapse-id (at most 64 bytes).") var collapseID: String?
    @Option(help: "apns-id (a UUID); generated when absent.") var apnsID: String?
    @Option(help: "Seconds to wait for the answer.") var timeout = 30

    func run() async throws {
        try await reportingUsageErrors { try await send() }
    }

    private func send() async throws {
        let request: APNsRequest
        let client: APNsClient
        do {
            request = try makeRequest()
            let (endpoint, extraCAFile) = try endpoint()
            client = try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: endpoint, authentication: try authentication(), extraCAFile: extraCAFile,
                    connections: 1, requestTimeout: .seconds(timeout), logger: Self.quietLogger))
        } catch let error as ValidationError {
            throw error
        } catch {
            Self.fail("error: \(error)", code: 2)
        }
        let response: APNsResponse
        do {
            response = try await client.send(request)
        } catch {
            await client.shutdown()
            Self.fail("error: \(error)", code: error is APNsError && !(error as! APNsError).isRetryable ? 2 : 3)
        }
        await client.shutdown()
        var line = "status \(response.status) apns-id \(response.apnsID.map(UUIDText.lowercase) ?? idText(request.apnsID))"
        if let reason = response.reason { line += " reason \(reason)" }
        if let timestamp = response.timestamp {
            line += " timestamp \(Int64(timestamp.timeIntervalSince1970 * 1000))"
        }
        line += " outcome \(describe(response.outcome))"
        print(line)
        if response.status != 200 { throw ExitCode(1) }
    }

    private func makeRequest() throws -> APNsRequest {
        let body: [UInt8]
        switch (alert, payload) {
        case (let text?, nil):
            let object: [String: Any] = ["aps": ["alert": text, "sound": "default"]]
            body = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        case (nil, let file?):
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ValidationError("cannot read payload file \(file)")
            }
            body = Array(data)
        default:
            throw ValidationError("give exactly one of --alert or --payload")
        }
        guard let type = APNsPushType(rawValue: pushType) else {
            throw ValidationError(
                "unknown --push-type \(pushType); one of \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let prio = APNsPriority(rawValue: priority) else { throw ValidationError("--priority must be 10, 5 or 1") }
        var id = APNsID.random()
        if let apnsID {
            guard let parsed = UUID(uuidString: apnsID) else { throw ValidationError("--apns-id must be a UUID") }
            id = parsed
        }
        let exp: APNsExpiration? = expiration.map { $0 == 0 ? .immediately : .at(Date(timeIntervalSince1970: TimeInterval($0))) }
        let request = APNsRequest(
            deviceToken: deviceToken.lowercased(), topic: topic, payload: body, pushType: type,
            priority: prio, expiration: exp, collapseID: collapseID, apnsID: id)
        do {
            try request.validate()
        } catch {
            throw ValidationError("\(error)")
        }
        return request
    }

    /// `--environment` read as `apns.environment` is, and the CA file to trust from it or `--ca-file`.
    private func endpoint() throws -> (TransportEndpoint, String?) {
        let setting: APNsEnvironmentSetting
        do {
            setting = try APNsEnvironmentSetting.parse(environment, option: "--environment")
        } catch {
            guard case .invalidValue(_, let reason) = error else { throw ValidationError("--environment: \(error)") }
            throw ValidationError("--environment: \(reason)")
        }
        if setting.caFile != nil, caFile != nil {
            throw ValidationError("--environment names a ca_file already; drop --ca-file")
        }
        return (setting.endpoint, setting.caFile ?? caFile)
    }

    private func authentication() throws -> APNsAuthentication {
        if let p8 {
            guard let keyID, let teamID else { throw ValidationError("--p8 needs --key-id and --team-id") }
            return .token(try ProviderTokenCache(key: try APNsSigningKey(p8File: p8), keyID: keyID, teamID: teamID))
        }
        if let p12 {
            var password: String?
            if let name = p12PasswordEnv {
                guard let value = ProcessInfo.processInfo.environment[name] else {
                    throw ValidationError("environment variable \(name) (--p12-password-env) is not set")
                }
                password = value
            }
            return .certificate(try APNsClientIdentity.p12(path: p12, password: password))
        }
        if let cert {
            guard let key else { throw ValidationError("--cert needs --key") }
            return .certificate(try APNsClientIdentity.pem(certificatePath: cert, keyPath: key))
        }
        throw ValidationError("give credentials: --p8 with --key-id and --team-id, or --p12, or --cert with --key")
    }

    private func describe(_ outcome: APNsOutcome) -> String {
        switch outcome {
        case .delivered: "delivered"
        case .tokenInvalid: "token-invalid (remove the device token)"
        case .permanentFailure: "permanent-failure"
        case .retryable(_, let after): "retryable (after \(after))"
        }
    }

    private func idText(_ id: UUID) -> String { UUIDText.lowercase(id) }

    /// The printed line says what happened; the client's own lines (a connection opened, or
    /// failing to open) would only repeat it on stderr.
    private static let quietLogger: Logger = {
        var logger = Logger(label: "push-relay.send")
        logger.logLevel = .error
        return logger
    }()

    private static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(code)
    }
}

import APNs
import FCM
import HMS
import Foundation
import Logging
import PushCore

/// What `push-relay check-config` found: the file, the modes of the files holding secrets (the
/// credentials directory's too), placeholders left from the example, then each app's credentials
/// and, when asked, what each provider answered to a probe.
public struct ConfigurationCheck: Sendable {
    public enum Severity: String, Sendable { case ok, warning, error }

    public struct Finding: Sendable, CustomStringConvertible {
        public var severity: Severity
        /// `configuration`, `credentials`, or `app <id>`.
        public var subject: String
        public var message: String
        /// An error a provider's answer to a probe made (the relay would start; its pushes would
        /// fail), not one that stops the start.
        public var fromProbe: Bool

        public init(severity: Severity, subject: String, fromProbe: Bool = false, message: String) {
            self.severity = severity
            self.subject = subject
            self.message = message
            self.fromProbe = fromProbe
        }

        public var description: String { "\(severity.rawValue): \(subject): \(message)" }
    }

    /// `check-config`'s exit status (docs/operations.md, "Check"; the command's help).
    public enum ExitStatus: Int32, Sendable {
        /// Usable: every check passed (warnings allowed unless `--strict`).
        case usable = 0
        /// A probe failed: a provider refused the credentials or did not answer.
        case probeFailed = 1
        /// With `--strict`: warnings, and nothing failed.
        case warnings = 2
        /// The relay would not start with it (`serve` exits 78 too): the file, or a credential
        /// it names, is invalid (missing, empty, unreadable, readable by every user, not a key).
        case invalid = 78
    }

    public var findings: [Finding] = []
    /// The file itself could not be parsed (no app could be checked).
    public var configurationInvalid = false

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// What the command exits with: the worst of what was found.
    public func exitStatus(strict: Bool) -> ExitStatus {
        if configurationInvalid || findings.contains(where: { $0.severity == .error && !$0.fromProbe }) { return .invalid }
        if hasErrors { return .probeFailed }
        if strict && findings.contains(where: { $0.severity == .warning }) { return .warnings }
        return .usable
    }

    /// A device token no device has: APNs answers `BadDeviceToken` once it has accepted the
    /// credentials and topic, which is what the probe wants to learn.
    public static let probeDeviceToken = String(repeating: "0", count: 64)
    /// Certificates expiring sooner than this get a warning.
    public static let expiryWarning: TimeInterval = 30 * 86_400

    /// Checks the file at `path`; with `probe`, sends one push per app to `probeDeviceToken`.
    public static func run(
        path: String, probe: Bool, environment: ConfigurationEnvironment = .process,
        now: Date = Date(), logger: Logger = Logger(label: "push-relay.check")
    ) async -> ConfigurationCheck {
        var check = ConfigurationCheck()
        let configuration: RelayConfiguration
        do {
            configuration = try RelayConfiguration.load(path: path, environment: environment)
        } catch {
            check.configurationInvalid = true
            check.findings.append(Finding(severity: .error, subject: "configuration", message: "\(error)"))
            return check
        }
        check.findings.append(
            Finding(
                severity: .ok, subject: "configuration",
                message: "\(path) is valid (\(configuration.apps.count) app(s))"))
        for warning in configuration.warnings {
            check.findings.append(Finding(severity: .warning, subject: "configuration", message: warning))
        }
        if let directory = environment.hostCredentialsDirectory {
            for warning in CredentialsDirectoryAudit(directory: directory).warnings {
                check.findings.append(Finding(severity: .warning, subject: "credentials", message: warning))
            }
        }
        for (appID, message) in ExamplePlaceholders.findings(in: configuration) {
            check.findings.append(Finding(severity: .warning, subject: "app \(appID)", message: message))
        }
        for app in configuration.apps {
            await check.checkApp(app, probe: probe, now: now, logger: logger)
        }
        return check
    }

    private mutating func checkApp(_ app: AppConfiguration, probe: Bool, now: Date, logger: Logger) async {
        let subject = "app \(app.appID)"
        guard app.apns != nil || app.fcm != nil || app.hms != nil else {
            findings.append(
                Finding(
                    severity: .warning, subject: subject,
                    message: "no apns, fcm or hms settings: tokens can be registered but nothing is pushed"))
            return
        }
        let built: AppClient
        do {
            built = try AppClient.build(app: app, logger: logger, now: now)
        } catch {
            findings.append(Finding(severity: .error, subject: subject, message: error.detail))
            return
        }
        if let apns = app.apns, let client = built.target?.apns, let target = built.target {
            var summary = "\(apns.auth) loaded; topic \(apns.topic), \(apns.environment)"
            if let notAfter = built.certificateNotAfter {
                summary += "; certificate valid until \(notAfter.ISO8601Format())"
            }
            findings.append(Finding(severity: .ok, subject: subject, message: summary))
            if let notAfter = built.certificateNotAfter, notAfter.timeIntervalSince(now) < Self.expiryWarning {
                let days = Int(notAfter.timeIntervalSince(now) / 86_400)
                findings.append(
                    Finding(
                        severity: .warning, subject: subject,
                        message: "the APNs certificate expires in \(days) day(s) (\(notAfter.ISO8601Format())): renew it"))
            }
            if probe { findings.append(await Self.probe(client, topic: target.topic, subject: subject)) }
        }
        if let fcm = built.target?.fcm {
            let c = fcm.configuration
            findings.append(
                Finding(
                    severity: .ok, subject: subject,
                    message: "fcm: \(c.serviceAccount) loaded; project \(c.projectID), https://\(c.endpoint)"))
            if probe { findings.append(await Self.probe(fcm, subject: subject)) }
        }
        if let hms = built.target?.senders[.hms] as? HMSSender {
            let c = hms.client.configuration
            findings.append(Finding(severity: .ok, subject: subject, message: "hms: app \(c.appID), \(c.endpoint.absoluteString)"))
            if probe { findings.append(await Self.probe(hms.client, subject: subject)) }
        }
        await built.target?.shutdown()
    }

    /// HMS's token exchange, then a dry run (`validate_only`) to a dummy token under the app id:
    /// the secret is what the OAuth endpoint takes, and the app id one HMS sends for. HMS answers
    /// success or, for the dummy token, 80300007; both show the settings work.
    static func probe(_ client: HMSClient, subject: String) async -> Finding {
        let host = client.configuration.endpoint.host ?? "?"
        do {
            try await client.checkCredentials()
            let body = HMSMessage.body(
                data: Array(#"{"message":"push-relay check-config probe"}"#.utf8), token: probeHMSToken, ttlSeconds: 60,
                validateOnly: true)
            let response = try await client.send(body: body)
            switch response.code {
            case .success?, .allTokensInvalid?:
                return Finding(severity: .ok, subject: subject, message: "hms probe: token exchange and a dry-run send to \(host) accepted")
            case .authenticationFailed?, .noPermission?:
                return Finding(
                    severity: .error, subject: subject, fromProbe: true,
                    message: "hms probe: \(host) refused app \(client.configuration.appID) (\(response.code?.rawValue ?? "")): "
                        + "check hms.app_id and the client secret belong to the same AppGallery Connect app")
            default:
                return Finding(
                    severity: .error, subject: subject, fromProbe: true,
                    message: "hms probe: \(host) refused the dry run: status \(response.status) \(response.code?.rawValue ?? "")")
            }
        } catch {
            return Finding(severity: .error, subject: subject, fromProbe: true, message: "hms probe: \(error)")
        }
    }

    /// A push token no device has (HMS's shape).
    public static let probeHMSToken = "push-relay-probe-" + String(repeating: "A", count: 110)

    /// A dry run (`validate_only`) of a message to a dummy token: it proves the token exchange
    /// (the service account's key and account) and that FCM takes the project's messages from
    /// it. FCM answers 200 or, for the dummy token, INVALID_ARGUMENT; both show the credentials work.
    static func probe(_ client: FCMClient, subject: String) async -> Finding {
        let body = FCMMessage.body(
            data: Array(#"{"message":"push-relay check-config probe"}"#.utf8), token: probeFCMToken, ttlSeconds: 0, validateOnly: true)
        let endpoint = client.configuration.endpoint
        do {
            let response = try await client.send(body: body, timeout: .seconds(20))
            switch response.outcome {
            case .delivered:
                return Finding(
                    severity: .ok, subject: subject, message: "fcm probe: token exchange and a dry-run send to \(endpoint) accepted")
            case .permanentFailure(.invalidArgument), .tokenInvalid:
                return Finding(
                    severity: .ok, subject: subject,
                    message:
                        "fcm probe: token exchange accepted; \(endpoint) took the dry run and refused only the dummy token, as expected")
            case .credentialsRejected(let code), .permanentFailure(let code), .retryable(let code, _):
                return Finding(
                    severity: .error, subject: subject, fromProbe: true,
                    message:
                        "fcm probe: \(endpoint) refused the dry run: status \(response.status) \(code): \(response.error?.message ?? "")"
                        + (code == .senderIDMismatch || code == .unauthenticated
                            ? " (check fcm.project_id: the service account must belong to the project)" : ""))
            }
        } catch {
            return Finding(severity: .error, subject: subject, fromProbe: true, message: "fcm probe: \(error)")
        }
    }

    /// A registration token no device has (FCM's format, 152 characters).
    public static let probeFCMToken = "push-relay-probe:" + String(repeating: "A", count: 135)

    /// One push to a dummy token. `BadDeviceToken` (or a 200 from a mock) means the connection,
    /// the credentials and the topic were accepted.
    static func probe(_ client: APNsClient, topic: String, subject: String) async -> Finding {
        let request = APNsRequest(
            deviceToken: probeDeviceToken, topic: topic,
            payload: Array(#"{"aps":{"alert":"push-relay check-config probe"}}"#.utf8),
            pushType: .alert, priority: .immediate, expiration: .immediately)
        let endpoint = client.configuration.endpoint
        do {
            let response = try await client.send(request, timeout: .seconds(20))
            switch (response.status, response.reason) {
            case (200, _):
                return Finding(severity: .ok, subject: subject, message: "probe: \(endpoint) accepted the push (status 200)")
            case (_, .badDeviceToken?):
                return Finding(
                    severity: .ok, subject: subject,
                    message: "probe: \(endpoint) accepted the credentials and topic (BadDeviceToken for the dummy token, as expected)")
            case (let status, let reason):
                return Finding(
                    severity: .error, subject: subject, fromProbe: true,
                    message: "probe: \(endpoint) rejected the push: status \(status) \(reason.map { "\($0)" } ?? "")\(Self.advice(reason))")
            }
        } catch {
            return Finding(severity: .error, subject: subject, fromProbe: true, message: "probe: no answer from \(endpoint): \(error)")
        }
    }

    private static func advice(_ reason: APNsReason?) -> String {
        switch reason {
        case .invalidProviderToken?, .badEnvironmentKeyIdInToken?, .unrelatedKeyIdInToken?:
            " (check key_id, team_id and the .p8 file, and production vs sandbox)"
        case .badCertificate?, .badCertificateEnvironment?:
            " (the certificate is not accepted here: check production vs sandbox)"
        case .topicDisallowed?, .badTopic?, .deviceTokenNotForTopic?:
            " (check apns.topic: the bundle id the key or certificate may push to)"
        default: ""
        }
    }
}

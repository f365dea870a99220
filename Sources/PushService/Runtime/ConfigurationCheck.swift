import APNs
import Foundation
import Logging

/// What `push-relay check-config` found: the file, then each app's credentials and, when asked,
/// what APNs answered to a probe push.
public struct ConfigurationCheck: Sendable {
    public enum Severity: String, Sendable { case ok, warning, error }

    public struct Finding: Sendable, CustomStringConvertible {
        public var severity: Severity
        /// `configuration`, or `app <id>`.
        public var subject: String
        public var message: String

        public var description: String { "\(severity.rawValue): \(subject): \(message)" }
    }

    public var findings: [Finding] = []
    /// The file itself could not be parsed (no app could be checked).
    public var configurationInvalid = false

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

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
        for app in configuration.apps {
            await check.checkApp(app, probe: probe, now: now, logger: logger)
        }
        return check
    }

    private mutating func checkApp(_ app: AppConfiguration, probe: Bool, now: Date, logger: Logger) async {
        let subject = "app \(app.appID)"
        guard let apns = app.apns else {
            findings.append(
                Finding(severity: .warning, subject: subject, message: "no apns settings: tokens can be registered but nothing is pushed"))
            return
        }
        let built: AppClient
        do {
            built = try AppClient.build(app: app, logger: logger, now: now)
        } catch {
            findings.append(Finding(severity: .error, subject: subject, message: "\(error)"))
            return
        }
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
        guard let target = built.target else { return }
        if probe { findings.append(await Self.probe(target, subject: subject)) }
        await target.client.shutdown()
    }

    /// One push to a dummy token. `BadDeviceToken` (or a 200 from a mock) means the connection,
    /// the credentials and the topic were accepted.
    static func probe(_ target: DeliveryTarget, subject: String) async -> Finding {
        let request = APNsRequest(
            deviceToken: probeDeviceToken, topic: target.topic,
            payload: Array(#"{"aps":{"alert":"push-relay check-config probe"}}"#.utf8),
            pushType: .alert, priority: .immediate, expiration: .immediately)
        let endpoint = target.client.configuration.endpoint
        do {
            let response = try await target.client.send(request, timeout: .seconds(20))
            switch (response.status, response.reason) {
            case (200, _):
                return Finding(severity: .ok, subject: subject, message: "probe: \(endpoint) accepted the push (status 200)")
            case (_, .badDeviceToken?):
                return Finding(
                    severity: .ok, subject: subject,
                    message: "probe: \(endpoint) accepted the credentials and topic (BadDeviceToken for the dummy token, as expected)")
            case (let status, let reason):
                return Finding(
                    severity: .error, subject: subject,
                    message: "probe: \(endpoint) rejected the push: status \(status) \(reason.map { "\($0)" } ?? "")\(Self.advice(reason))")
            }
        } catch {
            return Finding(severity: .error, subject: subject, message: "probe: no answer from \(endpoint): \(error)")
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

import ConfigSupport
import Foundation
import Logging
import ProviderDriver
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

    /// Certificates expiring sooner than this get a warning.
    public static let expiryWarning: TimeInterval = 30 * 86_400

    /// Checks the file at `path`; with `probe`, asks each app's providers to take one request (`ProviderRoute.probe`).
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
        guard !app.providers.isEmpty else {
            let sections = ProviderCatalog.installed.descriptions.map(\.id.rawValue).joinedWithOr
            findings.append(
                Finding(
                    severity: .warning, subject: subject,
                    message: "no \(sections) settings: tokens can be registered but nothing is pushed"))
            return
        }
        let built: AppClient
        do {
            built = try AppClient.build(app: app, logger: logger, now: now)
        } catch {
            findings.append(Finding(severity: .error, subject: subject, message: error.detail))
            return
        }
        let routes = built.target?.routes ?? [:]
        for route in ProviderCatalog.installed.descriptions.compactMap({ routes[$0.id] }) {
            await checkRoute(route, subject: subject, probe: probe, now: now)
        }
        await built.target?.shutdown()
    }

    /// What a provider's settings loaded, when its certificate ends, and what it answered a probe.
    private mutating func checkRoute(_ route: ProviderRoute, subject: String, probe: Bool, now: Date) async {
        findings.append(Finding(severity: .ok, subject: subject, message: route.summary))
        if let notAfter = route.certificateNotAfter, notAfter.timeIntervalSince(now) < Self.expiryWarning {
            let days = Int(notAfter.timeIntervalSince(now) / 86_400)
            let name = ProviderCatalog.installed.displayName(of: route.provider)
            findings.append(
                Finding(
                    severity: .warning, subject: subject,
                    message: "the \(name) certificate expires in \(days) day(s) (\(notAfter.ISO8601Format())): renew it"))
        }
        guard probe else { return }
        let answer = await route.probe()
        findings.append(Finding(severity: answer.ok ? .ok : .error, subject: subject, fromProbe: !answer.ok, message: answer.message))
    }
}

import ArgumentParser
import ConfigSupport
import Foundation
import Logging
import PushService

/// `push-relay check-config --config PATH [--probe] [--credentials-dir DIR]`: validates the file and every credential.
struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration file and every app's APNs, FCM and HMS credentials.",
        discussion: """
            Loads every key and certificate (warning when a certificate expires within 30 days) \
            and judges the modes of the files holding secrets: the configuration file when it \
            holds secrets inline, {file:} secrets and key files, and the credentials directory \
            and its files. Values still the example's (app_id, apns.topic, key_id, team_id, …) \
            are warnings. With --probe, each app's providers must accept its credentials: one \
            push to a dummy APNs device token (APNs answering BadDeviceToken proves the \
            credentials and topic), and for FCM and HMS the token exchange, then a validate_only \
            send.

            {credential: NAME} is read from $CREDENTIALS_DIRECTORY/NAME under systemd; outside \
            it (as root, before installing or changing the unit), from --credentials-dir, by \
            default /etc/push-relay/credentials, where the unit's LoadCredential= lines take them.

            Exit status: 0 usable (warnings allowed without --strict); 1 a probe failed (a \
            provider refused the credentials or did not answer); 2 warnings, with --strict; 78 \
            the relay would not start with it (the file or a credential is invalid).
            """
    )

    @Option(name: .long, help: "Path of the YAML configuration file.")
    var config: String

    @Flag(name: .long, help: "Also have each provider accept the credentials: a probe push to APNs, a dry run to FCM and HMS.")
    var probe = false

    @Flag(name: .long, help: "Exit 2 when there is any warning (a file others can read, a placeholder left, …).")
    var strict = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where {credential: NAME} files are (default: $CREDENTIALS_DIRECTORY, else \(ConfigurationEnvironment.unitCredentialsDirectory)).",
            valueName: "dir"))
    var credentialsDir: String?

    func run() async throws {
        var logger = Logger(label: "push-relay.check")
        logger.logLevel = .critical  // the findings say it all; connection chatter would only confuse
        // Absolute, as the LoadCredential= line its hints name must be.
        let directory = credentialsDir.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let environment = ConfigurationEnvironment.process.checking(credentialsDirectory: directory)
        let check = await ConfigurationCheck.run(path: config, probe: probe, environment: environment, logger: logger)
        for finding in check.findings {
            let line = "\(finding)\n"
            if finding.severity == .ok {
                FileHandle.standardOutput.write(Data(line.utf8))
            } else {
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        let status = check.exitStatus(strict: strict)
        switch status {
        case .usable: print("configuration OK")
        case .warnings: print("configuration usable, with warnings (--strict)")
        case .probeFailed, .invalid: break
        }
        if status != .usable { throw ExitCode(status.rawValue) }
    }
}

import ArgumentParser
import Foundation
import Logging
import PushService

/// `push-relay check-config --config PATH [--probe] [--credentials-dir DIR]`: validates the file and every credential.
struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration file and every app's APNs, FCM and HMS credentials.",
        discussion: """
            Loads every key and certificate (warning when a certificate expires within 30 days). \
            With --probe, sends one push per app to a dummy device token: APNs answering \
            BadDeviceToken proves the credentials and topic are accepted (FCM and HMS: the token \
            exchange, then a validate_only send).

            {credential: NAME} is read from $CREDENTIALS_DIRECTORY/NAME under systemd; outside \
            it (as root, before installing or changing the unit), from --credentials-dir, by \
            default /etc/push-relay/credentials, where the unit's LoadCredential= lines take them.

            Exit status: 0 everything is usable (warnings allowed); 1 a credential or probe \
            failed; 78 the file is invalid.
            """
    )

    @Option(name: .long, help: "Path of the YAML configuration file.")
    var config: String

    @Flag(name: .long, help: "Also send a probe push per app to APNs.")
    var probe = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where {credential: NAME} files are (default: $CREDENTIALS_DIRECTORY, else \(ConfigurationEnvironment.unitCredentialsDirectory)).",
            valueName: "dir"))
    var credentialsDir: String?

    func run() async throws {
        var logger = Logger(label: "push-relay.check")
        logger.logLevel = .critical  // the findings say it all; connection chatter would only confuse
        let environment = ConfigurationEnvironment.process.checking(credentialsDirectory: credentialsDir)
        let check = await ConfigurationCheck.run(path: config, probe: probe, environment: environment, logger: logger)
        for finding in check.findings {
            let line = "\(finding)\n"
            if finding.severity == .ok {
                FileHandle.standardOutput.write(Data(line.utf8))
            } else {
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        if check.configurationInvalid { throw ExitCode(78) }
        if check.hasErrors { throw ExitCode(1) }
        print("configuration OK")
    }
}

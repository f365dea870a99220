import ArgumentParser

/// `push-relay`: the service and its operator tools. Each subcommand lives in its own file.
@main
struct PushRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-relay",
        abstract: "Self-hosted push-notification relay: Sendbird-compatible webhook and REST API, delivery to APNs, FCM and HMS.",
        version: version,
        subcommands: [
            ServeCommand.self, CheckConfigCommand.self, SendCommand.self, TestPushCommand.self, MigrateStoreCommand.self,
            EndConsoleSessionsCommand.self,
        ]
    )
}

/// `push-relay --version`, also logged at start (which build is running is the first question
/// when reading an incident's logs).
let version = "0.9.0"

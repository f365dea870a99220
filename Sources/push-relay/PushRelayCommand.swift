import ArgumentParser

/// `push-relay`: the service and its operator tools. Each subcommand lives in its own file.
@main
struct PushRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push-relay",
        abstract: "Self-hosted push-notification relay: Sendbird-compatible webhook and REST API, delivery to APNs.",
        subcommands: [ServeCommand.self, CheckConfigCommand.self, SendCommand.self]
    )
}

import APNs
import ArgumentParser

/// `push-relay send`: one notification to APNs with the given credentials.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one notification to APNs and print status, apns-id and reason."
    )

    func run() async throws {
        print("not implemented yet")
    }
}

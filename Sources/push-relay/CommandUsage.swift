import ArgumentParser
import Foundation

extension AsyncParsableCommand {
    /// Runs `body`, reporting a usage error it throws (`ValidationError`) as ArgumentParser
    /// reports one found while parsing: the message, this subcommand's usage (an error thrown
    /// out of `run()` would get the top-level one), exit status 64.
    func reportingUsageErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ValidationError {
            let name = Self.configuration.commandName ?? ""
            let text = """
                Error: \(error.message)
                Usage: \(PushRelayCommand.usageString(for: Self.self))
                  See 'push-relay \(name) --help' for more information.

                """
            FileHandle.standardError.write(Data(text.utf8))
            throw ExitCode(ExitCode.validationFailure.rawValue)
        }
    }
}

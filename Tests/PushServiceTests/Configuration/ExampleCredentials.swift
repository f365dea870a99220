import ConfigSupport
import Foundation
import TestSupport

@testable import PushService

/// The example configuration names its secrets as systemd credentials (`{credential: NAME}`):
/// tests read it with a directory holding them, as the unit's `LoadCredential=` lines provide.
struct ExampleCredentials {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("api-token", "example-token-0123456789abcdef")
        try directory.write("apns-key.p8", "parsed, not loaded, here")
    }

    /// The environment a unit would give, plus `variables`.
    func environment(_ variables: [String: String] = [:]) -> ConfigurationEnvironment {
        ConfigurationEnvironment(variables: variables.merging(["CREDENTIALS_DIRECTORY": directory.url.path]) { own, _ in own })
    }
}

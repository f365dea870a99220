import ConfigSupport
import TestSupport
import Foundation
import Testing
@testable import PushService

/// Where `{credential: NAME}` is read from: systemd's `$CREDENTIALS_DIRECTORY` in the service;
/// for `check-config` outside it, `--credentials-dir`, else the directory the unit loads from.
@Suite(.timeLimit(.minutes(5))) struct CredentialsDirectoryTests {
    @Test func checkConfigFallsBackToTheUnitsDirectoryWhenSystemdSetNone() {
        for variables in [[:], ["CREDENTIALS_DIRECTORY": ""]] {
            let environment = ConfigurationEnvironment(variables: variables).checking(credentialsDirectory: nil)
            #expect(environment.credentialsDirectory == "/etc/push-relay/credentials")
        }
    }

    @Test func systemdsDirectoryIsKeptAndAGivenDirectoryWins() {
        let systemd = ConfigurationEnvironment(variables: ["CREDENTIALS_DIRECTORY": "/run/credentials/push-relay.service"])
        #expect(systemd.checking(credentialsDirectory: nil).credentialsDirectory == "/run/credentials/push-relay.service")
        #expect(systemd.checking(credentialsDirectory: "/tmp/creds").credentialsDirectory == "/tmp/creds")
        #expect(ConfigurationEnvironment(variables: [:]).checking(credentialsDirectory: "/tmp/creds").credentialsDirectory == "/tmp/creds")
    }

    @Test func theServiceItselfHasNoFallback() {
        #expect(ConfigurationEnvironment(variables: [:]).credentialsDirectory == nil)
    }

    @Test func aCredentialMissingFromTheDirectoryNamesItAndTheUnitLine() throws {
        let directory = try TemporaryDirectory()
        let environment = ConfigurationEnvironment(variables: ["CREDENTIALS_DIRECTORY": directory.url.path])
        #expect(
            throws: ConfigurationError.invalidValue(
                key: "apps[0].api_token.credential",
                reason: "systemd credential \"api-token\" is not in \(directory.url.path) (put the file in /etc/push-relay/credentials"
                    + " and add LoadCredential=api-token:/etc/push-relay/credentials/api-token to the unit)")
        ) {
            try RelayConfiguration.parse(
                yaml: "listen: {}\ndatabase: {path: p}\napps:\n  - {app_id: A, api_token: {credential: api-token}}",
                environment: environment)
        }
    }
}

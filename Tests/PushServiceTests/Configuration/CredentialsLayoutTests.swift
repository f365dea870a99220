import ConfigSupport
import TestSupport
import Foundation
import Testing
@testable import PushService

/// One layout for secrets everywhere an operator meets it: the unit loads
/// `/etc/push-relay/credentials/NAME` as credential NAME, the example configurations name exactly
/// those credentials, and `check-config` falls back to that directory.
@Suite(.timeLimit(.minutes(5))) struct CredentialsLayoutTests {
    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: Repository.path(relative), encoding: .utf8)
    }

    /// `{credential: NAME}` on lines that are not comments (or, with `commented`, on those that are).
    static func credentials(in relative: String, commented: Bool = false) throws -> Set<String> {
        let pattern = try Regex(#"\{credential: ([a-z0-9][a-z0-9._-]*)\}"#)
        var names: Set<String> = []
        for line in try text(relative).split(separator: "\n") {
            let code = line.prefix { $0 != "#" }
            let part = commented ? line.dropFirst(code.count) : code
            for match in part.matches(of: pattern) { names.insert(String(match.output[1].substring ?? "")) }
        }
        return names
    }

    static func unitCredentials() throws -> [String: String] {
        var loaded: [String: String] = [:]
        for line in try text("systemd/push-relay.service").split(separator: "\n") where line.hasPrefix("LoadCredential=") {
            let value = line.dropFirst("LoadCredential=".count)
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            loaded[parts[0]] = parts.count == 2 ? parts[1] : ""
        }
        return loaded
    }

    @Test func theUnitLoadsEachCredentialFromTheOneDirectory() throws {
        let loaded = try Self.unitCredentials()
        #expect(!loaded.isEmpty)
        for (name, path) in loaded {
            #expect(path == "\(ConfigurationEnvironment.unitCredentialsDirectory)/\(name)")
        }
    }

    @Test func theExampleNamesExactlyTheCredentialsTheUnitLoads() throws {
        #expect(try Self.credentials(in: "Config/push-relay.yaml") == Set(try Self.unitCredentials().keys))
    }

    @Test func thePackagesConfigurationUsesTheSameNames() throws {
        let loaded = Set(try Self.unitCredentials().keys)
        #expect(try Self.credentials(in: "packaging/deb/push-relay.yaml") == ["api-token"])
        #expect(try Self.credentials(in: "packaging/deb/push-relay.yaml", commented: true).isSubset(of: loaded))
    }
}

import TestSupport

/// Paths of the development credentials in certs/dev (made by scripts/gen-dev-certs.py).
enum CredentialFixtures {
    static func dev(_ name: String) -> String { Repository.devCert(name) }

    static func bad(_ name: String) -> String { dev("bad/\(name)") }
}

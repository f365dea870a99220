/// A file the configuration reads a secret or a private key from, and the key that names it.
public struct CredentialFile: Sendable, Hashable {
    public var key: String
    public var path: String

    public init(key: String, path: String) {
        self.key = key
        self.path = path
    }
}

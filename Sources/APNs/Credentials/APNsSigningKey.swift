import HTTP2Transport

/// The EC P-256 private key of an APNs auth key (`AuthKey_<KeyID>.p8`), used to sign provider
/// tokens (ES256).
public final class APNsSigningKey: Sendable {
    /// The file (or other source) the key came from, for messages.
    public let source: String
    private let key: EVPPrivateKey

    /// Loads an Apple `.p8` file: a PEM PKCS#8 EC P-256 private key, not encrypted.
    public convenience init(p8File path: String) throws(APNsCredentialError) {
        let bytes: [UInt8]
        do {
            bytes = try CredentialFileReader.read(path)
        } catch {
            throw .credential(error)
        }
        try self.init(pemBytes: bytes, source: path)
    }

    /// Loads the key from the contents of a `.p8` file (e.g. from a secret store).
    /// - Parameter source: names where the text came from in error messages (not the key).
    public convenience init(pemString: String, source: String) throws(APNsCredentialError) {
        try self.init(pemBytes: Array(pemString.utf8), source: source)
    }

    private init(pemBytes: [UInt8], source: String) throws(APNsCredentialError) {
        let key: EVPPrivateKey
        do throws(CredentialError) {
            key = try EVPPrivateKey(pemBytes, password: nil, path: source, expected: "PEM PKCS#8 private key")
        } catch {
            switch error {
            case .passwordRequired:
                throw .credential(
                    .wrongFormat(
                        path: source,
                        detail: "the key is password-protected; Apple's .p8 keys are not (use the file as downloaded from Apple)"))
            case .missingPrivateKey:
                throw .credential(.wrongFormat(path: source, detail: "not a PEM PKCS#8 private key (it holds other PEM data)"))
            default:
                throw .credential(error)
            }
        }
        let found = key.typeDescription
        guard found == "EC P-256" else {
            throw .credential(.wrongKeyType(path: source, found: found, expected: "EC P-256"))
        }
        self.key = key
        self.source = source
    }

    /// Signs `message` with ECDSA P-256 / SHA-256 and returns the JWS form of the signature:
    /// raw `R ‖ S`, 32 big-endian bytes each (RFC 7518 §3.4), not OpenSSL's DER.
    public func signES256(_ message: [UInt8]) throws(APNsCredentialError) -> [UInt8] {
        do {
            return try key.signES256(message)
        } catch {
            throw .credential(.signingFailed(source: source, reason: error.description))
        }
    }

    /// The Key ID in an Apple key file name, `AuthKey_<KeyID>.p8`, if the name has that shape.
    public static func keyID(fromFileName path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        let id = String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
        return APNsIdentifier.isValid(id) ? id : nil
    }
}

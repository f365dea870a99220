import COpenSSL

/// OpenSSL 3's "legacy" provider, needed to decrypt `.p12` files that use RC2 (what macOS
/// Keychain and `openssl pkcs12 -export -legacy` produce).
///
/// Loaded at most once per process, only when a `.p12` fails to parse, because it adds old
/// algorithms to the process-wide default library context. The `static let` gives the
/// thread-safe once-only initialisation (Swift runs global/static initialisers exactly once
/// under a lock). The provider handles are never unloaded: they must live as long as the
/// process may parse a `.p12`.
enum OpenSSLLegacyProvider {
    /// nil when both providers are loaded; otherwise why not, in words for an error message.
    static let loadFailure: String? = load()

    private static func load() -> String? {
        // Loading any provider explicitly stops OpenSSL from loading "default" on its own, so
        // load it first or every ordinary algorithm would disappear.
        guard OSSL_PROVIDER_load(nil, "default") != nil else {
            return "OpenSSL's \"default\" provider could not be loaded (\(OpenSSLError.drainQueue()))"
        }
        guard OSSL_PROVIDER_load(nil, "legacy") != nil else {
            return "OpenSSL's \"legacy\" provider (ossl-modules/legacy.so) is not available "
                + "(\(OpenSSLError.drainQueue())); install it, or export the .p12 again with AES "
                + "encryption (e.g. OpenSSL 3's `openssl pkcs12 -export` without -legacy)"
        }
        return nil
    }
}

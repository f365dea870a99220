import COpenSSL

/// OpenSSL's one-time initialisation, done by this module before its first OpenSSL call.
///
/// The point is `OPENSSL_INIT_NO_ATEXIT`: by default OpenSSL frees its global state from an
/// atexit() handler, and a connection thread still tearing down its `SSL` while the process
/// exits (after `shutdown()` returned, e.g. `push-relay check-config --probe`) can then crash
/// the exit with SIGSEGV. The OS reclaims the memory anyway.
enum OpenSSLLibrary {
    static let initialized: Bool = pr_OPENSSL_init_no_atexit() == 1

    /// Call at every entry point that may be the process's first use of OpenSSL.
    static func initialize() {
        _ = initialized
    }
}

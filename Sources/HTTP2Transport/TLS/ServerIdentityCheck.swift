import COpenSSL
#if canImport(Glibc)
    import Glibc
#endif

/// What the server certificate must name, set on each `SSL*` before its handshake.
///
/// An IP literal is matched against the certificate's IP addresses only, a host name against its
/// DNS names, with wildcards only as a whole left-most label (`*.example.com`, never
/// `f*.example.com`), and a name also goes out as SNI (RFC 6066 has no SNI for addresses). A
/// call that fails ends the attempt: going on would mean a handshake with the name unchecked.
enum ServerIdentityCheck {
    static func configure(_ ssl: OpaquePointer, host: String) throws(HTTP2TransportError) {
        OpenSSLError.clearQueue()
        guard let param = SSL_get0_param(ssl) else {
            throw .connectFailed("TLS setup: no verification parameters (\(OpenSSLError.drainQueue()))")
        }
        if isIPAddress(host) {
            guard X509_VERIFY_PARAM_set1_ip_asc(param, host) == 1 else {
                throw .connectFailed(
                    "TLS setup: cannot require IP address \(host) in the server certificate (\(OpenSSLError.drainQueue()))")
            }
        } else {
            X509_VERIFY_PARAM_set_hostflags(param, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            // Length 0: the name is NUL-terminated.
            guard X509_VERIFY_PARAM_set1_host(param, host, 0) == 1 else {
                throw .connectFailed("TLS setup: cannot require host name \(host) in the server certificate (\(OpenSSLError.drainQueue()))")
            }
            guard pr_SSL_set_tlsext_host_name(ssl, host) == 1 else {
                throw .connectFailed("TLS setup: cannot send \(host) as SNI (\(OpenSSLError.drainQueue()))")
            }
        }
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}

import COpenSSL
import Foundation

/// The OpenSSL `SSL_CTX` every connection of one client is made from: TLS 1.2+, ALPN h2,
/// peer verification against the system store and an optional extra CA file, and the client
/// certificate when one is configured (APNs certificate auth).
// @unchecked Sendable: the SSL_CTX is fully configured in init and only read afterwards
// (SSL_new), which OpenSSL documents as safe from several threads.
final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer

    init(configuration: TransportConfiguration) throws(HTTP2TransportError) {
        OpenSSLLibrary.initialize()
        OpenSSLError.clearQueue()
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            throw .connectFailed("cannot create TLS context: \(OpenSSLError.drainQueue())")
        }
        context = ctx
        // Every call below that can fail is checked: a context that silently lacks one of these
        // settings would still connect, only with weaker guarantees.
        guard pr_SSL_CTX_set_min_proto_version(ctx, pr_TLS1_2_VERSION()) == 1 else {
            throw .connectFailed("cannot require TLS 1.2 or later: \(OpenSSLError.drainQueue())")
        }
        // Returns the new mode bit mask, not a status.
        _ = pr_SSL_CTX_set_mode(ctx, pr_SSL_MODE_ENABLE_PARTIAL_WRITE() | pr_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER())
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        if configuration.trustSystemRoots {
            guard SSL_CTX_set_default_verify_paths(ctx) == 1 else {
                throw .connectFailed("cannot use the system CA store: \(OpenSSLError.drainQueue())")
            }
        }
        if let caFile = configuration.extraCAFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw .connectFailed("CA file \(caFile): not found or not readable")
            }
            guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                throw .connectFailed("CA file \(caFile): not PEM certificates (\(OpenSSLError.drainQueue()))")
            }
        }
        // ALPN wire format: length-prefixed protocol names. Push providers speak h2.
        let alpn: [UInt8] = [2, UInt8(ascii: "h"), UInt8(ascii: "2")]
        guard SSL_CTX_set_alpn_protos(ctx, alpn, UInt32(alpn.count)) == 0 else {
            throw .connectFailed("cannot set ALPN: \(OpenSSLError.drainQueue())")
        }
        if let identity = configuration.clientIdentity {
            do {
                try identity.install(into: ctx)
            } catch {
                throw .connectFailed("cannot use client certificate: \(error)")
            }
        }
    }

    deinit {
        SSL_CTX_free(context)
    }
}

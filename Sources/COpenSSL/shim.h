#ifndef PUSHRELAY_COPENSSL_SHIM_H
#define PUSHRELAY_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/bio.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/provider.h>

// OpenSSL's own initialisation without its atexit() cleanup: connection threads may still free
// SSL objects while the process exits, and OPENSSL_cleanup() racing them can crash the exit.
static inline int pr_OPENSSL_init_no_atexit(void) {
    return OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
}

// Function-like macros Swift cannot import, wrapped as inline functions.
static inline long pr_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long pr_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline long pr_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}
static inline long pr_SSL_CTX_add_extra_chain_cert(SSL_CTX *ctx, X509 *x509) {
    return SSL_CTX_add_extra_chain_cert(ctx, x509);
}
static inline int pr_BIO_get_mem_data(BIO *bio, char **pp) {
    return (int)BIO_get_mem_data(bio, pp);
}
static inline const int pr_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline const long pr_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline const long pr_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline const long pr_SSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }
#endif

import COpenSSL

/// Human-readable facts about an `EVP_PKEY`, for checks and error messages.
enum EVPKeyInfo {
    /// The EC curve in the names Apple and most people use ("P-256"), or OpenSSL's group name;
    /// nil for non-EC keys.
    static func curveName(_ key: OpaquePointer) -> String? {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else { return nil }
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard
            EVP_PKEY_get_utf8_string_param(
                key, OSSL_PKEY_PARAM_GROUP_NAME, &buffer, buffer.count,
                &length) == 1
        else { return "unknown curve" }
        let group = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch group {
        case "prime256v1", "P-256", "secp256r1": return "P-256"
        case "secp384r1", "P-384": return "P-384"
        case "secp521r1", "P-521": return "P-521"
        default: return group
        }
    }

    /// E.g. "EC P-256", "EC P-384", "RSA 2048", "ED25519".
    static func typeDescription(_ key: OpaquePointer) -> String {
        if let curve = curveName(key) { return "EC \(curve)" }
        if EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA { return "RSA \(EVP_PKEY_get_bits(key))" }
        if let name = EVP_PKEY_get0_type_name(key) { return String(cString: name) }
        return "unknown"
    }
}

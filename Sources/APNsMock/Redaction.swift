/// Shortens secrets and device tokens for logs and exported records: first 8 characters + "…".
enum Redaction {
    static func redact(_ secret: some StringProtocol) -> String {
        secret.count <= 8 ? String(secret) : String(secret.prefix(8)) + "…"
    }
}

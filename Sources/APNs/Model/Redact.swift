/// Shortens secrets and device tokens for logs and error messages: they never appear in full.
public enum Redact {
    /// First 8 characters and an ellipsis, e.g. `a1b2c3d4…`.
    public static func token(_ value: String) -> String {
        value.count <= 8 ? String(repeating: "*", count: value.count) : value.prefix(8) + "…"
    }
}

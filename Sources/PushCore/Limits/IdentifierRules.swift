/// What an id (user id, channel URL, app id) may be, wherever it enters: a webhook body or a
/// REST path. Bounded, so per-request work and stored keys stay bounded, and free of control
/// characters, so no id can be cut at a NUL by a C API into another user's id, or forge a log
/// line.
public enum IdentifierRules {
    /// The longest id accepted, in UTF-8 bytes (Sendbird's are at most 80 or 100 characters).
    public static let maximumBytes = 255

    /// Why `id` is not acceptable, or nil.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "a non-empty string" }
        if id.utf8.count > maximumBytes { return "at most \(maximumBytes) bytes" }
        if containsControl(id) { return "a string without control characters" }
        return nil
    }

    /// Whether `text` holds a character of Unicode's general category Cc (control): exactly
    /// U+0000–U+001F and U+007F–U+009F. Read from the UTF-8 bytes, since asking each scalar for
    /// its category was a third of decoding a webhook (every member's id comes through here):
    /// U+0080–U+009F are the only two-byte sequences starting 0xC2 0x80…0x9F, and no other byte
    /// of valid UTF-8 is below 0x20 or 0x7F.
    static func containsControl(_ text: String) -> Bool {
        var afterC2 = false
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte <= 0x9F) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }
}

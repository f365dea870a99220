/// How secrets (API tokens, session tokens, webhook secrets, .p12 passwords, JWTs) and device
/// tokens appear in logs, error messages and exported records, everywhere in the project (the
/// relay, the APNs client and the mock): at most their first 4 characters and "…"; a value
/// shorter than 16 characters is masked whole, since 4 of a short secret is too much of it.
/// One rule, one place: the helpers this replaced disagreed on short values.
public enum Redaction {
    /// Values shorter than this show no character at all.
    public static let shortestShown = 16
    /// How many leading characters a long value keeps.
    public static let shownCharacters = 4

    public static func redact(_ value: some StringProtocol) -> String {
        guard value.count >= shortestShown else { return "••••" }
        return String(value.prefix(shownCharacters)) + "…"
    }

    /// Runs of token characters at least this long are taken for a token or secret by `scrub`.
    /// Device tokens (APNs 64 hex digits, FCM 100 and more), JWTs and API tokens are longer;
    /// PostgreSQL's identifiers (at most 63, the relay's under 40) and words are shorter.
    public static let scrubbedRunLength = 40

    /// `text` with every run of `scrubbedRunLength` or more letters, digits, `_`, `-`, `:` or `.`
    /// redacted, for messages written by others (a database server's error) that may quote a
    /// value the relay sent.
    public static func scrub(_ text: String) -> String {
        func isTokenCharacter(_ c: Character) -> Bool {
            c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == "-" || c == ":" || c == ".")
        }
        var result = ""
        var rest = text[...]
        while let start = rest.firstIndex(where: isTokenCharacter) {
            let end = rest[start...].firstIndex { !isTokenCharacter($0) } ?? rest.endIndex
            let run = rest[start..<end]
            result += rest[..<start]
            result += run.count >= scrubbedRunLength ? redact(run) : String(run)
            rest = rest[end...]
        }
        return result + rest
    }
}

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
}

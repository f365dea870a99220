/// How secrets (API tokens, session tokens, webhook secrets, .p12 passwords, JWTs) and device
/// tokens appear in logs, error messages and exported records, everywhere in the project (the
/// relay, the APNs client and the mock): at most their first 4 characters and "…"; a value
/// shorter than 16 characters is masked whole, since 4 of a short secret is too much of it.
/// One rule, one place: the helpers this replaced disagreed on short values, and on which runs
/// of free text were tokens.
public enum Redaction {
    /// Values shorter than this show no character at all.
    public static let shortestShown = 16
    /// How many leading characters a long value keeps.
    public static let shownCharacters = 4

    public static func redact(_ value: some StringProtocol) -> String {
        guard value.count >= shortestShown else { return "••••" }
        return redacted(prefix: value.prefix(shownCharacters))
    }

    /// The shown form of a value of which only its first `shownCharacters` are at hand (a listed
    /// API token: the store keeps no more of it), the same as `redact` shows the whole value.
    public static func redacted(prefix: some StringProtocol) -> String {
        String(prefix.prefix(shownCharacters)) + "…"
    }

    /// Runs of token characters at least this long are taken for a token or secret by `scrub`.
    ///
    /// Every token the relay handles is at least this long: APNs device tokens (64 hex digits),
    /// the relay's API tokens (64) and session tokens (80), Sendbird's API tokens (40 hex
    /// digits), FCM registration tokens and HMS Push Kit tokens (well over 100 characters of
    /// base64url, FCM's with a `:`), JWTs (base64url segments joined by `.`). Shorter values stay
    /// readable, and the ones an operator looks for in a log are: apns-ids and other UUIDs (36),
    /// IPv6 addresses (at most 39), timestamps, and PostgreSQL's and the relay's identifiers
    /// (the relay's are under 40). At 32, a UUID would be cut. Secrets that may be shorter (an
    /// app's configured API token, at least 16) are never written into free text; they are
    /// redacted whole where they are logged, by their name (`Secret`, the log's secret keys).
    /// The price: an id of 40 or more such characters (a long channel URL) is shortened too.
    public static let scrubbedRunLength = 40

    /// `text` with every run of `scrubbedRunLength` or more ASCII letters, digits, `_`, `-`, `:`
    /// or `.` redacted, for free text that may quote a token: log messages and values, and
    /// messages written by others (a database server's error quoting a value the relay sent).
    /// Hex alone would miss FCM and HMS tokens; `/` and `+` are left out so that paths stay
    /// split into their segments. Text without such a run is returned as it is, after one pass
    /// over its bytes.
    public static func scrub(_ text: String) -> String {
        guard holdsLongRun(text.utf8) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var run: [UInt8] = []
        func flush() {
            if run.count >= scrubbedRunLength {
                output += redacted(prefix: String(decoding: run, as: UTF8.self)).utf8
            } else {
                output += run
            }
            run.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if isTokenByte(byte) {
                run.append(byte)
            } else {
                flush()
                output.append(byte)
            }
        }
        flush()
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `bytes` hold a run `scrub` redacts: most text (ids, counts, words) holds none.
    static func holdsLongRun(_ bytes: String.UTF8View) -> Bool {
        guard bytes.count >= scrubbedRunLength else { return false }
        var run = 0
        for byte in bytes {
            run = isTokenByte(byte) ? run + 1 : 0
            if run >= scrubbedRunLength { return true }
        }
        return false
    }

    /// A letter, digit, `_`, `-`, `:` or `.`, in ASCII. A byte of a multi-byte character is never
    /// one, so runs end at any non-ASCII character.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}

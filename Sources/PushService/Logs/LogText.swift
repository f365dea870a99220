/// Makes any text safe to put in a log line: one event is always one line, whatever a client
/// sent. Control characters (C0, DEL, C1 including U+0085 NEL) and the Unicode line and
/// paragraph separators (U+2028, U+2029) are written as escapes, so `"a\u{0}<2>CRIT …"` in an
/// unsigned body cannot start a forged journal entry or hide text from a terminal.
enum LogText {
    /// How much of a value nobody has vouched for (an app id from an unverified path) a line
    /// carries.
    static let untrustedCharacters = 64

    /// The first `untrustedCharacters` characters of `text`.
    static func cut(_ text: some StringProtocol) -> String {
        String(text.prefix(untrustedCharacters))
    }

    /// `text` with every control character escaped (`\n`, `\r`, `\t`, else `\u{XXXX}`).
    static func escape(_ text: String) -> String {
        // Printable ASCII (nearly every value) needs no escape: checked by bytes first.
        guard !text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                output += "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
            }
        }
        return output
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}

import LogRedaction
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// One line per event: `level message key=value …`. Under journald (`JOURNAL_STREAM` set) the
/// line starts with a syslog priority (`<6>`) so the journal records the level, and carries no
/// timestamp (journald adds its own); elsewhere it starts with an ISO 8601 timestamp.
/// Metadata values that are secrets or device tokens are redacted whole, by their key; long
/// token-like runs in the message and other values as `Redaction.scrub` finds them. Every
/// control character in the message and values is escaped (`LogText`): one event, one line.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let underJournald: Bool
    private let write: @Sendable (String) -> Void

    /// - Parameters:
    ///   - journald: whether stderr goes to the journal (default: `JOURNAL_STREAM` is set).
    ///   - write: where lines go (default stderr); tests capture them.
    public init(
        label: String, level: Logger.Level = .info,
        journald: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil,
        write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError
    ) {
        self.label = label
        self.logLevel = level
        self.underJournald = journald
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // Nearly every line carries only its own metadata: no merged copy then.
        let provided = metadataProvider?.get()
        let merged: Logger.Metadata
        if metadata.isEmpty, provided?.isEmpty ?? true {
            merged = event.metadata ?? [:]
        } else {
            var all = metadata
            if let provided { all.merge(provided) { _, new in new } }
            if let extra = event.metadata { all.merge(extra) { _, new in new } }
            merged = all
        }
        write(format(level: event.level, message: "\(event.message)", metadata: merged))
    }

    /// The line's bytes to stderr in one `write` where the kernel takes them (a journal stream, a
    /// file), without copying them into a `Data` first.
    public static func writeToStandardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // stderr closed or full: a log line is not worth blocking or crashing for
                }
            }
        }
    }

    /// The line for one event, newline included.
    func format(level: Logger.Level, message: String, metadata: Logger.Metadata) -> String {
        var line = underJournald ? "<\(Self.syslogPriority(level))>" : Self.timestamp() + " "
        line += "\(level.rawValue) \(LogText.escape(Redaction.scrub(message)))"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            let raw = "\(value)"
            let value = Self.isSecretKey(key) ? Redaction.redact(raw) : Redaction.scrub(raw)
            line += " \(LogText.escape(key))=\(Self.quote(LogText.escape(value)))"
        }
        return line + "\n"
    }

    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Keys whose whole value is a secret or a device token (`api_token`, `device_token`,
    /// `password`, …) — by suffix, so counts such as `token_count` stay readable.
    static func isSecretKey(_ key: String) -> Bool {
        // By ASCII bytes, case-insensitively, without lowercasing a copy of every key of every line.
        secretSuffixes.contains { suffix in
            suffix.count <= key.utf8.count
                && zip(key.utf8.reversed(), suffix.reversed()).allSatisfy { byte, expected in byte | 0x20 == expected }
        }
    }

    private static let secretSuffixes = ["token", "password", "secret", "authorization"].map { Array($0.utf8) }

    private static func quote(_ value: String) -> String {
        // By bytes: the three are ASCII, so they are never part of another character's bytes.
        let needsQuotes =
            value.isEmpty || value.utf8.contains { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "=") }
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `2026-11-25T15:30:12.345Z`, as `Date.ISO8601FormatStyle(includingFractionalSeconds: true)`
    /// writes it (a test compares the two), from the C library: Foundation's formatter was the
    /// largest part of a line's cost.
    static func timestamp(_ date: Date = Date()) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let milliseconds = min(999, Int(((date.timeIntervalSince1970 - seconds) * 1000).rounded(.down)))
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return text.count >= count ? text : String(repeating: "0", count: count - text.count) + text
        }
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
            + "T" + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2)
            + "." + digits(milliseconds, 3) + "Z"
    }
}

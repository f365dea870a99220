import Foundation
import Logging
import Synchronization
import Testing
import PushCore
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct JournalLogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    static func logger(journald: Bool) -> (Logger, Lines) {
        let lines = Lines()
        let logger = Logger(label: "t") { label in
            JournalLogHandler(label: label, level: .debug, journald: journald) { line in lines.lines.withLock { $0.append(line) } }
        }
        return (logger, lines)
    }

    @Test func underJournaldALineHasAPriorityAndNoTimestamp() {
        let (logger, lines) = Self.logger(journald: true)
        logger.warning("retrying push", metadata: ["app": "app-A", "attempt": "2", "reason": "TooManyRequests now"])
        #expect(lines.all == [#"<4>warning retrying push app=app-A attempt=2 reason="TooManyRequests now""# + "\n"])
    }

    @Test func elsewhereALineStartsWithATimestamp() throws {
        let (logger, lines) = Self.logger(journald: false)
        logger.info("listening")
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix(" info listening\n"))
        #expect(line.first?.isNumber == true)
    }

    @Test func secretsAndDeviceTokensAreRedacted() {
        let (logger, lines) = Self.logger(journald: true)
        let token = String(repeating: "ab12", count: 16)
        logger.info("sent to \(token)", metadata: ["device": .string(token), "api_token": "secret-0123456789abcdef"])
        let line = lines.all.first ?? ""
        #expect(!line.contains(token))
        #expect(!line.contains("secret-0123456789abcdef"))
        #expect(line == "<6>info sent to ab12… api_token=secr… device=ab12…\n")
        logger.info("pruned", metadata: ["token_count": "3", "password": "hunter2hunter2"])
        #expect(lines.all.last == "<6>info pruned password=•••• token_count=3\n")
    }

    @Test func secretKeysAreFoundWhateverTheirCase() {
        for key in ["api_token", "API_TOKEN", "Device-Token", "password", "X-Authorization", "clientSecret", "token"] {
            #expect(JournalLogHandler.isSecretKey(key), "\(key)")
        }
        for key in ["token_count", "tokens", "oken", "", "passwords", "secretary", "app"] {
            #expect(!JournalLogHandler.isSecretKey(key), "\(key)")
        }
    }

    @Test func aMessageStaysOnOneLine() {
        let (logger, lines) = Self.logger(journald: true)
        logger.error("first\nsecond")
        #expect(lines.all == ["<3>error first\\nsecond\n"])
    }

    /// The hand-made timestamp is the text Foundation's ISO 8601 style writes, fractions included.
    @Test func theTimestampIsFoundationsISO8601() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_790_000_000.9996),
            Date(timeIntervalSince1970: 951_782_400.5),
        ]  // 2000-02-29
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { dates.append(Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &generator))) }
        for date in dates { #expect(JournalLogHandler.timestamp(date) == date.ISO8601Format(style), "\(date.timeIntervalSince1970)") }
    }

    /// The message and values not redacted by their key go through `Redaction.scrub`, the one
    /// rule: an FCM token (no hex run) is caught, an apns-id (a UUID) is kept.
    @Test func tokensInFreeTextAreRedactedAsEverywhere() {
        let (logger, lines) = Self.logger(journald: true)
        let fcm = "dXNlcjpwYXNz" + String(repeating: "Ab-_9", count: 25) + ":APA91b"
        let pushID = "123e4567-e89b-12d3-a456-426614174000"
        logger.warning("unregistered \(fcm)", metadata: ["error": "token \(fcm) is gone", "apns_id": .string(pushID)])
        #expect(lines.all == ["<4>warning unregistered dXNl… apns_id=\(pushID) error=\"token dXNl… is gone\"\n"])
    }

    @Test func valuesWithSpacesQuotesOrEqualsAreQuoted() {
        let (logger, lines) = Self.logger(journald: true)
        logger.info("m", metadata: ["a": "x y", "b": "k=v", "c": "say \"hi\"", "d": "", "e": "plain"])
        #expect(lines.all == [#"<6>info m a="x y" b="k=v" c="say \"hi\"" d="" e=plain"# + "\n"])
    }
}

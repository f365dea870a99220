import Foundation
import Logging
import Synchronization
import Testing
import PushCore
@testable import PushService

@Suite struct JournalLogHandlerTests {
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

    @Test func aMessageStaysOnOneLine() {
        let (logger, lines) = Self.logger(journald: true)
        logger.error("first\nsecond")
        #expect(lines.all == ["<3>error first\\nsecond\n"])
    }
}

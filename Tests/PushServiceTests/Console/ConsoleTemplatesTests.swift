import Foundation
import PushStore
import StoreContract
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct ConsoleTemplatesTests {
    static let templates = ["head", "foot", "sign_in", "error", "overview", "why", "user", "test_push"]

    @Test func noTemplateWritesAValueUnescaped() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/PushService/Console/Templates")
        for name in Self.templates {
            let text = try String(contentsOf: folder.appendingPathComponent("\(name).mustache"), encoding: .utf8)
            #expect(!text.contains("{{{"), "\(name) uses {{{ }}}")
            #expect(!text.contains("{{&"), "\(name) uses {{& }}")
            #expect(!text.contains("<script"), "\(name) has a script")
            #expect(!text.contains("style=\""), "\(name) has an inline style, which the CSP refuses")
            #expect(ConsoleTemplates.library.getTemplate(named: name) != nil)
        }
    }

    @Test func theTimelineEscapesIdsAndShowsEachAttempt() {
        let hostile = #"<script>x</script>"><img onerror=y>"#
        var page = WhyPage(chrome: .signedOut("t"), userID: hostile, messageID: "7", recent: nil, timeline: nil)
        page.recent = WhyPage.recent(
            user: hostile, deliveries: [], skips: [SkippedMessage(messageID: 9, decision: .skip(.snoozed), atMs: 1_700_000_000_000)])
        let html = ConsoleTemplates.library.render(page, withTemplate: "why") ?? ""
        #expect(html.contains(#"<td class="bad">snoozed</td>"#) && html.contains("snooze was on"), "\(html)")
        #expect(
            html.contains(#"href="/console/why?user_id=%3Cscript%3Ex%3C%2Fscript%3E%22%3E%3Cimg%20onerror%3Dy%3E&amp;message_id=9""#),
            "\(html)")
        #expect(!html.contains("<script>x"))
        #expect(!html.contains("<img onerror"))
        #expect(html.contains("&lt;script&gt;x&lt;/script&gt;&quot;&gt;&lt;img onerror=y&gt;"))
        #expect(html.contains(#"href="/console/user?user_id=%3Cscript%3Ex%3C%2Fscript%3E%22%3E%3Cimg%20onerror%3Dy%3E""#))
    }
}

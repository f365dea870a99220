import Foundation
import Testing
@testable import PushCore

@Suite(.timeLimit(.minutes(5))) struct TemplateRendererTests {
    let values = TemplateValues(
        senderName: "Cindy", message: "Bye!", filename: "squirrel.jpg",
        channelName: "Team", fileTypeFriendly: "Image")

    @Test func replacesEveryVariable() {
        #expect(TemplateRenderer.render("{sender_name}: {message}", values: values) == "Cindy: Bye!")
        #expect(TemplateRenderer.render("{filename}", values: values) == "squirrel.jpg")
        #expect(
            TemplateRenderer.render("{sender_name} sent an {file_type_friendly} in {channel_name}", values: values)
                == "Cindy sent an Image in Team")
        #expect(TemplateRenderer.render("{message}{message}", values: values) == "Bye!Bye!")
    }

    @Test func leavesUnknownVariablesAndStrayBracesAlone() {
        #expect(TemplateRenderer.render("{nickname} {message} {}", values: values) == "{nickname} Bye! {}")
        #expect(TemplateRenderer.render("{{message}}", values: values) == "{Bye!}")
        #expect(TemplateRenderer.render("{message", values: values) == "{message")
        #expect(TemplateRenderer.render("message}", values: values) == "message}")
        #expect(TemplateRenderer.render("", values: values) == "")
    }

    @Test func expandsInOnePassOnly() {
        let tricky = TemplateValues(senderName: "{message}", message: "{sender_name} {filename}")
        #expect(TemplateRenderer.render("{sender_name}: {message}", values: tricky) == "{message}: {sender_name} {filename}")
    }

    @Test func keepsUnicodeIntact() {
        let korean = TemplateValues(senderName: "민수", message: "안녕하세요 👩‍👩‍👧 שלום")
        #expect(TemplateRenderer.render("{sender_name}: {message}", values: korean) == "민수: 안녕하세요 👩‍👩‍👧 שלום")
    }

    @Test(arguments: [
        ("image/png", "Image"), ("IMAGE/JPEG", "Image"), ("audio/mpeg", "Audio"), ("video/mp4", "Video"),
        ("application/pdf", "File"), ("", "File"), ("imagery/x", "File"),
    ])
    func friendlyFileTypes(contentType: String, friendly: String) {
        #expect(TemplateValues.fileTypeFriendly(contentType: contentType) == friendly)
    }

    // MARK: choice per message type and template

    func rendered(_ event: WebhookEvent, choice: PushTemplateName = .default, templates: PushTemplateSet = .sendbirdDefaults)
        -> (title: String?, body: String)
    {
        TemplateRenderer.alertTemplate(for: event, recipientChoice: choice, templates: templates).render()
    }

    let photo = WebhookFile(url: "https://x/p.jpg", name: "squirrel.jpg", contentType: "image/jpeg", size: 10)

    @Test func defaultTemplatePerType() {
        #expect(rendered(makeEvent(text: "Bye!")).body == "Alice: Bye!")
        #expect(rendered(makeEvent(type: .file, text: "", files: [photo])).body == "squirrel.jpg")
        #expect(rendered(makeEvent(type: .admm, text: "Maintenance at 3", sender: nil)).body == "Maintenance at 3")
        #expect(rendered(makeEvent()).title == nil)
    }

    @Test func alternativeTemplatePerType() {
        #expect(rendered(makeEvent(), choice: .alternative).body == "New message arrived!")
        #expect(rendered(makeEvent(type: .file, files: [photo]), choice: .alternative).body == "New file delivered!")
        #expect(rendered(makeEvent(type: .admm, sender: nil), choice: .alternative).body == "New announcement!")
    }

    @Test func appCustomisedTemplates() {
        let templates = PushTemplateSet(
            defaultTemplate: PushMessageTemplate(
                mesg: "[{channel_name}] {sender_name}: {message}",
                file: "{sender_name} sent a {file_type_friendly}: {filename}",
                admm: "📢 {message}")
        )
        #expect(rendered(makeEvent(), templates: templates).body == "[Team] Alice: hello")
        let audio = WebhookFile(url: "u", name: "memo.m4a", contentType: "audio/mp4", size: 1)
        #expect(rendered(makeEvent(type: .file, files: [audio]), templates: templates).body == "Alice sent a Audio: memo.m4a")
        #expect(rendered(makeEvent(type: .admm, text: "Hi all"), templates: templates).body == "📢 Hi all")
    }

    @Test func senderWithoutNicknameIsNamedByID() {
        #expect(rendered(makeEvent(sender: WebhookSender(userID: "u-77"))).body == "u-77: hello")
    }

    @Test func channelCustomTypeTemplateBeatsTheUsersChoice() {
        let templates = PushTemplateSet(channelCustomTypes: [
            "support": PushMessageTemplate(mesg: "Support: {message}", file: "Support file", admm: "Support notice")
        ])
        let support = makeEvent(channel: WebhookChannel(channelURL: "c", name: "Help", customType: "support"))
        #expect(rendered(support, choice: .alternative, templates: templates).body == "Support: hello")
        let other = makeEvent(channel: WebhookChannel(channelURL: "c", customType: "sales"))
        #expect(rendered(other, choice: .alternative, templates: templates).body == "New message arrived!")
    }

    @Test func perMessageOverrideBeatsEverything() {
        let templates = PushTemplateSet(channelCustomTypes: [
            "support": PushMessageTemplate(mesg: "Support: {message}", file: "f", admm: "a")
        ])
        let channel = WebhookChannel(channelURL: "c", customType: "support")
        let named = makeEvent(channel: channel, templateOverride: .named(.alternative))
        #expect(rendered(named, choice: .default, templates: templates).body == "New message arrived!")
        let custom = makeEvent(channel: channel, templateOverride: .custom(title: "{sender_name} wrote", body: "«{message}»"))
        #expect(rendered(custom, templates: templates) == ("Alice wrote", "«hello»"))
        let titleOnly = makeEvent(templateOverride: .custom(title: "Heads up", body: nil))
        #expect(rendered(titleOnly) == ("Heads up", "hello"))
        let fileTitleOnly = makeEvent(type: .file, files: [photo], templateOverride: .custom(title: "New file", body: nil))
        #expect(rendered(fileTitleOnly) == ("New file", "squirrel.jpg"))
    }

    @Test func reRenderingWithAnotherMessageChangesOnlyTheMessage() {
        let template = AlertTemplate(title: "{sender_name}: {message}", body: "{sender_name}: {message}", values: values)
        let short = template.render(message: "By…")
        #expect(short.body == "Cindy: By…")
        #expect(short.title == "Cindy: By…")
    }
}

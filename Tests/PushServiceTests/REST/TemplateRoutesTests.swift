import PushCore
import Testing
@testable import PushService

@Suite(.timeLimit(.minutes(5))) struct TemplateRoutesTests {
    @Test func userTemplateChoice() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.get, "/v3/users/alice/push/template").code == 400201)
            let put = try await relay.request(.put, "/v3/users/alice/push/template", body: #"{"name": "alternative"}"#)
            #expect(put.status == .ok)
            #expect(put.body == json(#"{"name": "alternative"}"#))
            #expect(try await relay.request(.get, "/v3/users/alice/push/template").body == json(#"{"name": "alternative"}"#))
            #expect(try await relay.store.pushTemplateName(app: TestApps.a.appID, user: "alice") == .alternative)
            // A user known through a token has the default choice.
            try await relay.request(.post, "/v3/users/bob/push/apns", body: #"{"apns_device_token": "\#(apnsToken(1))"}"#)
            #expect(try await relay.request(.get, "/v3/users/bob/push/template").body == json(#"{"name": "default"}"#))
        }
    }

    @Test(arguments: [(#"{}"#, 400105), (#"{"name": "fancy"}"#, 400111), (#"{"name": 1}"#, 400100)])
    func badTemplateChoices(body: String, code: Int) async throws {
        try await LiveRelay.run { relay async throws in
            let r = try await relay.request(.put, "/v3/users/alice/push/template", body: body)
            #expect(r.status == .badRequest)
            #expect(r.code == code)
        }
    }

    @Test func appTemplatesStartAsSendbirdsAndCanBeChanged() async throws {
        try await LiveRelay.run { relay async throws in
            let list = try await relay.request(.get, "/v3/applications/push/message_templates")
            #expect(list.status == .ok)
            #expect(
                list.body
                    == json(
                        #"""
                        {"push_message_templates": [
                          {"template_name": "default", "template": {"MESG": "{sender_name}: {message}", "FILE": "{filename}", "ADMM": "{message}"}},
                          {"template_name": "alternative", "template": {"MESG": "New message arrived!", "FILE": "New file delivered!", "ADMM": "New announcement!"}}]}
                        """#))

            let put = try await relay.request(
                .put, "/v3/applications/push/message_templates/alternative",
                body: #"{"template": {"MESG": "{sender_name} in {channel_name}"}}"#)
            #expect(put.status == .ok)
            let changed =
                #"{"push_message_templates": [{"template_name": "alternative", "template": {"MESG": "{sender_name} in {channel_name}", "FILE": "New file delivered!", "ADMM": "New announcement!"}}]}"#
            #expect(put.body == json(changed))
            #expect(try await relay.request(.get, "/v3/applications/push/message_templates/alternative").body == json(changed))
            // App B is untouched.
            let b = try await relay.request(.get, "/v3/applications/push/message_templates/alternative", app: TestApps.b)
            #expect(b.body["push_message_templates"] != json(changed)["push_message_templates"])
        }
    }

    @Test func appTemplateErrors() async throws {
        try await LiveRelay.run { relay async throws in
            #expect(try await relay.request(.get, "/v3/applications/push/message_templates/fancy").code == 400201)
            #expect(
                try await relay.request(.put, "/v3/applications/push/message_templates/fancy", body: #"{"template": {}}"#).code == 400201)
            let base = "/v3/applications/push/message_templates/default"
            #expect(try await relay.request(.put, base, body: #"{}"#).code == 400105)
            #expect(try await relay.request(.put, base, body: #"{"template": "x"}"#).code == 400103)
            #expect(try await relay.request(.put, base, body: #"{"template": {"MESG": 1}}"#).code == 400100)
            #expect(try await relay.request(.put, base, body: #"{"template": {"MESG": ""}}"#).code == 400110)
            #expect(
                try await relay.request(.put, base, body: #"{"template": {"FILE": "\#(String(repeating: "f", count: 1025))"}}"#).code
                    == 400110)
            #expect(try await relay.store.storedMessageTemplate(app: TestApps.a.appID, name: .default) == nil)
        }
    }

    @Test func configuredTemplatesAreTheAppsUntilChangedThroughTheAPI() async throws {
        var configured = TestApps.a
        configured.templates.alternativeTemplate = PushMessageTemplate(mesg: "Psst: {message}", file: "A file", admm: "Note")
        let a = configured
        try await LiveRelay.run(apps: [a, TestApps.b]) { relay async throws in
            #expect(
                try await relay.request(.get, "/v3/applications/push/message_templates").body
                    == json(
                        #"""
                        {"push_message_templates": [
                          {"template_name": "default", "template": {"MESG": "{sender_name}: {message}", "FILE": "{filename}", "ADMM": "{message}"}},
                          {"template_name": "alternative", "template": {"MESG": "Psst: {message}", "FILE": "A file", "ADMM": "Note"}}]}
                        """#))
            let alternative = "/v3/applications/push/message_templates/alternative"
            let b = try await relay.request(.get, alternative, app: TestApps.b)
            #expect(
                b.body
                    == json(
                        #"{"push_message_templates": [{"template_name": "alternative", "template": {"MESG": "New message arrived!", "FILE": "New file delivered!", "ADMM": "New announcement!"}}]}"#
                    ))

            // A change through the API starts from the configured texts…
            let put = try await relay.request(.put, alternative, body: #"{"template": {"MESG": "Hey: {message}"}}"#)
            let changed = json(
                #"{"push_message_templates": [{"template_name": "alternative", "template": {"MESG": "Hey: {message}", "FILE": "A file", "ADMM": "Note"}}]}"#
            )
            #expect(put.body == changed)

            // …and wins over a reloaded configuration, which still sets the templates not changed.
            var reloaded = a
            reloaded.templates.defaultTemplate.mesg = "{sender_name} says {message}"
            reloaded.templates.alternativeTemplate.mesg = "ignored"
            relay.api.templates.replace(with: [reloaded, TestApps.b])
            #expect(try await relay.request(.get, alternative).body == changed)
            let byDefault = try await relay.request(.get, "/v3/applications/push/message_templates/default")
            #expect(
                byDefault.body
                    == json(
                        #"{"push_message_templates": [{"template_name": "default", "template": {"MESG": "{sender_name} says {message}", "FILE": "{filename}", "ADMM": "{message}"}}]}"#
                    ))
        }
    }
}

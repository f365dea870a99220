import ConfigSupport
import PushCore
import Testing
@testable import PushService

/// `apps[].templates` in the YAML file.
@Suite(.timeLimit(.minutes(5))) struct TemplateConfigurationTests {
    static func yaml(_ templates: String) -> String {
        """
        listen: {}
        database: {path: p}
        apps:
          - app_id: A
            api_token: aaaaaaaaaaaaaaaaaaaa
            templates:
        \(templates.split(separator: "\n").map { "      \($0)" }.joined(separator: "\n"))
        """
    }

    @Test func withoutTemplatesAnAppHasSendbirdsTexts() throws {
        let config = try RelayConfiguration.parse(
            yaml: "listen: {}\ndatabase: {path: p}\napps: [{app_id: A, api_token: aaaaaaaaaaaaaaaaaaaa}]")
        #expect(config.apps[0].templates == .sendbirdDefaults)
    }

    @Test func parsesNamedAndChannelTypeTemplates() throws {
        let config = try RelayConfiguration.parse(
            yaml: Self.yaml(
                """
                default: {MESG: "{sender_name} in {channel_name}: {message}"}
                alternative: {MESG: "Something new", FILE: "A file", ADMM: "News"}
                channel_custom_types:
                  support: {MESG: "Support: {message}"}
                  "with space": {ADMM: "Admin"}
                """))
        let templates = config.apps[0].templates
        // Texts not given keep Sendbird's.
        #expect(
            templates.defaultTemplate
                == PushMessageTemplate(mesg: "{sender_name} in {channel_name}: {message}", file: "{filename}", admm: "{message}"))
        #expect(templates.alternativeTemplate == PushMessageTemplate(mesg: "Something new", file: "A file", admm: "News"))
        // A channel type's missing texts come from the app's default template.
        #expect(
            templates.channelCustomTypes == [
                "support": PushMessageTemplate(mesg: "Support: {message}", file: "{filename}", admm: "{message}"),
                "with space": PushMessageTemplate(mesg: "{sender_name} in {channel_name}: {message}", file: "{filename}", admm: "Admin"),
            ])
    }

    @Test(arguments: [
        ("fancy: {MESG: x}", ConfigurationError.unknownKey("apps[0].templates.fancy")),
        ("default: {mesg: x}", .unknownKey("apps[0].templates.default.mesg")),
        ("default: {MESG: \"\"}", .invalidValue(key: "apps[0].templates.default.MESG", reason: "must not be empty")),
        ("default: {MESG: [a]}", .invalidValue(key: "apps[0].templates.default.MESG", reason: "must be a string")),
        (
            "alternative: {FILE: \(String(repeating: "f", count: 1025))}",
            .invalidValue(key: "apps[0].templates.alternative.FILE", reason: "must be at most 1024 bytes")
        ),
        ("default: hello", .invalidValue(key: "apps[0].templates.default", reason: "must be a mapping of keys to values")),
        (
            "channel_custom_types: {support: hi}",
            .invalidValue(key: "apps[0].templates.channel_custom_types.support", reason: "must be a mapping of keys to values")
        ),
        ("channel_custom_types: {support: {MESG: x, SOUND: y}}", .unknownKey("apps[0].templates.channel_custom_types.support.SOUND")),
    ])
    func invalidTemplatesNameTheKey(templates: String, expected: ConfigurationError) {
        #expect(throws: expected) { try RelayConfiguration.parse(yaml: Self.yaml(templates)) }
    }
}

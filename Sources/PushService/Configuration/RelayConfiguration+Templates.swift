import ConfigSupport
import PushCore

extension RelayConfiguration {
    /// `apps[].templates`:
    /// ```yaml
    /// templates:
    ///   default:     {MESG: "{sender_name}: {message}", FILE: "{filename}", ADMM: "{message}"}
    ///   alternative: {MESG: "New message!"}           # texts not given stay Sendbird's
    ///   channel_custom_types:
    ///     support: {MESG: "Support: {message}"}       # texts not given come from `default`
    /// ```
    /// Texts follow the REST API's rules: not empty, at most 1024 bytes.
    static func parseTemplates(_ map: ConfigMapping) throws(ConfigurationError) -> PushTemplateSet {
        try map.allowOnly(["default", "alternative", "channel_custom_types"])
        var set = PushTemplateSet.sendbirdDefaults
        if let m = try map.mapping("default") { set.defaultTemplate = try parseTemplate(m, over: set.defaultTemplate) }
        if let m = try map.mapping("alternative") { set.alternativeTemplate = try parseTemplate(m, over: set.alternativeTemplate) }
        if let byType = try map.mapping("channel_custom_types") {
            for key in byType.keys {
                guard !key.isEmpty else { throw .invalidValue(key: byType.name("\"\""), reason: "a channel custom type must not be empty") }
                guard let m = try byType.mapping(key) else {
                    throw .invalidValue(key: byType.name(key), reason: "must be a template: {MESG, FILE, ADMM}")
                }
                set.channelCustomTypes[key] = try parseTemplate(m, over: set.defaultTemplate)
            }
        }
        return set
    }

    private static func parseTemplate(_ map: ConfigMapping, over base: PushMessageTemplate) throws(ConfigurationError)
        -> PushMessageTemplate
    {
        try map.allowOnly(["MESG", "FILE", "ADMM"])
        func text(_ key: String) throws(ConfigurationError) -> String? {
            guard let value = try map.string(key) else { return nil }
            guard !value.isEmpty else { throw .invalidValue(key: map.name(key), reason: "must not be empty") }
            guard value.utf8.count <= maximumTemplateTextBytes else {
                throw .invalidValue(key: map.name(key), reason: "must be at most \(maximumTemplateTextBytes) bytes")
            }
            return value
        }
        var template = base
        if let value = try text("MESG") { template.mesg = value }
        if let value = try text("FILE") { template.file = value }
        if let value = try text("ADMM") { template.admm = value }
        return template
    }

    /// The same limit as `PUT /v3/applications/push/message_templates/{name}`.
    static var maximumTemplateTextBytes: Int { TextLimits.templateBytes }
}

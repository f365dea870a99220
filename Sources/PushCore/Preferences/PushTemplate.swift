/// The name of an app-level push template a user can choose (`default` or `alternative`).
public enum PushTemplateName: String, Sendable, Hashable, CaseIterable, Codable {
    case `default`
    case alternative
}

/// The texts of one app-level push template, per message type. Variables in braces:
/// `{sender_name}`, `{message}`, `{filename}`, `{channel_name}`, `{file_type_friendly}`.
public struct PushMessageTemplate: Sendable, Hashable, Codable {
    /// Text messages (`MESG`).
    public var mesg: String
    /// File messages (`FILE`).
    public var file: String
    /// Admin messages (`ADMM`).
    public var admm: String

    public init(mesg: String, file: String, admm: String) {
        self.mesg = mesg
        self.file = file
        self.admm = admm
    }

    /// Sendbird's default texts for each template name.
    public static func sendbirdDefault(for name: PushTemplateName) -> PushMessageTemplate {
        switch name {
        case .default:
            PushMessageTemplate(mesg: "{sender_name}: {message}", file: "{filename}", admm: "{message}")
        case .alternative:
            PushMessageTemplate(mesg: "New message arrived!", file: "New file delivered!", admm: "New announcement!")
        }
    }
}

/// A per-message template choice (Sendbird `push_message_template` on send-message). It wins over
/// channel-type templates and over the recipient's own choice.
public enum PushTemplateOverride: Sendable, Hashable {
    /// Use the app's `default` or `alternative` template.
    case named(PushTemplateName)
    /// Use this title and body; both may contain `{sender_name}` and `{message}`. A missing body
    /// means the message text.
    case custom(title: String?, body: String?)
}

/// Chooses and fills push templates.
///
/// Choice, highest precedence first (Sendbird's order):
/// 1. the message's own `push_message_template` (`default`/`alternative`, or `{title, body}`
///    where a missing body means the message text — the file name for FILE messages);
/// 2. the app's template for the channel's custom type, if any;
/// 3. the recipient's chosen template (`default` unless they chose `alternative`).
///
/// Filling: `{sender_name}`, `{message}`, `{filename}`, `{channel_name}` and
/// `{file_type_friendly}` are replaced; any other `{word}` is left as written. Replacement is a
/// single left-to-right pass, so a value that itself contains `{message}` is not expanded again.
public enum TemplateRenderer {
    /// The template for `event` as seen by a recipient who chose `recipientChoice`.
    public static func alertTemplate(
        for event: WebhookEvent,
        recipientChoice: PushTemplateName,
        templates: PushTemplateSet
    ) -> AlertTemplate {
        let values = TemplateValues(event: event)
        switch event.templateOverride {
        case .custom(let title, let body)?:
            return AlertTemplate(
                title: title, body: body ?? (event.type == .file ? "{filename}" : "{message}"),
                values: values)
        case .named(let name)?:
            return AlertTemplate(body: text(of: templates.template(named: name), for: event.type), values: values)
        case nil:
            var chosen = templates.template(named: recipientChoice)
            if !event.channel.customType.isEmpty, let byType = templates.channelCustomTypes[event.channel.customType] {
                chosen = byType
            }
            return AlertTemplate(body: text(of: chosen, for: event.type), values: values)
        }
    }

    /// The text of `template` for a message type.
    public static func text(of template: PushMessageTemplate, for type: MessageType) -> String {
        switch type {
        case .mesg: template.mesg
        case .file: template.file
        case .admm: template.admm
        }
    }

    /// `text` with every known `{variable}` replaced in one pass.
    public static func render(_ text: String, values: TemplateValues) -> String {
        slots(text, values: values, budget: .max).filled(with: values.message)
    }

    /// `text` with each `{name}` that `value` knows replaced, in one left-to-right pass (a value is
    /// not expanded again); any other brace stays as written. For short configured templates
    /// (`AlertPresentation`'s); a push template's text goes through `slots`, which also budgets.
    public static func fill(_ text: String, _ value: (Substring) -> String?) -> String {
        var out = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }), rest[close] == "}",
                let replacement = value(rest[afterOpen..<close])
            {
                out += replacement
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[afterOpen...]
            }
        }
        return out + rest
    }

    /// `text` with every known variable but `{message}` replaced in one pass, the pieces around
    /// the message's places kept apart. Rendering stops once the pieces pass `budget` JSON bytes
    /// (`isOverBudget`), so its cost is bounded by the budget and the template's length, never by
    /// template × values.
    public static func slots(_ text: String, values: TemplateValues, budget: Int) -> MessageSlots {
        var pieces: [String] = []
        var piece = ""
        var escaped = 0
        var rest = text[...]
        func append(_ part: Substring) { piece += part; escaped += JSONWriter.escapedByteCount(part) }
        func append(_ part: String) { piece += part; escaped += JSONWriter.escapedByteCount(part) }
        while escaped <= budget, let open = rest.firstIndex(of: "{") {
            append(rest[..<open])
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(where: { $0 == "}" || $0 == "{" }),
                rest[close] == "}"
            {
                let name = rest[afterOpen..<close]
                if name == "message" {
                    pieces.append(piece)
                    piece = ""
                    rest = rest[rest.index(after: close)...]
                    continue
                }
                if let value = values[variable: name] {
                    append(value)
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            append("{")
            rest = rest[afterOpen...]
        }
        if escaped <= budget { append(rest) }
        pieces.append(piece)
        return MessageSlots(pieces: pieces, escapedByteCount: escaped, isOverBudget: escaped > budget)
    }
}

/// The template texts chosen for one recipient and message, with their values, before
/// rendering. The payload builder renders it with a shortened message when the payload is too
/// large, so `aps.alert` and `sendbird.message` are cut identically.
public struct AlertTemplate: Sendable, Hashable {
    /// Only a per-message `{title, body}` template has a title.
    public var title: String?
    public var body: String
    public var values: TemplateValues

    public init(title: String? = nil, body: String, values: TemplateValues) {
        self.title = title
        self.body = body
        self.values = values
    }

    /// The rendered title and body.
    public func render() -> (title: String?, body: String) {
        (title.map { TemplateRenderer.render($0, values: values) }, TemplateRenderer.render(body, values: values))
    }

    /// The rendered title and body with `{message}` standing for `message` instead.
    public func render(message: String) -> (title: String?, body: String) {
        var copy = self
        copy.values.message = message
        return copy.render()
    }

    /// Title and body rendered but for `{message}`, each stopping at `budget` JSON bytes.
    public func slots(budget: Int) -> (title: MessageSlots?, body: MessageSlots) {
        (
            title.map { TemplateRenderer.slots($0, values: values, budget: budget) },
            TemplateRenderer.slots(body, values: values, budget: budget)
        )
    }
}

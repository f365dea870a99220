/// The app's push templates: the two named ones users choose between, and optional templates
/// for channels of a custom type (which win over the user's choice, as in Sendbird).
public struct PushTemplateSet: Sendable, Hashable {
    public var defaultTemplate: PushMessageTemplate
    public var alternativeTemplate: PushMessageTemplate
    /// Keyed by the channel's `custom_type`.
    public var channelCustomTypes: [String: PushMessageTemplate]

    public init(
        defaultTemplate: PushMessageTemplate = .sendbirdDefault(for: .default),
        alternativeTemplate: PushMessageTemplate = .sendbirdDefault(for: .alternative),
        channelCustomTypes: [String: PushMessageTemplate] = [:]
    ) {
        self.defaultTemplate = defaultTemplate
        self.alternativeTemplate = alternativeTemplate
        self.channelCustomTypes = channelCustomTypes
    }

    /// Sendbird's stock texts, no channel-type templates.
    public static let sendbirdDefaults = PushTemplateSet()

    public func template(named name: PushTemplateName) -> PushMessageTemplate {
        switch name {
        case .default: defaultTemplate
        case .alternative: alternativeTemplate
        }
    }

    /// This set with the named templates in `overrides` put in their place (templates an app
    /// changed through the REST API win over the configured ones).
    public func replacing(_ overrides: [PushTemplateName: PushMessageTemplate]) -> PushTemplateSet {
        var set = self
        if let template = overrides[.default] { set.defaultTemplate = template }
        if let template = overrides[.alternative] { set.alternativeTemplate = template }
        return set
    }
}

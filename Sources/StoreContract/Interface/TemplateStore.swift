import PushCore

/// Which push template each user receives, and the app templates changed through the API.
public protocol TemplateStore: Sendable {
    /// The template a user chose; `nil` when the user is unknown.
    func pushTemplateName(app: String, user: String) async throws -> PushTemplateName?

    /// Sets the template a user receives, creating the user.
    func setPushTemplateName(app: String, user: String, _ name: PushTemplateName) async throws

    /// The templates an app changed through the API, by name. A template not listed is the app's
    /// configured one. Names this version does not know (written by a newer one) are skipped.
    func storedMessageTemplates(app: String) async throws -> [PushTemplateName: PushMessageTemplate]

    /// One template of an app as changed through the API; nil when it never was.
    func storedMessageTemplate(app: String, name: PushTemplateName) async throws -> PushMessageTemplate?

    /// Reads, changes and writes one template of an app in one transaction. A template not stored
    /// yet starts from `baseline` (the configured one) and is stored whole.
    @discardableResult
    func updateMessageTemplate(
        app: String, name: PushTemplateName, startingFrom baseline: PushMessageTemplate,
        _ change: @escaping @Sendable (inout PushMessageTemplate) throws -> Void
    ) async throws -> PushMessageTemplate
}
